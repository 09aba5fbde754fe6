import { reviewView } from "../lib/api/cart.server";
import { address } from "../lib/api/groups/cart";
import { apiError, apiJson, apiRoute, invalidInput, serve } from "../lib/api/handler.server";
import { shippingPaymentStep, UNKNOWN_ADDRESS } from "../lib/checkout.server";
import { CHOOSE_SHIPPING } from "../lib/forms/checkout";
import type { ZodError } from "zod";

/**
 * POST /service/commerce/address (spec 7): the /shipping-payment form's step (shippingPaymentStep,
 * the same schema and rules), answered as JSON: the review once the details are confirmed.
 */
const route = apiRoute(
  serve(address, async ({ request, body }) => {
    let problems: ZodError | undefined;
    const step = await shippingPaymentStep(request, (schema) => {
      const parsed = schema.safeParse(body);
      if (!parsed.success) problems = parsed.error;
      return { payload: body, valid: parsed.success };
    });
    if (step.closed) return apiError(503, "closed", "Ordering is closed for maintenance. Your cart is kept as it is.");
    const { outcome } = step;
    const fieldError = (field: string, message: string) => apiError(400, "invalid_input", message, { fields: { [field]: [message] } });
    switch (outcome.kind) {
      case "invalid-form":
        return invalidInput(problems!);
      case "unknown-address":
        return apiError(404, "unknown_address", UNKNOWN_ADDRESS);
      case "no-shipping-method":
        return fieldError("shippingMethod", CHOOSE_SHIPPING);
      case "promo-refused":
        return fieldError("promoCode", outcome.message);
      case "redirect":
        if (outcome.to === "/shipping-payment") return apiError(409, "empty_cart", "Your Shopping Cart is empty.");
        if (outcome.to === "/review-order") return apiJson({ confirmed: true, review: await reviewView(request) });
        return apiJson({ confirmed: false, review: null });
    }
  }),
);

export const loader = route.loader;
export const action = route.action;
