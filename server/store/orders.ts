import crypto from "node:crypto";
import type { Config } from "../config";
import type { Database } from "../db/connection";
import type { CartLineKind, LineType, OrderKind, OrderStatus } from "../db/schema";
import type { PaymentEvent, PaymentProvider } from "../payments/provider";
import type { Address } from "../../shared/address";
import { emptyCart, readCart } from "./cart";
import { buildReview, readDraft, type Review } from "./checkout";
import { storeMaintenance } from "./maintenance";

export const ORDER_ID = /^ord_[A-Za-z0-9_-]{22}$/;
/** The key the review form carries (see issueIdempotencyKey). */
const IDEMPOTENCY_KEY = /^[A-Za-z0-9_-]{22,64}$/;

export const issueIdempotencyKey = () => crypto.randomBytes(18).toString("base64url");

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
  /** Set while the item is not on sale yet (status F): "Available {date}". */
  availableDate: string | null;
}

export interface Order {
  id: string;
  number: string;
  userId: string | null;
  email: string;
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
  createdAt: string;
  paidAt: string | null;
  cancelledAt: string | null;
  /** The provider's hosted checkout opened for it, while it can still be paid there. */
  checkoutUrl: string | null;
  lines: OrderLine[];
}

type OrderRow = Awaited<ReturnType<typeof orderRow>>;
const orderRow = (db: Database, id: string) => db.selectFrom("store_order").selectAll().where("id", "=", id).executeTakeFirst();

