import type { Database } from "~/server/db/connection";
import type { CartLine } from "./cart";

export interface Promo {
  code: string;
  description: string;
  percentOff: number | null;
  amountOffCents: number | null;
  /** Only items of this product type are discounted; null: every item. */
  productType: string | null;
}

export type PromoOutcome =
  | { status: "valid"; promo: Promo; discountCents: number; message: string }
  | { status: "expired" | "not-applicable" | "unknown"; message: string };

/** Codes are matched without case or surrounding space, and capped so a huge value is just unknown. */
export const normalizePromoCode = (code: string) => code.trim().toUpperCase().slice(0, 40);

/** The discount a promo gives on lines (never more than what it applies to). */
export function promoDiscountCents(promo: Promo, lines: Pick<CartLine, "productType" | "lineTotalCents">[]): number {
  const eligible = lines
    .filter((l) => promo.productType === null || l.productType === promo.productType)
    .reduce((n, l) => n + l.lineTotalCents, 0);
  if (promo.percentOff !== null) return Math.round((eligible * promo.percentOff) / 100);
  return Math.min(eligible, promo.amountOffCents ?? 0);
}

/**
 * Checks a promo code against the cart's lines at `now`: unknown (or not started yet),
 * expired, not applicable to anything in the cart, or valid with the discount it gives.
 */
export async function evaluatePromo(
  db: Database,
  rawCode: string,
  lines: Pick<CartLine, "productType" | "lineTotalCents">[],
  now = new Date(),
): Promise<PromoOutcome> {
  const code = normalizePromoCode(rawCode);
  const row = code ? await db.selectFrom("promo_code").selectAll().where("code", "=", code).executeTakeFirst() : undefined;
  const at = now.toISOString();
  if (!row || row.starts_at > at)
    return { status: "unknown", message: `We don't recognise the promo code ${code || rawCode.trim()}. Please check it and try again.` };
  if (row.expires_at !== null && row.expires_at < at) return { status: "expired", message: `The promo code ${code} has expired.` };
  const promo: Promo = {
    code,
    description: row.description,
    percentOff: row.percent_off,
    amountOffCents: row.amount_off_cents,
    productType: row.product_type,
  };
  const discountCents = promoDiscountCents(promo, lines);
  if (discountCents <= 0) {
    const what = promo.productType ? `It applies to ${promo.productType.toLowerCase()} items only.` : "";
    return { status: "not-applicable", message: `The promo code ${code} does not apply to the items in your cart. ${what}`.trim() };
  }
  return { status: "valid", promo, discountCents, message: `Promo code ${code} applied: ${promo.description}.` };
}

/**
 * How many orders have used a promo code (or, with `userId`, how many of that reader's have):
 * paid orders not refunded in full. A cancelled or wholly refunded order gives its use back
 * (ADR 086), so limits on a code's uses count with this.
 */
export async function promoUses(db: Database, rawCode: string, userId?: string): Promise<number> {
  let query = db
    .selectFrom("store_order")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("promo_code", "=", normalizePromoCode(rawCode))
    .where("status", "=", "paid")
    .where((eb) => eb.or([eb("refunded_cents", "=", 0), eb("refunded_cents", "<", eb.ref("total_cents"))]));
  if (userId) query = query.where("user_id", "=", userId);
  return Number((await query.executeTakeFirstOrThrow()).n);
}
