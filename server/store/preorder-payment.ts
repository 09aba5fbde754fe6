import type { Database } from "~/server/db/connection";
import { log } from "~/server/log";
import type { PaymentEvent, PaymentProvider } from "~/server/payments/provider";
import type { Order, OrderLine } from "./order-records";
import { chargeDue, releaseIfDue } from "./preorders";

// A pre-order whose card was declined on its date (ADR 092), paid by its buyer from their order's
// page with another card: the provider's hosted checkout for what the line still owes, one per
// line and attempt (a form sent twice opens one session, and an attempt is closed at the provider
// before the next opens, so no line is paid twice). Once paid, on the buyer's return or by the
// provider's callback, whichever comes first, the line is charged to that payment (its refunds go
// there) and released as the scheduled job would have, if its date has come.

/** A pre-order payment's reference at the provider: the order, the line and the attempt. */
export const PREORDER_PAYMENT = /^preorder-payment:(ord_[A-Za-z0-9_-]{22}):(\d{1,6}):(\d{1,6})$/;

export const preorderPaymentReference = (row: { order_id: string; position: number; attempt: number }) =>
  `preorder-payment:${row.order_id}:${row.position}:${row.attempt}`;

/** How long an attempt's checkout is offered again; after that it is closed and a fresh one opened (Stripe's last a day). */
const REOFFER_MS = 30 * 60_000;

/** A line its buyer can pay for now: declined on its date, not charged since, not all refunded, in a paid order. */
export function canPayAgain(
  order: Pick<Order, "status">,
  line: Pick<OrderLine, "chargeFailedAt" | "chargedAt" | "chargeLaterCents" | "quantity" | "refundedQuantity">,
): boolean {
  return (
    order.status === "paid" &&
    line.chargeFailedAt !== null &&
    line.chargedAt === null &&
    line.chargeLaterCents !== null &&
    line.refundedQuantity < line.quantity
  );
}

type Attempt = NonNullable<Awaited<ReturnType<typeof latestAttempt>>>;

const latestAttempt = (db: Database, orderId: string, position: number) =>
  db
    .selectFrom("store_preorder_payment")
    .selectAll()
    .where("order_id", "=", orderId)
    .where("position", "=", position)
    .orderBy("attempt", "desc")
    .executeTakeFirst();

const attemptRow = (db: Database, row: Pick<Attempt, "order_id" | "position" | "attempt">) =>
  db
    .updateTable("store_preorder_payment")
    .where("order_id", "=", row.order_id)
    .where("position", "=", row.position)
    .where("attempt", "=", row.attempt);

export type PreorderPaymentStart = { kind: "checkout"; url: string } | { kind: "paid" } | { kind: "not-payable" };

/**
 * Sends the buyer to the provider's checkout for one declined line: the attempt's session while it
 * is recent and for the same amount, else (once it is closed at the provider) the next attempt's.
 * "paid": the last attempt turned out paid, and the line is charged now.
 */
export async function startPreorderPayment(
  db: Database,
  provider: PaymentProvider,
  order: Order,
  position: number,
  urls: { successUrl: string; cancelUrl: string },
  now = new Date(),
): Promise<PreorderPaymentStart> {
  const line = order.lines.find((l) => l.position === position);
  if (!line || !canPayAgain(order, line)) return { kind: "not-payable" };
  const amountCents = chargeDue({
    charge_cents: line.chargeLaterCents!,
    quantity: line.quantity,
    refunded_quantity: line.refundedQuantity,
  });
  const latest = await latestAttempt(db, order.id, position);
  let attempt = latest?.attempt ?? 0;
  if (latest?.closed_at) attempt++;
  else if (latest?.session_id) {
    if (latest.provider === provider.name) {
      if ((await settleAttempt(db, provider, latest, now)) !== "pending") return { kind: "paid" };
      const recent = now.getTime() - Date.parse(latest.opened_at) < REOFFER_MS;
      if (recent && latest.amount_cents === amountCents) return { kind: "checkout", url: latest.checkout_url! };
      // Paid in the moment before it closed: that payment stands.
      if ((await provider.expireCheckout(latest.session_id)) === "paid" && (await settleAttempt(db, provider, latest, now)) !== "pending")
        return { kind: "paid" };
    }
    await attemptRow(db, latest)
      .set({ closed_at: now.toISOString() })
      .where("closed_at", "is", null)
      .where("paid_at", "is", null)
      .execute();
    attempt++;
  }
  // An attempt whose session was never recorded (a stop in between, or another request this
  // moment) is opened again: the provider answers its reference with the same session.
  await db
    .insertInto("store_preorder_payment")
    .values({
      order_id: order.id,
      position,
      attempt,
      provider: provider.name,
      amount_cents: amountCents,
      session_id: null,
      checkout_url: null,
      opened_at: now.toISOString(),
      closed_at: null,
      paid_at: null,
    })
    .onConflict((oc) => oc.columns(["order_id", "position", "attempt"]).doNothing())
    .execute();
  const session = await provider.createCheckout({
    reference: preorderPaymentReference({ order_id: order.id, position, attempt }),
    description: `Order ${order.number}: ${line.title} (${line.format}), pre-order`,
    amountCents,
    currency: "usd",
    customerEmail: order.email,
    successUrl: urls.successUrl,
    cancelUrl: urls.cancelUrl,
  });
  await attemptRow(db, { order_id: order.id, position, attempt }).set({ session_id: session.id, checkout_url: session.url }).execute();
  return { kind: "checkout", url: session.url };
}

