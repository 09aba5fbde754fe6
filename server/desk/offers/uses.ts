import type { Database } from "~/server/db/connection";
import type { OrderStatus } from "~/server/db/schema";

// What the desk shows of an offer's use (ADR 091): each order that used a promo code or a
// voucher, who placed it, when, and whether the use was given back (the order was cancelled, or
// refunded in full).

/** Whether an offer works now. */
export type OfferState = "active" | "disabled" | "not-started" | "ended" | "used-up";

export const OFFER_STATE_NAMES: Record<OfferState, string> = {
  active: "Active",
  disabled: "Disabled",
  "not-started": "Not started yet",
  ended: "Ended",
  "used-up": "Used up",
};

export interface OfferUse {
  orderNumber: string;
  orderStatus: OrderStatus;
  email: string;
  usedAt: string;
  /** When the use was given back; null while the order holds it. */
  releasedAt: string | null;
}

/** The newest uses of a code first, at most `limit`, and how many there are in all. */
export async function offerUses(
  db: Database,
  table: "promo_use" | "voucher_use",
  code: string,
  limit: number,
): Promise<{ total: number; uses: OfferUse[] }> {
  // Both tables have the same columns (OfferUseTable): one query serves either.
  const same = table as "promo_use";
  const [rows, count] = await Promise.all([
    db
      .selectFrom(`${same} as u`)
      .innerJoin("store_order as o", "o.id", "u.order_id")
      .select(["o.number", "o.status", "u.email", "u.used_at", "u.released_at"])
      .where("u.code", "=", code)
      .orderBy("u.used_at", "desc")
      .orderBy("o.number")
      .limit(limit)
      .execute(),
    db
      .selectFrom(same)
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("code", "=", code)
      .executeTakeFirstOrThrow(),
  ]);
  return {
    total: Number(count.n),
    uses: rows.map((r) => ({ orderNumber: r.number, orderStatus: r.status, email: r.email, usedAt: r.used_at, releasedAt: r.released_at })),
  };
}
