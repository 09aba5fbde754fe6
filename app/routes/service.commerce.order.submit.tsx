import { money } from "~/app/lib/api/cart.server";
import { submitOrderEndpoint } from "~/app/lib/api/groups/cart";
import { apiError, apiJson, apiRoute, serve } from "~/app/lib/api/handler.server";
import { placeOrder } from "~/app/lib/store/checkout.server";
import { orderPath } from "~/server/store/order-mail";

const INCOMPLETE = "Please complete your shipping and payment details before placing your order.";

/** POST /service/commerce/order/submit (spec 7): the review page's Place order (placeOrder), idempotent by its key. */
const route = apiRoute(
  serve(submitOrderEndpoint, async ({ request, context, body }) => {
    const outcome = await placeOrder({ request, context }, { idempotencyKey: body.idempotencyKey, shownTotalCents: body.shownTotal });
    switch (outcome.kind) {
      case "refused":
        return apiError(outcome.status, outcome.code, outcome.message);
      case "elsewhere":
        if (outcome.code === "empty") return apiError(409, "empty_cart", "Your Shopping Cart is empty.");
        if (outcome.code === "incomplete") return apiError(409, "incomplete", INCOMPLETE, { next: outcome.to });
        return apiError(409, "already_ordered", "This cart's order was placed already: please pay for or cancel that order.", {
          next: outcome.to,
        });
      case "payment-failed":
        return apiError(outcome.status, "payment_failed", outcome.message, {}, outcome.headers);
      case "placed": {
        const { order } = outcome;
        const placed = {
          order: {
            id: order.id,
            number: order.number,
            status: outcome.paid ? ("paid" as const) : order.status,
            total: money(order.totalCents),
            url: orderPath(order),
          },
          next: outcome.next,
        };
        return apiJson(placed, { status: outcome.created ? 201 : 200, headers: outcome.headers });
      }
    }
  }),
);

export const loader = route.loader;
export const action = route.action;
