import type { ZodTypeAny } from "zod";
import { normalizeAddress } from "~/shared/address";
import { productCoverPath } from "~/shared/urls";
import { readCart, type CartLine } from "~/server/store/cart";
import { needsShipping, submitShippingPayment, type CheckoutDraft, type ShippingPaymentOutcome } from "~/server/store/checkout";
import { storeMaintenance } from "~/server/store/maintenance";
import { orderPath } from "~/server/store/order-mail";
import { completeFreeOrder, startOrderPayment } from "~/server/store/order-payment";
import type { Order } from "~/server/store/order-records";
import { submitOrder } from "~/server/store/order-submit";
import { log } from "~/server/log";
import { config, db } from "~/app/lib/context/db.server";
import { shippingPaymentSchema } from "./checkout-forms";
import { NEW_ADDRESS } from "~/app/lib/store/address-choice";
import { paymentReturnPath, rememberGuestOrder } from "./orders.server";
import { confirmOrder, payments } from "./payments.server";
import { GENERIC_ERROR } from "~/app/lib/forms/cross-site";
import { requestContext, type RequestArgs } from "~/app/lib/context/request-context.server";

// The checkout steps as /shipping-payment and /review-order take them, shared with the service
// API (app/routes/service.commerce.*): one place for each rule.

/** Who is checking out, and their cart as it is now. */
export async function checkoutShopper({ request, context }: RequestArgs) {
  const user = await requestContext({ request, context }).user();
  const cartId = await requestContext({ request, context }).cartId();
  const cart = await readCart(await db(), cartId);
  return { user, cartId, cart };
}

export const UNKNOWN_ADDRESS = "Please choose one of your addresses, or enter a new one.";

const str = (value: unknown) => (typeof value === "string" ? value : "");

/** The draft as typed in the form, whichever button was pressed. */
export function draftFrom(payload: Record<string, unknown>): CheckoutDraft {
  const choice = str(payload.addressChoice);
  return {
    email: str(payload.email).trim(),
    addressId: choice && choice !== NEW_ADDRESS ? choice : null,
    address: normalizeAddress({
      firstName: str(payload.firstName),
      lastName: str(payload.lastName),
      address1: str(payload.address1),
      address2: str(payload.address2),
      city: str(payload.city),
      state: str(payload.state),
      postalCode: str(payload.postalCode),
      countryCode: str(payload.countryCode) || "US",
    }),
    saveAddress: payload.saveAddress === "on",
    shippingMethod: str(payload.shippingMethod),
    promoCode: str(payload.promoCode),
    confirmed: false,
  };
}

/** How a caller reads its input with the form's schema (which depends on who is checking out). */
export type ReadWith = (schema: ZodTypeAny) => { payload: Record<string, unknown>; valid: boolean };

/**
 * The shipping-and-payment step: closed during store maintenance; otherwise the input read with
 * the form's schema for this shopper and cart, and kept with the cart (server/store/checkout.ts).
 */
export async function shippingPaymentStep(
  { request, context }: RequestArgs,
  read: ReadWith,
): Promise<{ closed: true } | { closed: false; outcome: ShippingPaymentOutcome }> {
  if (storeMaintenance(config()).closed) return { closed: true };
  const { user, cartId, cart } = await checkoutShopper({ request, context });
  const { payload, valid } = read(shippingPaymentSchema({ guest: !user, physical: needsShipping(cart) }));
  const outcome = await submitShippingPayment(await db(), {
    cartId,
    cart,
    userId: user?.id ?? null,
    intent: payload.intent === "country" || payload.intent === "promo" ? payload.intent : "continue",
    draft: draftFrom(payload),
    formValid: valid,
  });
  return { closed: false, outcome };
}

const PRICES_CHANGED =
  "Prices have changed since you reviewed your order, so nothing was charged. Please check the new total below and place your order again.";

export type PlaceOrderOutcome =
  /** Not placed: the message the review page shows, with its status. */
  | { kind: "refused"; status: number; code: string; message: string }
  /** Not placed: the shopper goes back to /shipping-payment (empty or incomplete), or to the order another tab placed. */
  | { kind: "elsewhere"; to: string; code: "empty" | "incomplete" | "already-ordered"; order?: Order }
  /** Placed (or found again by its key): where the shopper goes next (to pay, or the order), and the guest's order cookie. */
  | { kind: "placed"; order: Order; created: boolean; next: string; paid: boolean; headers: Headers }
  /** Placed, but the payment could not start. */
  | { kind: "payment-failed"; order: Order; status: number; message: string; headers: Headers };

