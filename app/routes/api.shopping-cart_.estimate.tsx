import { readCart } from "~/server/store/cart";
import { estimateCharges } from "~/server/store/pricing";
import { money } from "~/app/lib/api/cart.server";
import { estimateEndpoint } from "~/app/lib/api/groups/cart";
import { apiJson, apiRoute, serve } from "~/app/lib/api/handler.server";
import { rememberEstimateDestination } from "~/app/lib/store/cart-estimate.server";
import { requestContext } from "~/app/lib/context/request-context.server";

/**
 * POST /api/shopping-cart/estimate: the cart page's estimate form (the same schema and
 * estimateCharges), remembering the destination for the cart page as the form does.
 */
const route = apiRoute(
  serve(estimateEndpoint, async ({ request, context, body: destination }) => {
    const asker = requestContext({ request, context });
    const cart = await readCart(await asker.db(), await asker.cartId());
    const estimate = cart.lines.length > 0 ? estimateCharges(cart, destination) : null;
    return apiJson(
      {
        destination,
        estimate: estimate && {
          subtotal: money(cart.subtotalCents),
          tax: money(estimate.taxCents),
          shipping: estimate.shipping && { ...estimate.shipping, formatted: money(estimate.shipping.cents).formatted },
          total: money(estimate.grandTotalCents),
        },
      },
      { headers: { "Set-Cookie": await rememberEstimateDestination(destination) } },
    );
  }),
);

export const loader = route.loader;
export const action = route.action;