async function toOrder(db: Database, row: NonNullable<OrderRow>): Promise<Order> {
  const lines = await db
    .selectFrom("store_order_line as l")
    .leftJoin("product_availability as a", "a.id", "l.availability_id")
    .select(["l.position", "l.product_id", "l.availability_id", "l.title", "l.product_type", "l.format", "l.code", "l.line_type", "l.kind", "l.quantity", "l.unit_price_cents", "l.line_total_cents", "l.available_date", "a.status", "a.available_date as current_available_date"])
    .where("l.order_id", "=", row.id)
    .orderBy("l.position")
    .execute();
  return {
    id: row.id,
    number: row.number,
    userId: row.user_id,
    email: row.email,
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
      // The catalogue may have moved the item back to "coming soon" since it was ordered.
      availableDate: l.status === "F" ? (l.current_available_date ?? l.available_date) : l.available_date,
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
export async function orderForViewer(db: Database, id: string, viewer: { userId: string | null; key: string | null }): Promise<Order | undefined> {
  const order = await findOrder(db, id);
  if (!order) return undefined;
  if (viewer.userId && order.userId === viewer.userId) return order;
  if (viewer.key && sameSecret(viewer.key, order.accessToken)) return order;
  return undefined;
}

/** A reader's orders, newest first. */
export async function listOrders(db: Database, userId: string, limit = 50): Promise<Order[]> {
  const rows = await db.selectFrom("store_order").selectAll().where("user_id", "=", userId).orderBy("created_at", "desc").orderBy("id").limit(limit).execute();
  return Promise.all(rows.map((r) => toOrder(db, r)));
}

function orderNumber(now: Date): string {
  const day = now.toISOString().slice(2, 10).replace(/-/g, "");
  const tail = Array.from(crypto.randomBytes(6), (b) => "0123456789ABCDEFGHJKLMNPQRSTUVWXYZ"[b % 34]).join("");
  return `MR-${day}-${tail}`;
}

export type SubmitOutcome =
  | { ok: true; created: boolean; order: Order }
  /** The cart already became this order, still awaiting payment (say, placed from another tab). */
  | { ok: false; problem: "already-ordered"; order: Order }
  | { ok: false; problem: "closed" | "bad-key" | "empty" | "incomplete" }
  | { ok: false; problem: "coming-soon"; titles: string[] }
  | { ok: false; problem: "promo"; message: string }
  | { ok: false; problem: "prices-changed"; review: Review };

export interface SubmitInput {
  cartId: string;
  userId: string | null;
  accountEmail: string | null;
  idempotencyKey: string;
  /** The total the shopper saw on the review page (cents). */
  shownTotalCents: number;
}

/**
 * Places an order from the cart, once per idempotency key: a replay of the same submission
 * (double click, reload, a resent POST) finds the order the first one made, even when they
 * arrive at the same moment (the key is unique in the database). A cart becomes at most one
 * order awaiting payment: a submission from another review tab (another key) is answered
 * with that order. Prices, stock status and the promo code are checked again; a total
 * different from the one shown is not charged.
 */
export async function submitOrder(
  db: Database,
  config: Pick<Config, "MAINTENANCE_MODE" | "STORE_MAINTENANCE_WINDOW" | "STORE_TIMEZONE">,
  input: SubmitInput,
  now = new Date(),
): Promise<SubmitOutcome> {
  if (storeMaintenance(config, now).closed) return { ok: false, problem: "closed" };
  if (!IDEMPOTENCY_KEY.test(input.idempotencyKey)) return { ok: false, problem: "bad-key" };
  const replay = await byKey(db, input);
  if (replay) return replay;
  try {
    return await db.transaction().execute((tx) => placeFromClaimedCart(tx, input, now));
  } catch (error) {
    // Another request with the same key got there first.
    const raced = await byKey(db, input);
    if (raced) return raced;
    throw error;
  }
}

/**
 * Inside one transaction: claims the cart (the update takes the cart row's write lock, so a
 * second submission for the same cart waits here until the first has committed, on SQLite and
 * PostgreSQL alike), then reads everything the order is made from after the claim.
 */
async function placeFromClaimedCart(tx: Database, input: SubmitInput, now: Date): Promise<SubmitOutcome> {
  const claimed = await tx.updateTable("cart").set({ updated_at: now.toISOString() }).where("id", "=", input.cartId).executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return { ok: false, problem: "empty" };
  const open = await tx.selectFrom("store_order").selectAll().where("cart_id", "=", input.cartId).where("status", "=", "pending_payment").orderBy("created_at").executeTakeFirst();
  if (open) {
    const order = await toOrder(tx, open);
    return open.idempotency_key === input.idempotencyKey ? { ok: true, created: false, order } : { ok: false, problem: "already-ordered", order };
  }

  const cart = await readCart(tx, input.cartId);
  const outcome = await buildReview(tx, { cart, draft: await readDraft(tx, input.cartId), userId: input.userId, accountEmail: input.accountEmail }, now);
  if (!outcome.ok) return outcome;
  const { review } = outcome;
  const comingSoon = cart.lines.filter((l) => l.comingSoon);
  if (comingSoon.length > 0) return { ok: false, problem: "coming-soon", titles: comingSoon.map((l) => l.title) };
  if (review.promo && review.promo.status !== "valid") return { ok: false, problem: "promo", message: review.promo.message };
  if (review.totals.totalCents !== input.shownTotalCents) return { ok: false, problem: "prices-changed", review };

  const id = `ord_${crypto.randomBytes(16).toString("base64url")}`;
  const a = review.address;
  await tx
    .insertInto("store_order")
    .values({
      id,
      number: orderNumber(now),
      user_id: input.userId,
      email: review.email,
      idempotency_key: input.idempotencyKey,
      access_token: crypto.randomBytes(24).toString("base64url"),
      kind: "purchase",
      status: "pending_payment",
      ship_first_name: a.firstName,
      ship_last_name: a.lastName,
      ship_address1: a.address1,
      ship_address2: a.address2 || null,
      ship_city: a.city,
      ship_state: a.state || null,
      ship_postal_code: a.postalCode,
      ship_country_code: a.countryCode,
      shipping_method: review.method?.id ?? null,
      promo_code: review.promo?.status === "valid" ? review.promo.promo.code : null,
      subtotal_cents: review.totals.subtotalCents,
      discount_cents: review.totals.discountCents,
      tax_cents: review.totals.taxCents,
      shipping_cents: review.totals.shippingCents,
      total_cents: review.totals.totalCents,
      provider: null,
      provider_session_id: null,
      provider_checkout_url: null,
      cart_id: input.cartId,
      created_at: now.toISOString(),
      paid_at: null,
      cancelled_at: null,
      confirmation_sent_at: null,
    })
    .execute();
  await tx
    .insertInto("store_order_line")
    .values(
      cart.lines.map((l, position) => ({
        order_id: id,
        position,
        product_id: l.productId,
        availability_id: l.availabilityId,
        title: l.title,
        product_type: l.productType,
        format: l.format,
        code: l.code,
        line_type: l.lineType,
        kind: l.kind,
        quantity: l.quantity,
        unit_price_cents: l.unitPriceCents,
        line_total_cents: l.lineTotalCents,
        available_date: l.comingSoon ? l.availableDate : null,
      })),
    )
    .execute();
  return { ok: true, created: true, order: (await findOrder(tx, id))! };
}

/** The order an earlier submission with this key made, if it was this shopper's. */
async function byKey(db: Database, input: SubmitInput): Promise<SubmitOutcome | undefined> {
  const row = await db.selectFrom("store_order").selectAll().where("idempotency_key", "=", input.idempotencyKey).executeTakeFirst();
  if (!row) return undefined;
  const mine = input.userId ? row.user_id === input.userId : row.user_id === null && row.cart_id === input.cartId;
  if (!mine) return { ok: false, problem: "bad-key" };
  return { ok: true, created: false, order: await toOrder(db, row) };
}

/**
 * Sends the shopper to the provider's hosted checkout for an order. One session per order:
 * the first caller claims the order and opens it; a replay (even a concurrent one) gets the
 * same address.
 */
export async function startOrderPayment(
  db: Database,
  provider: PaymentProvider,
  order: Order,
  urls: { successUrl: string; cancelUrl: string },
): Promise<string> {
  const claimed = await db.updateTable("store_order").set({ provider: provider.name }).where("id", "=", order.id).where("provider", "is", null).executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return waitForCheckoutUrl(db, order.id);
  try {
    const session = await provider.createCheckout({
      reference: order.id,
      description: `Order ${order.number}: ${order.lines.length === 1 ? order.lines[0]!.title : `${order.lines.length} items`}`,
      amountCents: order.totalCents,
      currency: "usd",
      customerEmail: order.email,
      successUrl: urls.successUrl,
      cancelUrl: urls.cancelUrl,
    });
    await db.updateTable("store_order").set({ provider_session_id: session.id, provider_checkout_url: session.url }).where("id", "=", order.id).execute();
    return session.url;
  } catch (error) {
    // Let a retry open the session.
    await db.updateTable("store_order").set({ provider: null }).where("id", "=", order.id).where("provider_session_id", "is", null).execute();
    throw error;
  }
}

async function waitForCheckoutUrl(db: Database, orderId: string): Promise<string> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const row = await db.selectFrom("store_order").select(["provider", "provider_checkout_url"]).where("id", "=", orderId).executeTakeFirstOrThrow();
    if (row.provider_checkout_url) return row.provider_checkout_url;
    if (!row.provider) throw new Error(`order ${orderId}: the payment session could not be opened`);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`order ${orderId}: timed out waiting for the payment session`);
}

