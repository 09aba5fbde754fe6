import crypto from "node:crypto";
import type { Database } from "~/server/db/connection";
import type { CartLineKind, LineType, OrderKind, OrderStatus } from "~/server/db/schema";
import type { Address } from "~/shared/address";

// What an order is, reading one back, and who may see it. Placing an order is in
// order-submit.ts, paying for or cancelling one in order-payment.ts, and the sweep of
// abandoned orders in order-sweep.ts.

export const ORDER_ID = /^ord_[A-Za-z0-9_-]{22}$/;

export interface OrderLine {
  position: number;
  productId: number;
  availabilityId: number;
  title: string;
  productType: string;
  format: string;
  code: string;
  lineType: LineType;
  kind: CartLineKind;
  quantity: number;
  unitPriceCents: number;
  lineTotalCents: number;
  /** A pre-order not released yet (ADR 092): "Available {date}". */
  availableDate: string | null;
  /** A pre-order charged on its date: what that charge takes (null: charged with the order). */
  chargeLaterCents: number | null;
  chargedAt: string | null;
  /** The card was declined on the date: the line waits until the buyer pays for it with another card, or staff act. */
  chargeFailedAt: string | null;
  refundedQuantity: number;
  /** A pre-order whose date came: its download opened, or it is ready to ship. */
  releasedAt: string | null;
}

export interface Order {
  id: string;
  number: string;
  userId: string | null;
  /** Empty once the buyer's account was deleted (ADR 089): nothing is mailed about the order then. */
  email: string;
  /** The name the order stays made out to after its buyer's account was deleted; null before. */
  buyerName: string | null;
  accessToken: string;
  kind: OrderKind;
  status: OrderStatus;
  address: Address | null;
  shippingMethod: string | null;
  promoCode: string | null;
  subtotalCents: number;
  discountCents: number;
  taxCents: number;
  shippingCents: number;
  totalCents: number;
  /** Left out of the checkout's amount, for pre-orders charged on their dates (ADR 092). */
  deferredCents: number;
  createdAt: string;
  paidAt: string | null;
  cancelledAt: string | null;
  /** The provider's hosted checkout opened for it, while it can still be paid there. */
  checkoutUrl: string | null;
  lines: OrderLine[];
}

type OrderRow = Awaited<ReturnType<typeof orderRow>>;
export const orderRow = (db: Database, id: string) => db.selectFrom("store_order").selectAll().where("id", "=", id).executeTakeFirst();

export async function toOrder(db: Database, row: NonNullable<OrderRow>): Promise<Order> {
  const lines = await db
    .selectFrom("store_order_line as l")
    .leftJoin("product_availability as a", "a.id", "l.availability_id")
    .select([
      "l.position",
      "l.product_id",
      "l.availability_id",
      "l.title",
      "l.product_type",
      "l.format",
      "l.code",
      "l.line_type",
      "l.kind",
      "l.quantity",
      "l.unit_price_cents",
      "l.line_total_cents",
      "l.available_date",
      "l.charge_cents",
      "l.charged_at",
      "l.charge_failed_at",
      "l.refunded_quantity",
      "l.released_at",
      "a.status",
      "a.available_date as current_available_date",
    ])
    .where("l.order_id", "=", row.id)
    .orderBy("l.position")
    .execute();
  return {
    id: row.id,
    number: row.number,
    userId: row.user_id,
    email: row.email,
    buyerName: row.buyer_name,
    accessToken: row.access_token,
    kind: row.kind,
    status: row.status,
    address: row.ship_country_code
      ? {
          firstName: row.ship_first_name ?? "",
          lastName: row.ship_last_name ?? "",
          address1: row.ship_address1 ?? "",
          address2: row.ship_address2 ?? "",
          city: row.ship_city ?? "",
          state: row.ship_state ?? "",
          postalCode: row.ship_postal_code ?? "",
          countryCode: row.ship_country_code,
        }
      : null,
    shippingMethod: row.shipping_method,
    promoCode: row.promo_code,
    subtotalCents: row.subtotal_cents,
    discountCents: row.discount_cents,
    taxCents: row.tax_cents,
    shippingCents: row.shipping_cents,
    totalCents: row.total_cents,
    deferredCents: row.deferred_cents,
    createdAt: row.created_at,
    paidAt: row.paid_at,
    cancelledAt: row.cancelled_at,
    checkoutUrl: row.status === "pending_payment" ? row.provider_checkout_url : null,
    lines: lines.map((l) => ({
      position: l.position,
      productId: l.product_id,
      availabilityId: l.availability_id,
      title: l.title,
      productType: l.product_type,
      format: l.format,
      code: l.code,
      lineType: l.line_type,
      kind: l.kind,
      quantity: l.quantity,
      unitPriceCents: l.unit_price_cents,
      lineTotalCents: l.line_total_cents,
      // The catalogue may have moved the pre-order's date since it was ordered.
      availableDate:
        l.released_at || !l.available_date ? null : l.status === "F" ? (l.current_available_date ?? l.available_date) : l.available_date,
      chargeLaterCents: l.charge_cents,
      chargedAt: l.charged_at,
      chargeFailedAt: l.charge_failed_at,
      refundedQuantity: l.refunded_quantity,
      releasedAt: l.released_at,
    })),
  };
}

export async function findOrder(db: Database, id: string): Promise<Order | undefined> {
  if (!ORDER_ID.test(id)) return undefined;
  const row = await orderRow(db, id);
  return row && toOrder(db, row);
}

const sameSecret = (a: string, b: string) => a.length === b.length && crypto.timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** The order if this viewer may see it: its signed-in buyer, or anyone holding its access key. */
export async function orderForViewer(
  db: Database,
  id: string,
  viewer: { userId: string | null; key: string | null },
): Promise<Order | undefined> {
  const order = await findOrder(db, id);
  if (!order) return undefined;
  if (viewer.userId && order.userId === viewer.userId) return order;
  if (viewer.key && sameSecret(viewer.key, order.accessToken)) return order;
  return undefined;
}

/** A reader's orders, newest first. */
export async function listOrders(db: Database, userId: string, limit = 50): Promise<Order[]> {
  const rows = await db
    .selectFrom("store_order")
    .selectAll()
    .where("user_id", "=", userId)
    .orderBy("created_at", "desc")
    .orderBy("id")
    .limit(limit)
    .execute();
  return Promise.all(rows.map((r) => toOrder(db, r)));
}

/**
 * Gives a new account the guest orders this browser placed with the account's own e-mail
 * address. Accounts' addresses are not verified by mail on this site, so the address alone
 * proves nothing: an order moves only if it is in `orderIds` (the browser's signed list of the
 * guest orders it placed), has no account yet, and was placed with that same address.
 */
export async function claimGuestOrders(db: Database, userId: string, accountEmail: string, orderIds: string[]): Promise<number> {
  const ids = orderIds.filter((id) => ORDER_ID.test(id)).slice(0, 50);
  if (ids.length === 0) return 0;
  const orders = await db.selectFrom("store_order").select(["id", "email"]).where("id", "in", ids).where("user_id", "is", null).execute();
  const matching = orders.filter((o) => o.email.trim().toLowerCase() === accountEmail.trim().toLowerCase()).map((o) => o.id);
  if (matching.length === 0) return 0;
  const moved = await db
    .updateTable("store_order")
    .set({ user_id: userId })
    .where("id", "in", matching)
    .where("user_id", "is", null)
    .executeTakeFirst();
  return Number(moved.numUpdatedRows);
}
