import { sql } from "kysely";
import type { Database } from "~/server/db/connection";
import { HISTORY_PAGE_SIZE } from "~/server/library/history";
import { carrierName, trackingUrl } from "~/server/store/fulfilment/carriers";
import { lineShips, orderStage, refundState, type OrderStage, type RefundState } from "~/server/store/fulfilment/lifecycle";
import { findPlan } from "~/server/subscriptions/plans";

/** An order entry lists at most this many line items (spec section 9). */
export const ORDER_ENTRY_LINES = 5;

export interface PurchaseLine {
  title: string;
  contentType: string;
  /** Comma-separated names; null when the product has none (bundles). */
  authors: string | null;
  /** Set for a coming-soon line: the date it becomes available. */
  availableDate: string | null;
}

/** A parcel of an order: who carries it, how to track it, and when it left and arrived. */
export interface PurchaseShipment {
  carrier: string;
  trackingNumber: string;
  /** The carrier's tracking page; null for a carrier the site does not know. */
  trackingUrl: string | null;
  shippedAt: string;
  deliveredAt: string | null;
}

/** What became of an order after it was paid (ADR 086), for the reader's own words. */
export interface OrderProgress {
  stage: OrderStage;
  refund: RefundState;
  refundedCents: number;
  /** Lines that go by post and have not left yet (paid orders only). */
  awaitingDispatch: boolean;
  shipments: PurchaseShipment[];
}

export interface PurchaseEntry {
  kind: "order" | "subscription";
  id: string;
  /** Spec: an entry is Cancelled or Purchased. */
  status: "Purchased" | "Cancelled";
  title: string;
  /** Order number, or for a subscription the number after "#S". */
  number: string;
  /** When it was ordered. */
  at: string;
  totalCents: number;
  lines: PurchaseLine[];
  /** How many line items the entry leaves out ("and N more"). */
  moreLines: number;
  /** The order page, or a subscription's receipt. */
  href: string;
  /** Subscriptions only. */
  accountNumber: string | null;
  /** Subscriptions only: the end of the access the purchase gave. */
  accessEnd: string | null;
  /** Orders only: dispatch, delivery and refunds. */
  progress: OrderProgress | null;
}

type Page = { entries: PurchaseEntry[]; total: number };

/**
 * The reader's purchase history, newest first: their store orders that were paid or cancelled
 * (an order still waiting for its payment is not a purchase yet) and the subscriptions they
 * bought on /subscriptions. Only ever the reader's own.
 */