/**
 * The buyer is back from the provider (`session_id` on the order page's address): asks it whether
 * that attempt was paid, and charges the line to it if so.
 */
export async function settlePreorderPayment(
  db: Database,
  provider: PaymentProvider,
  orderId: string,
  sessionId: string,
  now = new Date(),
): Promise<"paid" | "pending" | "unknown"> {
  const row = await db
    .selectFrom("store_preorder_payment")
    .selectAll()
    .where("order_id", "=", orderId)
    .where("session_id", "=", sessionId)
    .executeTakeFirst();
  if (!row || row.provider !== provider.name) return "unknown";
  return settleAttempt(db, provider, row, now);
}

/** A provider's signed callback for a pre-order payment (reference preorder-payment:…). */
export async function handlePreorderPaymentEvent(
  db: Database,
  provider: PaymentProvider,
  event: PaymentEvent,
  now = new Date(),
): Promise<"paid" | "ignored"> {
  const match = event.type === "checkout.completed" && event.paid ? PREORDER_PAYMENT.exec(event.reference) : null;
  if (!match || event.type !== "checkout.completed") return "ignored";
  const row = await db
    .selectFrom("store_preorder_payment")
    .selectAll()
    .where("order_id", "=", match[1]!)
    .where("position", "=", Number(match[2]))
    .where("attempt", "=", Number(match[3]))
    .executeTakeFirst();
  // The callback must be about the session this attempt opened.
  if (!row || row.session_id !== event.sessionId || row.provider !== provider.name) return "ignored";
  return (await settleAttempt(db, provider, row, now)) === "paid" ? "paid" : "ignored";
}

/** Asks the provider about an attempt's session; if it was paid, charges the line to that payment once. */
async function settleAttempt(db: Database, provider: PaymentProvider, row: Attempt, now: Date): Promise<"paid" | "pending"> {
  if (row.paid_at) return "paid";
  const state = await provider.retrieveCheckout(row.session_id!);
  if (!state.paid || state.reference !== preorderPaymentReference(row)) return "pending";
  if (!state.paymentId)
    throw new Error(`pre-order payment ${preorderPaymentReference(row)}: ${provider.name} names no payment for session ${row.session_id}`);
  const paymentId = state.paymentId;
  const recorded = await db.transaction().execute(async (tx) => {
    const moved = await attemptRow(tx, row).set({ paid_at: now.toISOString() }).where("paid_at", "is", null).executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) return false;
    const line = await tx
      .updateTable("store_order_line")
      .set({ charged_at: now.toISOString(), charge_id: paymentId, charge_failed_at: null })
      .where("order_id", "=", row.order_id)
      .where("position", "=", row.position)
      .where("charged_at", "is", null)
      .returning(["quantity", "refunded_quantity"])
      .executeTakeFirst();
    // Refunded or charged meanwhile by staff: the payment stands, and only staff can give it back.
    if (!line || line.refunded_quantity >= line.quantity)
      log.error(
        `PRE-ORDER ${row.order_id}#${row.position} PAID AGAIN (${provider.name} ${paymentId}) with nothing left to pay: refund it at the provider.`,
      );
    return true;
  });
  if (recorded) await releaseIfDue(db, row.order_id, row.position, now);
  return "paid";
}
