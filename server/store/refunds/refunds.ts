import crypto from "node:crypto";
import type { Database } from "~/server/db/connection";
import { releaseOfferUses } from "../promo";
import type { RefundKind, RefundStatus } from "~/server/db/schema";
import { PAYMENTS, recordAudit, type AuditActor } from "~/server/desk/audit";
import type { PaymentProvider, RefundOutcome } from "~/server/payments/provider";
import { log } from "~/server/log";
import { settleFulfilment } from "~/server/store/fulfilment/shipments";
import { chargeDue } from "~/server/store/preorders";
import { refundAmount } from "./amounts";

// Refunds of an order, whole or of chosen lines and quantities, through the payments provider
// (ADR 086). A refund is first reserved in one transaction: the order's refunded_cents and each
// line's refunded_quantity move by conditional updates that cannot pass what was paid or bought,
// with the refund's row (its idempotency key unique) and its audit row. Then the provider is
// asked, with a key derived from the refund, and the refund succeeds (the sandbox), waits for the
// provider's event (Stripe's charge.refunded), or fails and gives back what it reserved.

export interface RefundInput {
  /** Lines and quantities; omitted: everything not refunded yet (the whole order). */
  lines?: { position: number; quantity: number }[];
  reason: string;
  /** From the desk's form: the same form sent twice is one refund. */
  idempotencyKey: string;
}

export type RefundProblem = "not-found" | "not-refundable" | "nothing-left" | "bad-lines" | "shipped" | "provider";

export type RefundResult =
  { ok: true; refundId: string; status: RefundStatus; amountCents: number; replay: boolean } | { ok: false; problem: RefundProblem };

class Refused extends Error {
  constructor(readonly problem: RefundProblem) {
    super(problem);
  }
}

const CREDIT_NOTE = "credit-note";

/** How a credit note's number is printed: its own sequence, apart from invoices. */
export const creditNoteNumber = (number: number) => `CN-${String(number).padStart(6, "0")}`;

/** A refund of a paid order (or what is left of one), asked for at the desk. */
export async function refundOrder(
  db: Database,
  provider: PaymentProvider,
  actor: AuditActor,
  orderId: string,
  input: RefundInput,
  now: Date,
): Promise<RefundResult> {
  return refund(db, provider, actor, orderId, input, input.lines ? "lines" : "order", now);
}

/**
 * Cancels a paid order before anything in it has been dispatched, refunding all that was paid.
 * The order's row moves from paid to cancelled only while shipped_at is empty, so a dispatch and a
 * cancellation at the same moment cannot both happen.
 */
export async function cancelPaidOrder(
  db: Database,
  provider: PaymentProvider,
  actor: AuditActor,
  orderId: string,
  input: Omit<RefundInput, "lines">,
  now: Date,
): Promise<RefundResult> {
  return refund(db, provider, actor, orderId, input, "cancel", now);
}

/**
 * A payment completed for an order already cancelled (the buyer paid in a page left open): the
 * order stays cancelled and the payment goes back through the same path, once however often the
 * provider tells us (the key is the session's).
 */
export async function refundLatePayment(db: Database, provider: PaymentProvider, orderId: string, sessionId: string, now: Date) {
  const outcome = await refund(
    db,
    provider,
    PAYMENTS,
    orderId,
    { reason: "Paid after the order was cancelled", idempotencyKey: `late-payment:${sessionId}` },
    "late-payment",
    now,
  );
  if (!outcome.ok)
    log.error(`PAYMENT FOR CANCELLED ORDER ${orderId}: the automatic refund failed (${outcome.problem}); refund it at the provider.`);
  return outcome;
}