export async function purchaseHistory(db: Database, userId: string, page: number, size = HISTORY_PAGE_SIZE): Promise<Page> {
  const orders = db
    .selectFrom("store_order")
    .select([sql<string>`'order'`.as("kind"), "id", "created_at as at"])
    .where("user_id", "=", userId)
    .where("status", "in", ["paid", "cancelled"]);
  const subscriptions = db
    .selectFrom("subscription_checkout")
    .select((eb) => [sql<string>`'subscription'`.as("kind"), "id", eb.fn.coalesce("activated_at", "created_at").as("at")])
    .where("user_id", "=", userId)
    .where("status", "=", "activated");
  const all = orders.unionAll(subscriptions);
  const [rows, count] = await Promise.all([
    db
      .selectFrom(all.as("p"))
      .selectAll()
      .orderBy("at", "desc")
      .orderBy("id", "desc")
      .limit(size)
      .offset((page - 1) * size)
      .execute(),
    db
      .selectFrom(all.as("p"))
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  const orderIds = rows.filter((r) => r.kind === "order").map((r) => r.id);
  const [orderEntries, subscriptionEntries] = await Promise.all([
    orderIds.length ? orderEntriesById(db, orderIds) : new Map<string, PurchaseEntry>(),
    rows.some((r) => r.kind === "subscription") ? subscriptionEntriesById(db, userId) : new Map<string, PurchaseEntry>(),
  ]);
  return {
    entries: rows
      .map((r) => (r.kind === "order" ? orderEntries : subscriptionEntries).get(r.id))
      .filter((e): e is PurchaseEntry => e !== undefined),
    total: Number(count.n),
  };
}

async function orderEntriesById(db: Database, ids: string[]): Promise<Map<string, PurchaseEntry>> {
  const [orders, lines, shipments] = await Promise.all([
    db
      .selectFrom("store_order")
      .select(["id", "number", "status", "created_at", "total_cents", "refunded_cents", "fulfilled_at", "delivered_at"])
      .where("id", "in", ids)
      .execute(),
    db
      .selectFrom("store_order_line as l")
      .leftJoin("product as p", "p.id", "l.product_id")
      .select([
        "l.order_id",
        "l.title",
        "l.product_type",
        "l.kind",
        "l.code",
        "l.quantity",
        "l.refunded_quantity",
        "l.fulfilled_at",
        "l.available_date",
        "p.authors",
      ])
      .where("l.order_id", "in", ids)
      .orderBy("l.order_id")
      .orderBy("l.position")
      .execute(),
    db
      .selectFrom("store_shipment")
      .select(["order_id", "carrier", "tracking_number", "shipped_at", "delivered_at"])
      .where("order_id", "in", ids)
      .orderBy("shipped_at")
      .orderBy("id")
      .execute(),
  ]);
  const linesOf = new Map<string, typeof lines>();
  for (const line of lines) linesOf.set(line.order_id, [...(linesOf.get(line.order_id) ?? []), line]);
  return new Map(
    orders.map((o) => {
      const all = linesOf.get(o.id) ?? [];
      const progress: OrderProgress = {
        stage: orderStage(o),
        refund: refundState(o),
        refundedCents: o.refunded_cents,
        awaitingDispatch:
          o.status === "paid" && all.some((l) => lineShips(l) && l.fulfilled_at === null && l.refunded_quantity < l.quantity),
        shipments: shipments
          .filter((s) => s.order_id === o.id)
          .map((s) => ({
            carrier: carrierName(s.carrier),
            trackingNumber: s.tracking_number,
            trackingUrl: trackingUrl(s.carrier, s.tracking_number),
            shippedAt: s.shipped_at,
            deliveredAt: s.delivered_at,
          })),
      };
      return [
        o.id,
        {
          kind: "order",
          id: o.id,
          status: o.status === "cancelled" ? "Cancelled" : "Purchased",
          title: `Order ${o.number}`,
          number: o.number,
          at: o.created_at,
          totalCents: o.total_cents,
          lines: all.slice(0, ORDER_ENTRY_LINES).map((l) => ({
            title: l.kind === "perm" ? `Copyright permissions: ${l.title}` : l.title,
            contentType: l.product_type,
            authors: l.authors ? l.authors : null,
            availableDate: l.available_date,
          })),
          moreLines: Math.max(0, all.length - ORDER_ENTRY_LINES),
          href: `/order/${o.id}`,
          accountNumber: null,
          accessEnd: null,
          progress,
        },
      ];
    }),
  );
}

/**
 * Subscription purchases, read as the spec's orders whose title contains "#S". A subscription
 * bought here is an activated checkout plus the subscription row it granted (whose reference is
 * the checkout id). Our reading of the spec's two numbers:
 * - "#S{n}": the reader's n-th subscription purchase, counted in the order they were activated,
 *   so a first subscription is #S1 and a later renewal #S2 — stable, because later purchases
 *   only add higher numbers;
 * - the account number: the checkout's reference, which the receipt shows as "Reference", the
 *   payment provider was given, and customer service asks the reader to quote.
 * Every activated checkout of the reader is read (a reader has a handful) to number them.
 */
async function subscriptionEntriesById(db: Database, userId: string): Promise<Map<string, PurchaseEntry>> {
  const rows = await db
    .selectFrom("subscription_checkout as c")
    .leftJoin("subscription as s", (join) => join.onRef("s.reference", "=", "c.id").on("s.user_id", "=", userId))
    .select(["c.id", "c.plan_id", "c.amount_cents", "c.tax_cents", "c.activated_at", "s.access_end"])
    .where("c.user_id", "=", userId)
    .where("c.status", "=", "activated")
    .orderBy("c.activated_at")
    .orderBy("c.id")
    .execute();
  return new Map(
    rows.map((r, i) => {
      const number = `S${i + 1}`;
      const plan = findPlan(r.plan_id);
      return [
        r.id,
        {
          kind: "subscription",
          id: r.id,
          status: "Purchased",
          title: `${plan ? `${plan.name} subscription` : "Subscription"} #${number}`,
          number,
          at: r.activated_at ?? "",
          totalCents: r.amount_cents + r.tax_cents,
          lines: [],
          moreLines: 0,
          href: `/subscriptions/receipt?checkout=${r.id}`,
          accountNumber: r.id,
          accessEnd: r.access_end,
          progress: null,
        },
      ];
    }),
  );
}
