import { cartHead } from "~/app/lib/api/groups/cart";
import { apiRoute, serve } from "~/app/lib/api/handler.server";
import { requestContext } from "~/app/lib/context/request-context.server";
import { miniCart } from "~/app/lib/store/mini-cart.server";

/**
 * HEAD /service/commerce/shopping-cart (spec 7): the header mini cart's item count, in a header
 * and without a body. Remix hands a HEAD request to the loader; apiRoute serves it with this
 * endpoint and answers any other method 405.
 */
const route = apiRoute(
  serve(cartHead, async ({ request, context }) => {
    const { itemCount } = await miniCart(requestContext({ request, context }));
    return new Response(null, { status: 200, headers: { "Cache-Control": "private, no-store", "X-Cart-Item-Count": String(itemCount) } });
  }),
);

export const loader = route.loader;
export const action = route.action;