/**
 * Marks an order paid, once: only the call that moves it from pending_payment does anything
 * (empties the cart it was placed from). Returns whether this call did.
 */
export async function markOrderPaid(db: Database, orderId: string, now = new Date()): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    const moved = await tx.updateTable("store_order").set({ status: "paid", paid_at: now.toISOString() }).where("id", "=", orderId).where("status", "=", "pending_payment").executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) return false;
    const row = await tx.selectFrom("store_order").select("cart_id").where("id", "=", orderId).executeTakeFirstOrThrow();
    if (row.cart_id) {
      await emptyCart(tx, row.cart_id);
      await tx.deleteFrom("checkout_draft").where("cart_id", "=", row.cart_id).execute();
    }
    return true;
  });
}

export type OrderSettlement = "paid" | "pending" | "unknown";

/** The shopper is back from the provider: asks it whether the order's session was paid. */
export async function settleOrder(db: Database, provider: PaymentProvider, orderId: string, now = new Date()): Promise<OrderSettlement> {
  const row = ORDER_ID.test(orderId) ? await orderRow(db, orderId) : undefined;
  if (!row) return "unknown";
  if (row.status === "paid") return "paid";
  if (row.status !== "pending_payment" || !row.provider_session_id) return "pending";
  const state = await provider.retrieveCheckout(row.provider_session_id);
  if (!state.paid || state.reference !== orderId) return "pending";
  await markOrderPaid(db, orderId, now);
  return "paid";
}

/** A provider's signed callback for an order (reference ord_…). */
export async function handleOrderPaymentEvent(db: Database, event: PaymentEvent, now = new Date()): Promise<"paid" | "ignored" | "paid-after-cancel"> {
  if (event.type !== "checkout.completed" || !event.paid || !ORDER_ID.test(event.reference)) return "ignored";
  const row = await db.selectFrom("store_order").select("provider_session_id").where("id", "=", event.reference).executeTakeFirst();
  // The callback must be about the session this order opened.
  if (!row || row.provider_session_id !== event.sessionId) return "ignored";
  if (await markOrderPaid(db, event.reference, now)) return "paid";
  return (await lateForCancelledOrder(db, event.reference, event.sessionId)) ? "paid-after-cancel" : "ignored";
}