async function refund(
  db: Database,
  provider: PaymentProvider,
  actor: AuditActor,
  orderId: string,
  input: RefundInput,
  kind: RefundKind,
  now: Date,
): Promise<RefundResult> {
  const replay = await findByKey(db, input.idempotencyKey);
  if (replay) return replay.order_id === orderId ? replayed(replay) : { ok: false, problem: "not-found" };
  const refundId = crypto.randomUUID();
  let reserved: Awaited<ReturnType<typeof reserve>>;
  try {
    reserved = await db.transaction().execute((tx) => reserve(tx, actor, orderId, refundId, input, kind, provider.name, now));
  } catch (error) {
    if (error instanceof Refused) return { ok: false, problem: error.problem };
    // The same form sent twice at once: the other request reserved the refund.
    const again = await findByKey(db, input.idempotencyKey);
    if (again && again.order_id === orderId) return replayed(again);
    throw error;
  }
  if (reserved.amount === 0) {
    await completeRefund(db, refundId, now);
    return { ok: true, refundId, status: "succeeded", amountCents: 0, replay: false };
  }
  try {
    const { sessionId } = reserved;
    if (!sessionId || reserved.provider !== provider.name)
      throw new Error(`order ${orderId} was paid through ${reserved.provider ?? "no provider"}, not ${provider.name}`);
    // Pre-orders paid on their own go back to their own payments (ADR 092), the rest to the checkout's.
    const answers: (RefundOutcome & { ofSession: boolean })[] = [];
    for (const part of reserved.parts) {
      const chargeId = part.paidTo === sessionId ? undefined : part.paidTo;
      const answer = await provider.refund({
        sessionId,
        ...(chargeId ? { chargeId } : {}),
        amountCents: part.amount,
        idempotencyKey: chargeId ? `refund:${refundId}:${chargeId}` : `refund:${refundId}`,
        reference: refundId,
      });
      if (answer.status === "failed") throw new Error(`the provider refused refund ${answer.id}`);
      answers.push({ ...answer, ofSession: !chargeId });
      await db
        .updateTable("store_refund_payment")
        .set({
          payment_id: answer.paymentId,
          provider_refund_id: answer.id,
          succeeded_at: answer.status === "succeeded" ? now.toISOString() : null,
        })
        .where("refund_id", "=", refundId)
        .where("paid_to", "=", part.paidTo)
        .execute();
    }
    const ofSession = answers.find((a) => a.ofSession);
    await db.transaction().execute(async (tx) => {
      await tx.updateTable("store_refund").set({ provider_refund_id: answers[0]!.id }).where("id", "=", refundId).execute();
      if (ofSession)
        await tx.updateTable("store_order").set({ provider_payment_id: ofSession.paymentId }).where("id", "=", orderId).execute();
    });
    const status = answers.some((a) => a.status === "pending") ? "pending" : "succeeded";
    if (status === "succeeded") await completeRefund(db, refundId, now);
    return { ok: true, refundId, status, amountCents: reserved.amount, replay: false };
  } catch (error) {
    log.error(`refund ${refundId} of order ${orderId} failed at the provider`, { error });
    await failRefund(db, refundId, error instanceof Error ? error.message : String(error));
    return { ok: false, problem: "provider" };
  }
}

