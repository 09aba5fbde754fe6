import { reviewView, shippingPaymentAnswer } from "~/app/lib/api/cart.server";
import { address } from "~/app/lib/api/groups/cart";
import { apiJson, apiRoute, serve } from "~/app/lib/api/handler.server";

/**
 * POST /service/commerce/address (spec 7): the /shipping-payment form's step (shippingPaymentStep,
 * the same schema and rules), answered as JSON: the review once the details are confirmed.
 */
const route = apiRoute(
  serve(address, async ({ request, context, body }) => {
    const step = await shippingPaymentAnswer({ request, context }, body);
    if (!step.ok) return step.response;
    return apiJson({ confirmed: step.confirmed, review: step.confirmed ? await reviewView({ request, context }) : null });
  }),
);

export const loader = route.loader;
export const action = route.action;
