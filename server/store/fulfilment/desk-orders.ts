import type { Selectable } from "kysely";
import type { Database } from "~/server/db/connection";
import type { StoreOrderLineTable, StoreOrderTable } from "~/server/db/schema";
import { findOrder, type Order } from "~/server/store/order-records";
import { refundsOf, type Refund } from "~/server/store/refunds/refunds";
import { csvDocument } from "~/server/text/csv";
import { formatUsd } from "~/shared/money";
import {
  filterCondition,
  awaitingRelease,
  lineShips,
  orderStage,
  REFUND_LABELS,
  refundState,
  STAGE_LABELS,
  type OrderFilter,
  type OrderStage,
  type RefundState,
} from "./lifecycle";
import { shipmentsOf, type Shipment } from "./shipments";

// The desk's list of orders (ADR 086): newest first, filtered by state and a range of UTC days,
// a page at a time, and the same filter as CSV; and one order as the desk's page and the Admin
// API (ADR 088) show it.

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
  /** The stage and refund state in words, as the desk shows them. */
  stage: string;
  refund: string;
  /** The same as codes, for tools. */
  stageCode: OrderStage;
  refundCode: RefundState;
}

/** A state and a range of UTC days (YYYY-MM-DD, both ends included) as the list's filter. */
export function orderListFilter(state: OrderFilter | undefined, fromDay: string | undefined, toDay: string | undefined): OrderListFilter {
  return { state, from: fromDay && `${fromDay}T00:00:00.000Z`, until: toDay && `${toDay}T23:59:59.999Z` };
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
    stageCode: orderStage(r),
    refundCode: refundState(r),
  }));
}

/** One page of the list, and how many orders the filter finds in all. */
export async function orderListPage(db: Database, filter: OrderListFilter, page: number, size: number) {
  const [list, total] = await Promise.all([rows(db, filter, size, (page - 1) * size), countOrders(db, filter)]);
  return { rows: list, total };
}

/** How many orders the filter holds. */
export async function countOrders(db: Database, filter: OrderListFilter): Promise<number> {
  const found = await filtered(db, filter)
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(found.n);
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

export type DeskOrderLine = Selectable<StoreOrderLineTable> & {
  /** Goes by post (else fulfilled at payment). */
  ships: boolean;
  /** How many of it can still be refunded. */
  refundable: number;
  /** A paid line that goes by post, released if a pre-order, not dispatched yet and not refunded in full. */
  dispatchable: boolean;
  /** A pre-order (ADR 092) waiting for its date, whose charge on the date was declined, or released; null for any other line. */
  preorder: "awaiting" | "declined" | "released" | null;
};

/** One order with all the desk knows of it: lines, shipments, refunds and its place in its life. */
export interface DeskOrder {
  order: Order;
  row: Selectable<StoreOrderTable>;
  lines: DeskOrderLine[];
  shipments: Shipment[];
  refunds: Refund[];
  stage: OrderStage;
  refundState: RefundState;
}

/** The order with this number, as the desk's page and the Admin API show it; undefined when none has it. */
export async function deskOrder(db: Database, number: string): Promise<DeskOrder | undefined> {
  const id = await orderIdByNumber(db, number);
  const order = id ? await findOrder(db, id) : undefined;
  if (!order) return undefined;
  const [row, lines, shipments, refunds] = await Promise.all([
    db.selectFrom("store_order").selectAll().where("id", "=", order.id).executeTakeFirstOrThrow(),
    db.selectFrom("store_order_line").selectAll().where("order_id", "=", order.id).orderBy("position").execute(),
    shipmentsOf(db, order.id),
    refundsOf(db, order.id),
  ]);
  const paid = row.paid_at !== null && row.status !== "pending_payment";
  return {
    order,
    row,
    lines: lines.map((l) => ({
      ...l,
      ships: lineShips(l),
      refundable: paid ? l.quantity - l.refunded_quantity : 0,
      dispatchable: row.status === "paid" && lineShips(l) && !awaitingRelease(l) && !l.fulfilled_at && l.refunded_quantity < l.quantity,
      preorder: !l.available_date ? null : l.released_at ? "released" : l.charge_failed_at ? "declined" : "awaiting",
    })),
    shipments,
    refunds,
    stage: orderStage(row),
    refundState: refundState(row),
  };
}
