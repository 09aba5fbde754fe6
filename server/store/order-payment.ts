import type { Database } from "~/server/db/connection";
import type { PaymentEvent, PaymentProvider } from "~/server/payments/provider";
import { emptyCart } from "./cart";
import { ORDER_ID, orderRow, type Order } from "./order-records";
import { log } from "~/server/log";
import { fulfilAtPayment } from "./fulfilment/shipments";
import { refundLatePayment } from "./refunds/refunds";
import { releaseOfferUses } from "./promo";

/**
 * Sends the shopper to the provider's hosted checkout for an order, and returns its address.
 * The first caller claims the order and opens the session; a replay (even a concurrent one)
 * waits for that address. Providers open one session per reference however often they are
 * asked (PaymentProvider.createCheckout), so when the claimant never records the session (the
 * server stopped in between), a later caller opens it again and gets the same one: no order is
 * left without a way to pay, and none has two.
 */
export async function startOrderPayment(
  db: Database,
  provider: PaymentProvider,
  order: Order,
  urls: { successUrl: string; cancelUrl: string },
): Promise<string> {
  if (order.checkoutUrl) return order.checkoutUrl;
  const claimed = await db
    .updateTable("store_order")
    .set({ provider: provider.name })
    .where("id", "=", order.id)
    .where("provider", "is", null)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) {
    const opened = await waitForCheckoutUrl(db, order.id);
    if (opened) return opened;
  }
  try {
    // Pre-orders charged on their dates (ADR 092) are left out: the card is saved for them, and
    // an order of nothing else only saves it.
    const amountCents = order.totalCents - order.deferredCents;
    const session = await provider.createCheckout({
      reference: order.id,
      description: `Order ${order.number}: ${order.lines.length === 1 ? order.lines[0]!.title : `${order.lines.length} items`}`,
      amountCents,
      currency: "usd",
      customerEmail: order.email,
      successUrl: urls.successUrl,
      cancelUrl: urls.cancelUrl,
      ...(order.deferredCents > 0 ? (amountCents > 0 ? { saveCard: true } : { setup: true }) : {}),
    });
    await db
      .updateTable("store_order")
      .set({
        provider: provider.name,
        provider_session_id: session.id,
        provider_checkout_url: session.url,
        // Deleted there once nothing awaits the card it keeps (ADR 092): preorders.ts.
        provider_customer_id: session.customerId ?? null,
      })
      .where("id", "=", order.id)
      .execute();
    return session.url;
  } catch (error) {
    // Let a retry open the session.
    await db
      .updateTable("store_order")
      .set({ provider: null })
      .where("id", "=", order.id)
      .where("provider_session_id", "is", null)
      .execute();
    throw error;
  }
}

/** How long a replay waits for the claimant to record the session before opening it itself. */
const CLAIM_WAIT_MS = 3000;

/** The address the claimant recorded, or null if it did not within CLAIM_WAIT_MS (or gave up). */
async function waitForCheckoutUrl(db: Database, orderId: string): Promise<string | null> {
  for (const until = Date.now() + CLAIM_WAIT_MS; ;) {
    const row = await db
      .selectFrom("store_order")
      .select(["provider", "provider_checkout_url"])
      .where("id", "=", orderId)
      .executeTakeFirstOrThrow();
    if (row.provider_checkout_url) return row.provider_checkout_url;
    if (!row.provider || Date.now() >= until) return null;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Marks an order paid, once: only the call that moves it from pending_payment does anything
 * (empties the cart it was placed from). Returns whether this call did.
 */
export async function markOrderPaid(db: Database, orderId: string, now = new Date()): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    const moved = await tx
      .updateTable("store_order")
      .set({ status: "paid", paid_at: now.toISOString() })
      .where("id", "=", orderId)
      .where("status", "=", "pending_payment")
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) return false;
    await fulfilAtPayment(tx, orderId, now);
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
export async function handleOrderPaymentEvent(
  db: Database,
  provider: PaymentProvider,
  event: PaymentEvent,
  now = new Date(),
): Promise<"paid" | "ignored" | "paid-after-cancel"> {
  if (event.type !== "checkout.completed" || !event.paid || !ORDER_ID.test(event.reference)) return "ignored";
  const row = await db.selectFrom("store_order").select("provider_session_id").where("id", "=", event.reference).executeTakeFirst();
  // The callback must be about the session this order opened.
  if (!row || row.provider_session_id !== event.sessionId) return "ignored";
  if (await markOrderPaid(db, event.reference, now)) return "paid";
  return (await lateForCancelledOrder(db, provider, event.reference, event.sessionId, now)) ? "paid-after-cancel" : "ignored";
}

/**
 * A payment completed for an order the shopper had already cancelled (they went back to the
 * provider's page, still open, and paid). The order stays cancelled: reviving it would ship
 * what the buyer said they no longer want. The payment is refunded through the refunds' own path
 * (ADR 086), once however often the provider tells us; the buyer gets its refund receipt.
 */
async function lateForCancelledOrder(
  db: Database,
  provider: PaymentProvider,
  orderId: string,
  sessionId: string,
  now: Date,
): Promise<boolean> {
  const row = await db.selectFrom("store_order").select(["status", "number", "provider"]).where("id", "=", orderId).executeTakeFirst();
  if (row?.status !== "cancelled") return false;
  log.warn(
    `payment for cancelled order ${row.number} (${orderId}) through ${row.provider} session ${sessionId}: it stays cancelled and is refunded.`,
  );
  await refundLatePayment(db, provider, orderId, sessionId, now);
  return true;
}

export type CancelOutcome = "cancelled" | "already-cancelled" | "paid";

/**
 * Cancels an order still awaiting payment: the buyer's own choice, or an abandoned order. The
 * provider's checkout page is closed first, so nothing can be paid once the order is cancelled;
 * if the payment won that race, the order is paid instead. Only pending_payment moves (a
 * conditional update); a replay finds it cancelled already; a paid order stays paid.
 */
export async function cancelOrder(db: Database, provider: PaymentProvider, orderId: string, now = new Date()): Promise<CancelOutcome> {
  const row = await db
    .selectFrom("store_order")
    .select(["status", "provider", "provider_session_id"])
    .where("id", "=", orderId)
    .executeTakeFirstOrThrow();
  if (row.status === "paid") return "paid";
  if (row.status === "cancelled") return "already-cancelled";
  // A session opened through another provider (the site has since been switched) cannot be reached.
  if (row.provider_session_id && row.provider === provider.name && (await provider.expireCheckout(row.provider_session_id)) === "paid") {
    await markOrderPaid(db, orderId, now);
    return "paid";
  }
  const cancelled = await db.transaction().execute(async (tx) => {
    const moved = await tx
      .updateTable("store_order")
      .set({ status: "cancelled", cancelled_at: now.toISOString() })
      .where("id", "=", orderId)
      .where("status", "=", "pending_payment")
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) return false;
    // The promo code's use the order held is free for another order again (ADR 091).
    await releaseOfferUses(tx, orderId, now);
    return true;
  });
  if (cancelled) return "cancelled";
  const after = await db.selectFrom("store_order").select("status").where("id", "=", orderId).executeTakeFirstOrThrow();
  return after.status === "cancelled" ? "already-cancelled" : "paid";
}

/** An order with nothing to pay (a 100% promo) is complete as soon as it is placed. */
export async function completeFreeOrder(db: Database, order: Order, now = new Date()): Promise<boolean> {
  if (order.totalCents !== 0) return false;
  return markOrderPaid(db, order.id, now);
}
