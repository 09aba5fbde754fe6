import type { Database } from "~/server/db/connection";
import { csvDocument } from "~/server/text/csv";
import { formatUsd } from "~/shared/money";
import { filterCondition, orderStage, REFUND_LABELS, refundState, STAGE_LABELS, type OrderFilter } from "./lifecycle";

// The desk's list of orders (ADR 086): newest first, filtered by state and a range of UTC days,
// a page at a time, and the same filter as CSV.

export interface OrderListFilter {
  state?: OrderFilter;
  /** Inclusive bounds, as ISO times. */
  from?: string;
  until?: string;
}

export interface OrderListRow {
  id: string;
  number: string;
  createdAt: string;
  email: string;
  name: string | null;
  itemCount: number;
  totalCents: number;
  refundedCents: number;
  stage: string;
  refund: string;
}

/** Never more rows than this in one export; the filter narrows a larger one. */
export const CSV_LIMIT = 10_000;

function filtered(db: Database, filter: OrderListFilter) {
  let query = db.selectFrom("store_order");
  if (filter.state) {
    const state = filter.state;
    query = query.where((eb) => filterCondition(eb, state));
  }
  if (filter.from) query = query.where("created_at", ">=", filter.from);
  if (filter.until) query = query.where("created_at", "<=", filter.until);
  return query;
}

async function rows(db: Database, filter: OrderListFilter, limit: number, offset: number): Promise<OrderListRow[]> {
  const found = await filtered(db, filter)
    .select([
      "id",
      "number",
      "created_at",
      "email",
      "buyer_name",
      "ship_first_name",
      "ship_last_name",
      "status",
      "fulfilled_at",
      "delivered_at",
      "total_cents",
      "refunded_cents",
    ])
    .select((eb) =>
      eb
        .selectFrom("store_order_line")
        .select((l) => l.fn.sum<number>("quantity").as("n"))
        .whereRef("store_order_line.order_id", "=", "store_order.id")
        .as("items"),
    )
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .offset(offset)
    .execute();
  return found.map((r) => ({
    id: r.id,
    number: r.number,
    createdAt: r.created_at,
    // A buyer who deleted their account leaves no address (ADR 089): the order says so.
    email: r.email || (r.buyer_name ? `${r.buyer_name} (account deleted)` : "(account deleted)"),
    name: r.ship_first_name ? `${r.ship_first_name} ${r.ship_last_name ?? ""}`.trim() : null,
    itemCount: Number(r.items ?? 0),
    totalCents: r.total_cents,
    refundedCents: r.refunded_cents,
    stage: STAGE_LABELS[orderStage(r)],
    refund: REFUND_LABELS[refundState(r)],
  }));
}

/** One page of the list, and how many orders the filter finds in all. */
export async function orderListPage(db: Database, filter: OrderListFilter, page: number, size: number) {
  const [list, count] = await Promise.all([
    rows(db, filter, size, (page - 1) * size),
    filtered(db, filter)
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows: list, total: Number(count.n) };
}

/** The filter's orders as CSV, newest first (at most CSV_LIMIT). */
export async function orderListCsv(db: Database, filter: OrderListFilter): Promise<string> {
  const list = await rows(db, filter, CSV_LIMIT, 0);
  return csvDocument([
    ["Order", "Placed (UTC)", "Buyer e-mail", "Ship to", "Items", "Total", "Refunded", "State", "Refund"],
    ...list.map((r) => [
      r.number,
      r.createdAt,
      r.email,
      r.name,
      r.itemCount,
      formatUsd(r.totalCents),
      formatUsd(r.refundedCents),
      r.stage,
      r.refund,
    ]),
  ]);
}

/** The order's id for its number, as the desk's address names it. */
export async function orderIdByNumber(db: Database, number: string): Promise<string | undefined> {
  if (!/^[A-Z0-9-]{1,40}$/.test(number)) return undefined;
  return (await db.selectFrom("store_order").select("id").where("number", "=", number).executeTakeFirst())?.id;
}
