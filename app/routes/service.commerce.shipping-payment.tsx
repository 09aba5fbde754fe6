import { offeredShipping } from "~/server/store/shipping-method";
import { reviewView, shippingMethodView, shippingPaymentAnswer } from "~/app/lib/api/cart.server";
import { shippingPayment } from "~/app/lib/api/groups/cart";
import { apiJson, apiRoute, serve } from "~/app/lib/api/handler.server";
import { checkoutShopper } from "~/app/lib/store/checkout.server";
import { db } from "~/app/lib/context/db.server";

/**
 * POST /service/commerce/shipping-payment (spec 7): the /shipping-payment form as JSON
 * (shippingPaymentStep, the same schema and rules), answering what the page would show next:
 * the review once confirmed, and the shipping methods offered where the order now ships.
 */
const route = apiRoute(
  serve(shippingPayment, async ({ request, context, body }) => {
    const step = await shippingPaymentAnswer({ request, context }, body);
    if (!step.ok) return step.response;
    const { user, cartId, cart } = await checkoutShopper({ request, context });
    const offered = await offeredShipping(await db(), { cartId, cart, userId: user?.id ?? null });
    return apiJson({
      confirmed: step.confirmed,
      next: step.next,
      review: step.confirmed ? await reviewView({ request, context }) : null,
      shippingMethods: offered.map((c) => shippingMethodView(c.method, c.priceCents)),
    });
  }),
);

export const loader = route.loader;
export const action = route.action;