/** Reserves the refund in the caller's transaction; answers its amount and the session it refunds. */
async function reserve(
  tx: Database,
  actor: AuditActor,
  orderId: string,
  refundId: string,
  input: RefundInput,
  kind: RefundKind,
  providerName: string,
  now: Date,
) {
  // Written first, so this transaction holds the order (PostgreSQL's row lock, SQLite's write
  // lock) while it reads what is left to refund; the conditional updates below hold the line anyway.
  const locked = await tx
    .updateTable("store_order")
    .set((eb) => ({ refunded_cents: eb.ref("refunded_cents") }))
    .where("id", "=", orderId)
    .executeTakeFirst();
  if (Number(locked.numUpdatedRows) !== 1) throw new Refused("not-found");
  // The same form, sent while this one waited for the order: the caller answers with that refund.
  if (await findByKey(tx, input.idempotencyKey)) throw new Error(`refund ${input.idempotencyKey} was asked for already`);
  const order = await tx.selectFrom("store_order").selectAll().where("id", "=", orderId).executeTakeFirstOrThrow();
  if (kind === "late-payment" ? order.status !== "cancelled" : order.paid_at === null || order.status === "pending_payment")
    throw new Refused("not-refundable");
  if (kind === "cancel") {
    if (order.status !== "paid") throw new Refused("not-refundable");
    const cancelled = await tx
      .updateTable("store_order")
      .set({ status: "cancelled", cancelled_at: now.toISOString() })
      .where("id", "=", orderId)
      .where("status", "=", "paid")
      .where("shipped_at", "is", null)
      .executeTakeFirst();
    if (Number(cancelled.numUpdatedRows) !== 1) throw new Refused("shipped");
  }
  const lines = await tx
    .selectFrom("store_order_line")
    .select(["position", "title", "quantity", "refunded_quantity", "line_total_cents", "charge_cents", "charged_at", "charge_id"])
    .where("order_id", "=", orderId)
    .orderBy("position")
    .execute();
  const chosen = new Map<number, number>();
  if (input.lines) {
    for (const { position, quantity } of input.lines) {
      if (!Number.isInteger(quantity) || quantity < 1 || chosen.has(position)) throw new Refused("bad-lines");
      chosen.set(position, quantity);
    }
    if (chosen.size === 0) throw new Refused("bad-lines");
  } else {
    for (const l of lines) if (l.quantity > l.refunded_quantity) chosen.set(l.position, l.quantity - l.refunded_quantity);
  }
  const unpaid = (l: (typeof lines)[number]) => l.charge_cents !== null && l.charged_at === null;
  const amount = refundAmount(
    {
      subtotalCents: order.subtotal_cents,
      shippingCents: order.shipping_cents,
      totalCents: order.total_cents,
      refundedCents: order.refunded_cents,
      unchargedCents: lines.reduce((n, l) => n + (unpaid(l) ? chargeDue({ ...l, charge_cents: l.charge_cents! }) : 0), 0),
    },
    lines.map((l) => ({
      position: l.position,
      quantity: l.quantity,
      refundedQuantity: l.refunded_quantity,
      lineTotalCents: l.line_total_cents,
      unpaid: unpaid(l),
    })),
    chosen,
  );
  if (amount === null) throw new Refused(input.lines ? "bad-lines" : "nothing-left");
  if (chosen.size === 0) throw new Refused("nothing-left");
  await tx
    .insertInto("store_refund")
    .values({
      id: refundId,
      order_id: orderId,
      idempotency_key: input.idempotencyKey,
      kind,
      amount_cents: amount,
      reason: input.reason,
      status: "pending",
      requested_by: actor.label,
      created_at: now.toISOString(),
      provider: order.provider ?? providerName,
      provider_refund_id: null,
      succeeded_at: null,
      failure: null,
      credit_note_number: null,
      mail_sent_at: null,
      mail_claimed_until: null,
    })
    .execute();
  const counted = await tx
    .updateTable("store_order")
    .set((eb) => ({ refunded_cents: eb("refunded_cents", "+", amount) }))
    .where("id", "=", orderId)
    .where((eb) => eb(eb("refunded_cents", "+", amount), "<=", eb.ref("total_cents")))
    .executeTakeFirst();
  if (Number(counted.numUpdatedRows) !== 1) throw new Refused("nothing-left");
  for (const [position, quantity] of chosen) {
    const line = await tx
      .updateTable("store_order_line")
      .set((eb) => ({
        refunded_quantity: eb("refunded_quantity", "+", quantity),
        refunded_at: eb
          .case()
          .when(eb(eb("refunded_quantity", "+", quantity), ">=", eb.ref("quantity")))
          .then(now.toISOString())
          .else(null)
          .end(),
      }))
      .where("order_id", "=", orderId)
      .where("position", "=", position)
      .where((eb) => eb(eb("refunded_quantity", "+", quantity), "<=", eb.ref("quantity")))
      .executeTakeFirst();
    if (Number(line.numUpdatedRows) !== 1) throw new Refused(input.lines ? "bad-lines" : "nothing-left");
    await tx.insertInto("store_refund_line").values({ refund_id: refundId, position, quantity }).execute();
  }
  await settleFulfilment(tx, orderId, now);
  await recordAudit(
    tx,
    {
      actor,
      action: kind === "cancel" ? "order.cancel" : "order.refund",
      subject: `order:${order.number}`,
      before: { status: order.status, refundedCents: order.refunded_cents },
      after: {
        status: kind === "cancel" ? "cancelled" : order.status,
        refundedCents: order.refunded_cents + amount,
        amountCents: amount,
        lines: [...chosen].map(([position, quantity]) => `${position}: ${quantity} × ${lines.find((l) => l.position === position)!.title}`),
        reason: input.reason,
      },
    },
    now,
  );
  // What goes back to each pre-order's own payment: its share of the quantity refunded, within
  // the amount; the rest to the checkout's. Each part is confirmed by its payment's refund events.
  const parts: { paidTo: string; amount: number; paymentId: string | null }[] = [];
  let left = amount;
  for (const l of lines) {
    const taking = chosen.get(l.position) ?? 0;
    if (!l.charge_id || l.charge_cents === null || taking === 0) continue;
    const share = Math.min(left, Math.round((l.charge_cents * taking) / l.quantity));
    if (share > 0) parts.push({ paidTo: l.charge_id, amount: share, paymentId: l.charge_id });
    left -= share;
  }
  if (left > 0) parts.push({ paidTo: order.provider_session_id ?? "", amount: left, paymentId: order.provider_payment_id });
  if (parts.length > 0)
    await tx
      .insertInto("store_refund_payment")
      .values(parts.map((p) => ({ refund_id: refundId, paid_to: p.paidTo, amount_cents: p.amount, payment_id: p.paymentId })))
      .execute();
  return { amount, sessionId: order.provider_session_id, provider: order.provider, parts };
}

