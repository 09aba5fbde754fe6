import type { ExpressionBuilder } from "kysely";
import type { DB, OrderStatus } from "~/server/db/schema";
import { isDigitalCode, type CartLineKind } from "~/shared/product-types";

// An order's place in its life (ADR 086): store_order.status says whether it was paid
// (pending_payment, paid, cancelled); after payment, fulfilled_at and delivered_at say how far
// it got, and refunded_cents how much went back. The desk and the buyer read the one state.

export type OrderStage = "pending" | "paid" | "fulfilled" | "delivered" | "cancelled";
export type RefundState = "none" | "partly-refunded" | "refunded";

export const STAGE_LABELS: Record<OrderStage, string> = {
  pending: "Awaiting payment",
  paid: "Paid",
  fulfilled: "Fulfilled",
  delivered: "Delivered",
  cancelled: "Cancelled",
};

export const REFUND_LABELS: Record<RefundState, string> = { none: "", "partly-refunded": "Partly refunded", refunded: "Refunded" };

/** What the desk's list filters by: a stage, or a refund state. */
export const ORDER_FILTERS = ["pending", "paid", "fulfilled", "delivered", "cancelled", "partly-refunded", "refunded"] as const;
export type OrderFilter = (typeof ORDER_FILTERS)[number];
export const isOrderFilter = (value: unknown): value is OrderFilter => ORDER_FILTERS.includes(value as OrderFilter);

interface StageRow {
  status: OrderStatus;
  fulfilled_at: string | null;
  delivered_at: string | null;
}

export function orderStage(row: StageRow): OrderStage {
  if (row.status === "pending_payment") return "pending";
  if (row.status === "cancelled") return "cancelled";
  if (row.delivered_at) return "delivered";
  return row.fulfilled_at ? "fulfilled" : "paid";
}

export function refundState(row: { refunded_cents: number; total_cents: number }): RefundState {
  if (row.refunded_cents <= 0) return "none";
  return row.refunded_cents >= row.total_cents ? "refunded" : "partly-refunded";
}

/** A line that goes by post (a print item or a bundle); digital items and permissions licences are fulfilled at payment. */
export const lineShips = (line: { kind: CartLineKind; code: string }) => line.kind === "item" && !isDigitalCode(line.code);

/** A pre-order whose date has not come (ADR 092): not downloadable, not shippable. */
export const awaitingRelease = (line: { available_date: string | null; released_at: string | null }) =>
  line.available_date !== null && line.released_at === null;

/** The list filter as a condition on store_order. */
export function filterCondition(eb: ExpressionBuilder<DB, "store_order">, filter: OrderFilter) {
  switch (filter) {
    case "pending":
      return eb("status", "=", "pending_payment");
    case "cancelled":
      return eb("status", "=", "cancelled");
    case "paid":
      return eb.and([eb("status", "=", "paid"), eb("fulfilled_at", "is", null), eb("delivered_at", "is", null)]);
    case "fulfilled":
      return eb.and([eb("status", "=", "paid"), eb("fulfilled_at", "is not", null), eb("delivered_at", "is", null)]);
    case "delivered":
      return eb.and([eb("status", "=", "paid"), eb("delivered_at", "is not", null)]);
    case "refunded":
      return eb.and([eb("refunded_cents", ">", 0), eb("refunded_cents", ">=", eb.ref("total_cents"))]);
    case "partly-refunded":
      return eb.and([eb("refunded_cents", ">", 0), eb("refunded_cents", "<", eb.ref("total_cents"))]);
  }
}
