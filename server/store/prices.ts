import { sql, type RawBuilder } from "kysely";
import type { Database } from "~/server/db/connection";

// Prices that change from a moment on (ADR 091). An availability's list price is its price until
// the first change it is given starts; from then on the latest change that has started is in
// force. Every reader of a price (the store, the cart, the checkout, the Admin and service APIs)
// asks for the price in force at its own moment, which the caller passes (an injected clock), so
// that a change staff schedule for nine o'clock is charged from nine o'clock on, on every
// instance, without anything having to run at nine. An order keeps the prices it was placed at
// (store_order_line), whatever changes later.

type AvailabilityTable = "product_availability" | "a";

/** The price in force at `now` of the availability row named `table`, in cents, as a column. */
export function priceInForce(table: AvailabilityTable, now: Date): RawBuilder<number> {
  return sql<number>`coalesce((select pc.price_cents from price_change pc where pc.availability_id = ${sql.ref(`${table}.id`)} and pc.starts_at <= ${now.toISOString()} order by pc.starts_at desc, pc.created_at desc, pc.id desc limit 1), ${sql.ref(`${table}.list_price_cents`)})`;
}

/** When the availability's price next changes after `now`, as a column (null: no change is scheduled). */
export function nextPriceChangeAt(table: AvailabilityTable, now: Date): RawBuilder<string | null> {
  return sql<
    string | null
  >`(select min(pc.starts_at) from price_change pc where pc.availability_id = ${sql.ref(`${table}.id`)} and pc.starts_at > ${now.toISOString()})`;
}

/** A price change as the desk lists it. */
export interface PriceChange {
  id: string;
  priceCents: number;
  startsAt: string;
  createdAt: string;
  createdBy: string;
}

export interface PriceSchedule {
  /** The availability's own list price: what it costs before its first change starts. */
  listPriceCents: number;
  /** In force at the moment asked about. */
  nowCents: number;
  /** Since when the price in force has been so: null when it is the list price. */
  since: string | null;
  /** Every change, the earliest start first, with whether it has started. */
  changes: (PriceChange & { started: boolean; inForce: boolean })[];
}

/** An availability's prices over time, as its desk page shows them; undefined for an unknown availability. */
export async function priceSchedule(db: Database, availabilityId: number, now: Date): Promise<PriceSchedule | undefined> {
  const availability = await db
    .selectFrom("product_availability")
    .select("list_price_cents")
    .where("id", "=", availabilityId)
    .executeTakeFirst();
  if (!availability) return undefined;
  const rows = await db
    .selectFrom("price_change")
    .select(["id", "price_cents", "starts_at", "created_at", "created_by"])
    .where("availability_id", "=", availabilityId)
    .orderBy("starts_at")
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  const at = now.toISOString();
  const started = rows.filter((r) => r.starts_at <= at);
  const current = started.at(-1);
  return {
    listPriceCents: availability.list_price_cents,
    nowCents: current?.price_cents ?? availability.list_price_cents,
    since: current?.starts_at ?? null,
    changes: rows.map((r) => ({
      id: r.id,
      priceCents: r.price_cents,
      startsAt: r.starts_at,
      createdAt: r.created_at,
      createdBy: r.created_by,
      started: r.starts_at <= at,
      inForce: r === current,
    })),
  };
}
