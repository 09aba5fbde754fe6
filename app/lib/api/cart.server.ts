import type { z, ZodError } from "zod";
import { PERMISSION_PRICE_CENTS } from "~/shared/pricing";
import type { ShippingMethod } from "~/shared/shipping";
import type { Cart, CartLine } from "~/server/store/cart";
import { estimateCharges } from "~/server/store/pricing";
import { buildReview, readDraft } from "~/server/store/checkout";
import { normalizePromoCode } from "~/server/store/promo";
import { readEstimateDestination } from "~/app/lib/store/cart-estimate.server";
import { checkoutShopper, shippingPaymentStep, UNKNOWN_ADDRESS } from "~/app/lib/store/checkout.server";
import { db } from "~/app/lib/context/db.server";
import { formatUsd } from "~/app/lib/content/format";
import { CHOOSE_SHIPPING, type shippingPaymentFields } from "~/app/lib/store/checkout-forms";
import type { cartItemSchema, cartLineSchema, cartSchema, reviewSchema } from "./groups/cart";
import { apiError, invalidInput } from "./handler.server";
import type { RequestArgs } from "~/app/lib/context/request-context.server";

/** An amount as the API gives it: cents, and US dollars as the page shows them. */
export const money = (cents: number) => ({ cents, formatted: formatUsd(cents) });

type LineView = z.infer<typeof cartLineSchema>;

/** A cart's lines as the service API lists them (app/lib/api/groups/cart.ts). */
export function cartLines(cart: Cart): LineView[] {
  return cart.lines.map((l) => ({
    id: l.id,
    availabilityId: l.availabilityId,
    productId: l.productId,
    title: l.title,
    format: l.format,
    type: l.type,
    quantity: l.quantity,
    maxQuantity: l.maxQuantity,
    unitPrice: money(l.unitPriceCents),
    percentOff: l.percentOff,
    linePrice: money(l.lineTotalCents),
    comingSoon: l.comingSoon,
    retired: l.retired,
    availableDate: l.availableDate,
    productUrl: l.url,
  }));
}

const cartItem = (l: CartLine): z.infer<typeof cartItemSchema> => ({
  itemid: l.id,
  productId: l.availabilityId,
  name: l.title,
  url: l.url,
  listPrice: money(l.kind === "perm" ? PERMISSION_PRICE_CENTS : l.listPriceCents),
  quantity: l.quantity,
  type: l.type,
  referral: l.referral,
});

/**
 * A cart as the service API answers it: the spec's Cart entity, its tax and shipping estimated
 * for the destination the cart page's estimate remembers (as the cart page shows them).
 */
export async function cartView(request: Request, cart: Cart): Promise<z.infer<typeof cartSchema>> {
  const destination = await readEstimateDestination(request);
  const estimate = destination && cart.lines.length > 0 ? estimateCharges(cart, destination) : null;
  const estimated = destination !== null;
  return {
    cart_amount: money(cart.subtotalCents),
    line_items: { physical_items: cart.physical.map(cartItem), digital_items: cart.digital.map(cartItem) },
    subTotal: money(cart.subtotalCents),
    tax: estimated ? money(estimate?.taxCents ?? 0) : null,
    shippingCost: estimated ? money(estimate?.shipping?.cents ?? 0) : null,
    grandTotal: estimated ? money(estimate?.grandTotalCents ?? cart.subtotalCents) : null,
    lines: cartLines(cart),
    count: cart.itemCount,
    subtotal: money(cart.subtotalCents),
  };
}

/** The review of the caller's checkout, when its details are confirmed (the review page's buildReview); else null. */
export async function reviewView({ request, context }: RequestArgs): Promise<z.infer<typeof reviewSchema> | null> {
  const { user, cartId, cart } = await checkoutShopper({ request, context });
  if (!cartId) return null;
  const database = await db();
  const draft = await readDraft(database, cartId);
  const outcome = await buildReview(database, {
    cart,
    draft,
    userId: user?.id ?? null,
    accountEmail: user?.email ?? null,
  });
  if (!outcome.ok) return null;
  const { review } = outcome;
  const { id: _id, ...address } = review.address;
  const t = review.totals;
  return {
    email: review.email,
    address,
    shippingMethod: review.method && { id: review.method.id, name: review.method.name, delivery: review.method.delivery },
    promo: review.promo && {
      code: normalizePromoCode(draft.promoCode),
      applied: review.promo.status === "valid",
      message: review.promo.message,
    },
    lines: cartLines(review.cart),
    totals: {
      subtotal: money(t.subtotalCents),
      discount: money(t.discountCents),
      tax: money(t.taxCents),
      shipping: money(t.shippingCents),
      total: money(t.totalCents),
    },
  };
}

/** A shipping method as the API offers it: what it is, and its price for the caller's cart. */
export const shippingMethodView = (method: ShippingMethod, priceCents: number) => ({
  id: method.id,
  name: method.name,
  delivery: method.delivery,
  price: money(priceCents),
});

export const EMPTY_CART_MESSAGE = "Your Shopping Cart is empty.";

/** A field's error, as the page form shows it beside the field. */
export const fieldError = (field: string, message: string) => apiError(400, "invalid_input", message, { fields: { [field]: [message] } });

export type ShippingPaymentAnswer = { ok: true; confirmed: boolean; next: string } | { ok: false; response: Response };

/**
 * The /shipping-payment form's step (shippingPaymentStep: the page's schema and rules) for the
 * service API: where the shopper goes next, or the refusal as a JSON error.
 */
export async function shippingPaymentAnswer(
  { request, context }: RequestArgs,
  body: z.output<typeof shippingPaymentFields>,
): Promise<ShippingPaymentAnswer> {
  let problems: ZodError | undefined;
  const step = await shippingPaymentStep({ request, context }, (schema) => {
    const parsed = schema.safeParse(body);
    if (!parsed.success) problems = parsed.error;
    return { payload: body, valid: parsed.success };
  });
  const refused = (response: Response) => ({ ok: false as const, response });
  if (step.closed) return refused(apiError(503, "closed", "Ordering is closed for maintenance. Your cart is kept as it is."));
  const { outcome } = step;
  switch (outcome.kind) {
    case "invalid-form":
      return refused(invalidInput(problems!));
    case "unknown-address":
      return refused(apiError(404, "unknown_address", UNKNOWN_ADDRESS));
    case "no-shipping-method":
      return refused(fieldError("shippingMethod", CHOOSE_SHIPPING));
    case "promo-refused":
      return refused(fieldError("promoCode", outcome.message));
    case "redirect":
      if (outcome.to === "/shipping-payment") return refused(apiError(409, "empty_cart", EMPTY_CART_MESSAGE));
      return { ok: true, confirmed: outcome.to === "/review-order", next: outcome.to };
  }
}