/**
 * Places the order from the shopper's cart as the review page's button does (once per
 * idempotency key, server/store/order-submit.ts), then completes a free order or starts paying.
 */
export async function placeOrder(
  { request, context }: RequestArgs,
  input: { idempotencyKey: string; shownTotalCents: number },
): Promise<PlaceOrderOutcome> {
  const user = await requestContext({ request, context }).user();
  const cartId = await requestContext({ request, context }).cartId();
  if (!cartId) return { kind: "elsewhere", to: "/shipping-payment", code: "empty" };
  const database = await db();
  const outcome = await submitOrder(database, config(), {
    cartId,
    userId: user?.id ?? null,
    accountEmail: user?.email ?? null,
    idempotencyKey: input.idempotencyKey,
    shownTotalCents: input.shownTotalCents,
    provider: await payments(),
  });
  if (!outcome.ok) {
    switch (outcome.problem) {
      case "closed":
        return { kind: "refused", status: 503, code: "closed", message: "Ordering is closed for maintenance. Your cart is kept as it is." };
      case "already-ordered":
        // Another tab placed this cart's order first: the shopper pays for (or cancels) that one.
        return { kind: "elsewhere", to: orderPath(outcome.order), code: "already-ordered", order: outcome.order };
      case "empty":
      case "incomplete":
        return { kind: "elsewhere", to: "/shipping-payment", code: outcome.problem };
      case "bad-key":
        return {
          kind: "refused",
          status: 409,
          code: "bad_key",
          message: "This order form has expired. Please check your order below and place it again.",
        };
      case "foreign-key":
        // As if there were no such key: nothing of the other shopper's order is given away.
        return {
          kind: "refused",
          status: 404,
          code: "not_found",
          message: "This order form was not found. Please check your order below and place it again.",
        };
      case "retired":
        return {
          kind: "refused",
          status: 409,
          code: "retired",
          message: `No longer sold: ${outcome.titles.join(", ")}. Please remove it from your cart to order the rest.`,
        };
      case "promo":
        return { kind: "refused", status: 409, code: "promo", message: `${outcome.message} Please change or remove the promo code.` };
      case "prices-changed":
        return { kind: "refused", status: 409, code: "prices_changed", message: PRICES_CHANGED };
    }
  }
  const { order, created } = outcome;
  const headers = new Headers();
  if (!order.userId) headers.append("Set-Cookie", await rememberGuestOrder(request, order.id));
  if (order.status === "paid" || (await completeFreeOrder(database, order))) {
    await confirmOrder(order.id);
    return { kind: "placed", order, created, next: paymentReturnPath(order), paid: true, headers };
  }
  if (order.status !== "pending_payment") return { kind: "placed", order, created, next: orderPath(order), paid: false, headers };
  try {
    const siteUrl = config().siteUrl;
    const url = await startOrderPayment(database, await payments(), order, {
      successUrl: `${siteUrl}${paymentReturnPath(order)}`,
      cancelUrl: `${siteUrl}${orderPath(order)}`,
    });
    return { kind: "placed", order, created, next: url, paid: false, headers };
  } catch (error) {
    log.error(`order ${order.id}: payment could not start`, { error });
    return { kind: "payment-failed", order, status: 502, message: GENERIC_ERROR, headers };
  }
}

/** A cart line as checkout's summaries show it (OrderLines), with its cover. */
export const checkoutLine = (l: CartLine) => ({
  title: l.title,
  format: l.format,
  quantity: l.quantity,
  unitPriceCents: l.unitPriceCents,
  lineTotalCents: l.lineTotalCents,
  availableDate: l.comingSoon ? l.availableDate : null,
  // A plain <img>: the <picture> of CoverPicture would cost these pages its script.
  cover: l.coverPicture
    ? { src: l.coverPicture.img.src, srcSet: l.coverPicture.img.srcSet }
    : { src: productCoverPath(l.productSlug), srcSet: null },
});
