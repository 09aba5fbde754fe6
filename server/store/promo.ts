import { sql } from "kysely";
import type { Database } from "~/server/db/connection";
import type { CartLine } from "./cart";

export interface Promo {
  code: string;
  description: string;
  percentOff: number | null;
  amountOffCents: number | null;
  /** Only items of this product type are discounted; null: every item. */
  productType: string | null;
  /** Only these products are discounted (ADR 091); null: no such limit. */
  productIds: number[] | null;
}

export type PromoRefusal = "expired" | "not-applicable" | "unknown" | "disabled" | "used-up" | "used-by-reader";

export type PromoOutcome =
  { status: "valid"; promo: Promo; discountCents: number; message: string } | { status: PromoRefusal; message: string };

/** Who is using a code: the signed-in reader, and the address the order goes to. */
export interface PromoUser {
  userId: string | null;
  email: string | null;
}

/** What a promo code looks at in a line: what it is and what it costs (`productId`, for codes limited to products). */
export type PromoLine = Pick<CartLine, "productType" | "lineTotalCents"> & { productId?: number };

/** Codes are matched without case or surrounding space, and capped so a huge value is just unknown. */
export const normalizePromoCode = (code: string) => code.trim().toUpperCase().slice(0, 40);

/** The discount a promo gives on lines (never more than what it applies to). */
export function promoDiscountCents(promo: Promo, lines: PromoLine[]): number {
  const eligible = lines
    .filter((l) => promo.productType === null || l.productType === promo.productType)
    .filter((l) => promo.productIds === null || (l.productId !== undefined && promo.productIds.includes(l.productId)))
    .reduce((n, l) => n + l.lineTotalCents, 0);
  if (promo.percentOff !== null) return Math.round((eligible * promo.percentOff) / 100);
  return Math.min(eligible, promo.amountOffCents ?? 0);
}

export const PROMO_MESSAGES = {
  unknown: (code: string) => `We don't recognise the promo code ${code}. Please check it and try again.`,
  expired: (code: string) => `The promo code ${code} has expired.`,
  disabled: (code: string) => `The promo code ${code} is no longer available.`,
  usedUp: (code: string) => `The promo code ${code} has been used as many times as it can be, so it no longer applies.`,
  usedByReader: (code: string) => `You have already used the promo code ${code} as many times as it allows.`,
} as const;

/** The uses still standing (not given back) of a code: in all, or of one reader or address. */
async function standingUses(db: Database, code: string, who?: PromoUser): Promise<number> {
  let query = db
    .selectFrom("promo_use")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("code", "=", code)
    .where("released_at", "is", null);
  if (who) {
    const email = who.email?.trim().toLowerCase() || null;
    if (!who.userId && !email) return 0;
    query = query.where((eb) =>
      eb.or([...(who.userId ? [eb("user_id", "=", who.userId)] : []), ...(email ? [eb("email", "=", email)] : [])]),
    );
  }
  return Number((await query.executeTakeFirstOrThrow()).n);
}

/**
 * Checks a promo code against the cart's lines at `now`: unknown (or not started yet), disabled,
 * expired, used as often as it may be (in all, or by this reader), not applicable to anything in
 * the cart, or valid with the discount it gives. The limits on uses are checked again, and held,
 * when the order is placed (`takePromoUse`): this answer is what the shopper is told meanwhile.
 */