const findByKey = (db: Database, key: string) =>
  db.selectFrom("store_refund").select(["id", "order_id", "status", "amount_cents"]).where("idempotency_key", "=", key).executeTakeFirst();

const replayed = (row: { id: string; status: RefundStatus; amount_cents: number }): RefundResult =>
  row.status === "failed"
    ? { ok: false, problem: "provider" }
    : { ok: true, refundId: row.id, status: row.status, amountCents: row.amount_cents, replay: true };

/**
 * The provider has refunded the money: the refund succeeds once, takes the next credit note
 * number (gapless, in this transaction, as invoices take theirs), and gives back the promo code's
 * or voucher's use the order held when nothing of it is left.
 */
export async function completeRefund(db: Database, refundId: string, now: Date): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    const moved = await tx
      .updateTable("store_refund")
      .set({ status: "succeeded", succeeded_at: now.toISOString() })
      .where("id", "=", refundId)
      .where("status", "=", "pending")
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) return false;
    const { last_number } = await tx
      .updateTable("invoice_sequence")
      .set((eb) => ({ last_number: eb("last_number", "+", 1) }))
      .where("name", "=", CREDIT_NOTE)
      .returning("last_number")
      .executeTakeFirstOrThrow();
    await tx.updateTable("store_refund").set({ credit_note_number: last_number }).where("id", "=", refundId).execute();
    const { order_id } = await tx.selectFrom("store_refund").select("order_id").where("id", "=", refundId).executeTakeFirstOrThrow();
    const left = await tx
      .selectFrom("store_order_line")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("order_id", "=", order_id)
      .where((eb) => eb("refunded_quantity", "<", eb.ref("quantity")))
      .executeTakeFirstOrThrow();
    // Nothing of the order stands: the promo code's or voucher's use it held is given back (ADR 091).
    if (Number(left.n) === 0) await releaseOfferUses(tx, order_id, now);
    return true;
  });
}

/** The provider refused or could not be reached: the refund fails and gives back what it reserved. */
async function failRefund(db: Database, refundId: string, failure: string): Promise<void> {
  await db.transaction().execute(async (tx) => {
    const moved = await tx
      .updateTable("store_refund")
      .set({ status: "failed", failure: failure.slice(0, 500) })
      .where("id", "=", refundId)
      .where("status", "=", "pending")
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) return;
    const refund = await tx
      .selectFrom("store_refund")
      .select(["order_id", "amount_cents"])
      .where("id", "=", refundId)
      .executeTakeFirstOrThrow();
    await tx
      .updateTable("store_order")
      .set((eb) => ({ refunded_cents: eb("refunded_cents", "-", refund.amount_cents) }))
      .where("id", "=", refund.order_id)
      .execute();
    const lines = await tx.selectFrom("store_refund_line").select(["position", "quantity"]).where("refund_id", "=", refundId).execute();
    for (const line of lines)
      await tx
        .updateTable("store_order_line")
        .set((eb) => ({ refunded_quantity: eb("refunded_quantity", "-", line.quantity), refunded_at: null }))
        .where("order_id", "=", refund.order_id)
        .where("position", "=", line.position)
        .execute();
  });
}

