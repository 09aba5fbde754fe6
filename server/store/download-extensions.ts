import type { Database } from "~/server/db/connection";

// A case study's downloads close six months after payment (spec section 9), unless customer
// service moved that end later (ADR 087): the later end is kept per order line.

/** The ends customer service set for an order's lines, by line position. */
export async function extendedExpiries(db: Database, orderId: string): Promise<Map<number, string>> {
  const rows = await db.selectFrom("download_extension").select(["position", "expires_at"]).where("order_id", "=", orderId).execute();
  return new Map(rows.map((r) => [Number(r.position), r.expires_at]));
}

/** A line's end: the one set at the desk when there is one, else its own. */
export function laterExpiry(own: string | null, extended: string | undefined): string | null {
  return own !== null && extended !== undefined && extended > own ? extended : own;
}