export async function evaluatePromo(
  db: Database,
  rawCode: string,
  lines: PromoLine[],
  now = new Date(),
  who?: PromoUser,
): Promise<PromoOutcome> {
  const code = normalizePromoCode(rawCode);
  const row = code ? await db.selectFrom("promo_code").selectAll().where("code", "=", code).executeTakeFirst() : undefined;
  const at = now.toISOString();
  if (!row || row.starts_at > at) return { status: "unknown", message: PROMO_MESSAGES.unknown(code || rawCode.trim()) };
  if (row.disabled_at !== null) return { status: "disabled", message: PROMO_MESSAGES.disabled(code) };
  if (row.expires_at !== null && row.expires_at < at) return { status: "expired", message: PROMO_MESSAGES.expired(code) };
  if (row.max_uses !== null && (await standingUses(db, code)) >= row.max_uses)
    return { status: "used-up", message: PROMO_MESSAGES.usedUp(code) };
  if (who && row.max_uses_per_reader !== null && (await standingUses(db, code, who)) >= row.max_uses_per_reader)
    return { status: "used-by-reader", message: PROMO_MESSAGES.usedByReader(code) };
  const products = await db.selectFrom("promo_code_product").select("product_id").where("code", "=", code).execute();
  const promo: Promo = {
    code,
    description: row.description,
    percentOff: row.percent_off,
    amountOffCents: row.amount_off_cents,
    productType: row.product_type,
    productIds: products.length > 0 ? products.map((p) => p.product_id) : null,
  };
  const discountCents = promoDiscountCents(promo, lines);
  if (discountCents <= 0) {
    const what = promo.productIds
      ? "It applies to particular products only."
      : promo.productType
        ? `It applies to ${promo.productType.toLowerCase()} items only.`
        : "";
    return { status: "not-applicable", message: `The promo code ${code} does not apply to the items in your cart. ${what}`.trim() };
  }
  return { status: "valid", promo, discountCents, message: `Promo code ${code} applied: ${promo.description}.` };
}

export type TakeUseOutcome = { ok: true } | { ok: false; status: PromoRefusal; message: string };

/**
 * Takes one use of a code for an order being placed, inside that order's transaction. The code's
 * row is written first, so the transaction holds its lock (PostgreSQL's row lock, SQLite's write
 * lock) while it counts the uses standing: of two shoppers after the last use, the second waits
 * for the first to commit, then finds none left. The caller rolls its transaction back on a
 * refusal.
 */
export async function takePromoUse(
  tx: Database,
  rawCode: string,
  order: { orderId: string; userId: string | null; email: string },
  now: Date,
): Promise<TakeUseOutcome> {
  const code = normalizePromoCode(rawCode);
  const at = now.toISOString();
  const locked = await tx
    .updateTable("promo_code")
    // Writes nothing new: the update is for the row's lock.
    .set({ disabled_at: sql`disabled_at` })
    .where("code", "=", code)
    .executeTakeFirst();
  if (Number(locked.numUpdatedRows) !== 1) return { ok: false, status: "unknown", message: PROMO_MESSAGES.unknown(code) };
  const row = await tx.selectFrom("promo_code").selectAll().where("code", "=", code).executeTakeFirstOrThrow();
  if (row.starts_at > at) return { ok: false, status: "unknown", message: PROMO_MESSAGES.unknown(code) };
  if (row.disabled_at !== null) return { ok: false, status: "disabled", message: PROMO_MESSAGES.disabled(code) };
  if (row.expires_at !== null && row.expires_at < at) return { ok: false, status: "expired", message: PROMO_MESSAGES.expired(code) };
  if (row.max_uses !== null && (await standingUses(tx, code)) >= row.max_uses)
    return { ok: false, status: "used-up", message: PROMO_MESSAGES.usedUp(code) };
  const who = { userId: order.userId, email: order.email };
  if (row.max_uses_per_reader !== null && (await standingUses(tx, code, who)) >= row.max_uses_per_reader)
    return { ok: false, status: "used-by-reader", message: PROMO_MESSAGES.usedByReader(code) };
  await tx
    .insertInto("promo_use")
    .values({
      order_id: order.orderId,
      code,
      user_id: order.userId,
      email: order.email.trim().toLowerCase(),
      used_at: at,
      released_at: null,
    })
    .execute();
  return { ok: true };
}

/**
 * Gives back the promo code and voucher uses of an order that no longer stands (cancelled before
 * payment, or refunded in full, ADR 086), inside the transaction that says so. Once per order.
 */
export async function releaseOfferUses(tx: Database, orderId: string, now: Date): Promise<void> {
  for (const table of ["promo_use", "voucher_use"] as const)
    await tx
      .updateTable(table)
      .set({ released_at: now.toISOString() })
      .where("order_id", "=", orderId)
      .where("released_at", "is", null)
      .execute();
}

/**
 * How many orders use a promo code (or, with `userId`, how many of that reader's do): its uses not
 * given back. An order holds its use from the moment it is placed; a cancelled or wholly refunded
 * order gives it back (ADR 086, 091).
 */
export async function promoUses(db: Database, rawCode: string, userId?: string): Promise<number> {
  return standingUses(db, normalizePromoCode(rawCode), userId ? { userId, email: null } : undefined);
}