export type ConfirmOutcome = "confirmed" | "ignored" | "retry";

/**
 * The provider says one of its payments has been refunded, `amountRefundedCents` in all (Stripe's
 * charge.refunded): the parts of refunds that went to it succeed, oldest first, as far as that
 * amount covers them, and a refund succeeds once all its parts have. A replayed event finds them
 * succeeded and changes nothing. An event that arrives while a refund's answer is still being
 * recorded (its payment not yet known) asks for a retry.
 */
export async function confirmProviderRefunds(
  db: Database,
  paymentId: string,
  amountRefundedCents: number,
  now: Date,
): Promise<ConfirmOutcome> {
  const parts = await db
    .selectFrom("store_refund_payment as p")
    .innerJoin("store_refund as r", "r.id", "p.refund_id")
    .select(["p.refund_id", "p.paid_to", "p.amount_cents", "p.succeeded_at"])
    .where("p.payment_id", "=", paymentId)
    .where("r.status", "in", ["pending", "succeeded"])
    .orderBy("r.created_at")
    .orderBy("r.id")
    .execute();
  if (parts.length === 0) {
    const inFlight = await db
      .selectFrom("store_refund_payment as p")
      .innerJoin("store_refund as r", "r.id", "p.refund_id")
      .select("p.refund_id")
      .where("r.status", "=", "pending")
      .where("p.payment_id", "is", null)
      .executeTakeFirst();
    return inFlight ? "retry" : "ignored";
  }
  let covered = parts.filter((p) => p.succeeded_at !== null).reduce((sum, p) => sum + p.amount_cents, 0);
  let confirmed = false;
  for (const part of parts.filter((p) => p.succeeded_at === null)) {
    if (covered + part.amount_cents > amountRefundedCents) break;
    covered += part.amount_cents;
    await db
      .updateTable("store_refund_payment")
      .set({ succeeded_at: now.toISOString() })
      .where("refund_id", "=", part.refund_id)
      .where("paid_to", "=", part.paid_to)
      .where("succeeded_at", "is", null)
      .execute();
    const waiting = await db
      .selectFrom("store_refund_payment")
      .select("paid_to")
      .where("refund_id", "=", part.refund_id)
      .where("succeeded_at", "is", null)
      .executeTakeFirst();
    if (!waiting && (await completeRefund(db, part.refund_id, now))) confirmed = true;
  }
  return confirmed ? "confirmed" : "ignored";
}

export interface Refund {
  id: string;
  kind: RefundKind;
  amountCents: number;
  reason: string;
  status: RefundStatus;
  requestedBy: string;
  createdAt: string;
  succeededAt: string | null;
  failure: string | null;
  creditNote: string | null;
  mailSentAt: string | null;
  lines: { position: number; quantity: number }[];
}

/** An order's refunds, oldest first. */
export async function refundsOf(db: Database, orderId: string): Promise<Refund[]> {
  const rows = await db
    .selectFrom("store_refund")
    .selectAll()
    .where("order_id", "=", orderId)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  const lines = rows.length
    ? await db
        .selectFrom("store_refund_line")
        .selectAll()
        .where(
          "refund_id",
          "in",
          rows.map((r) => r.id),
        )
        .orderBy("position")
        .execute()
    : [];
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    amountCents: r.amount_cents,
    reason: r.reason,
    status: r.status,
    requestedBy: r.requested_by,
    createdAt: r.created_at,
    succeededAt: r.succeeded_at,
    failure: r.failure,
    creditNote: r.credit_note_number === null ? null : creditNoteNumber(r.credit_note_number),
    mailSentAt: r.mail_sent_at,
    lines: lines.filter((l) => l.refund_id === r.id).map((l) => ({ position: l.position, quantity: l.quantity })),
  }));
}
