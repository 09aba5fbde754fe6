import type { z } from "zod";
import type { Cart } from "../../../server/store/cart";
import { buildReview, readDraft } from "../../../server/store/checkout";
import { normalizePromoCode } from "../../../server/store/promo";
import { checkoutShopper } from "../checkout.server";
import { db } from "../db.server";
import { formatUsd } from "../format";
import type { cartSchema, reviewSchema } from "./groups/cart";

/** An amount as the API gives it: cents, and US dollars as the page shows them. */
export const money = (cents: number) => ({ cents, formatted: formatUsd(cents) });

/** A cart as the service API answers it (app/lib/api/groups/cart.ts). */
export function cartView(cart: Cart): z.infer<typeof cartSchema> {
  return {
    lines: cart.lines.map((l) => ({
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
      availableDate: l.availableDate,
      productUrl: l.url,
    })),
    count: cart.itemCount,
    subtotal: money(cart.subtotalCents),
  };
}

/** The review of the caller's checkout, when its details are confirmed (the review page's buildReview); else null. */
export async function reviewView(request: Request): Promise<z.infer<typeof reviewSchema> | null> {
  const { user, cartId, cart } = await checkoutShopper(request);
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
    lines: cartView(review.cart).lines,
    totals: {
      subtotal: money(t.subtotalCents),
      discount: money(t.discountCents),
      tax: money(t.taxCents),
      shipping: money(t.shippingCents),
      total: money(t.totalCents),
    },
  };
}