/**
 * A payment completed for an order the shopper had already cancelled (they went back to the
 * provider's page, still open, and paid). The order stays cancelled: reviving it would ship
 * what the buyer said they no longer want. Money may have moved, so an operator must refund it;
 * this is logged loudly for them.
 */
async function lateForCancelledOrder(db: Database, orderId: string, sessionId: string): Promise<boolean> {
  const row = await db.selectFrom("store_order").select(["status", "number", "provider"]).where("id", "=", orderId).executeTakeFirst();
  if (row?.status !== "cancelled") return false;
  console.error(`PAYMENT FOR CANCELLED ORDER: order ${row.number} (${orderId}) was paid through ${row.provider} session ${sessionId} after it was cancelled; it stays cancelled: refund the payment.`);
  return true;
}

export type CancelOutcome = "cancelled" | "already-cancelled" | "paid";

/**
 * How long an order waits for its payment: Stripe's checkout sessions stay open 24 hours by
 * default. An order still unpaid after that is cancelled by `cancelAbandonedOrders`.
 */
export const PAYMENT_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * Cancels an order still awaiting payment: the buyer's own choice, or an abandoned order. The
 * provider's checkout page is closed first, so nothing can be paid once the order is cancelled;
 * if the payment won that race, the order is paid instead. Only pending_payment moves (a
 * conditional update); a replay finds it cancelled already; a paid order stays paid.
 */
export async function cancelOrder(db: Database, provider: PaymentProvider, orderId: string, now = new Date()): Promise<CancelOutcome> {
  const row = await db.selectFrom("store_order").select(["status", "provider", "provider_session_id"]).where("id", "=", orderId).executeTakeFirstOrThrow();
  if (row.status === "paid") return "paid";
  if (row.status === "cancelled") return "already-cancelled";
  // A session opened through another provider (the site has since been switched) cannot be reached.
  if (row.provider_session_id && row.provider === provider.name && (await provider.expireCheckout(row.provider_session_id)) === "paid") {
    await markOrderPaid(db, orderId, now);
    return "paid";
  }
  const moved = await db.updateTable("store_order").set({ status: "cancelled", cancelled_at: now.toISOString() }).where("id", "=", orderId).where("status", "=", "pending_payment").executeTakeFirst();
  if (Number(moved.numUpdatedRows) === 1) return "cancelled";
  const after = await db.selectFrom("store_order").select("status").where("id", "=", orderId).executeTakeFirstOrThrow();
  return after.status === "cancelled" ? "already-cancelled" : "paid";
}

/**
 * Cancels the orders that have waited longer than PAYMENT_WINDOW_MS for a payment, oldest first,
 * at most `limit` a call. Safe to run from several instances at once. Returns the cancelled
 * orders' ids; one that cannot be reached at the provider is logged and left for the next run.
 */
export async function cancelAbandonedOrders(db: Database, provider: PaymentProvider, now = new Date(), limit = 100): Promise<string[]> {
  const cutoff = new Date(now.getTime() - PAYMENT_WINDOW_MS).toISOString();
  const stale = await db.selectFrom("store_order").select("id").where("status", "=", "pending_payment").where("created_at", "<", cutoff).orderBy("created_at").limit(limit).execute();
  const cancelled: string[] = [];
  for (const { id } of stale) {
    try {
      if ((await cancelOrder(db, provider, id, now)) === "cancelled") cancelled.push(id);
    } catch (error) {
      console.error(`Abandoned order ${id} could not be cancelled; the next run tries again:`, error);
    }
  }
  return cancelled;
}

/** An order with nothing to pay (a 100% promo) is complete as soon as it is placed. */
export async function completeFreeOrder(db: Database, order: Order, now = new Date()): Promise<boolean> {
  if (order.totalCents !== 0) return false;
  return markOrderPaid(db, order.id, now);
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
  const moved = await db.updateTable("store_order").set({ user_id: userId }).where("id", "in", matching).where("user_id", "is", null).executeTakeFirst();
  return Number(moved.numUpdatedRows);
}
