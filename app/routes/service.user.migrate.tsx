import { carryOverGuestFlow } from "~/app/lib/accounts/flows.server";
import { migrate } from "~/app/lib/api/groups/auth-user";
import { apiJson, apiRoute, serve } from "~/app/lib/api/handler.server";

function carriedMessage(cartLines: number): string {
  if (cartLines === 0) return "Nothing to carry over: this browser holds no guest cart.";
  return `${cartLines} ${cartLines === 1 ? "item" : "items"} from this browser's guest cart moved into your cart.`;
}

/** POST /service/user/migrate (spec): what this browser collected as a guest, carried over as sign-in does. */
const route = apiRoute(
  serve(migrate, async ({ request, context, user }) => {
    const { cartLines } = await carryOverGuestFlow(request, context, user);
    return apiJson({ cartLines, message: carriedMessage(cartLines) });
  }),
);

export const loader = route.loader;
export const action = route.action;
