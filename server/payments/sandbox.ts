import crypto from "node:crypto";
import { sql } from "kysely";
import type { Database } from "~/server/db/connection";
import { isPostgres } from "~/server/db/dialect";
import { formatUsd } from "~/shared/money";
import {
  WebhookSignatureError,
  type CheckoutRequest,
  type CheckoutSession,
  type CheckoutState,
  type OffSessionCharge,
  type PaymentEvent,
  type PaymentProvider,
  type RecurringBilling,
  type RefundOutcome,
  type RefundRequest,
  type SavedCard,
  type SavedCardCharges,
} from "./provider";

/**
 * The built-in sandbox provider: a hosted checkout of our own (its pages live under
 * /sandbox-checkout/{id}), test card numbers that succeed or are declined, and a completion
 * callback signed like a real provider's. It moves no money; it is the default so that the
 * whole subscription flow works on a fresh machine.
 */
export const SANDBOX_CARDS = {
  succeeds: "4242424242424242",
  declined: "4000000000000002",
  /** Stripe's 0341: saved without trouble, declined when charged later. */
  declinesLater: "4000000000000341",
} as const;

export const SANDBOX_SIGNATURE_HEADER = "X-Sandbox-Signature";

/** How old a signed callback may be (seconds). */
const TOLERANCE_SECONDS = 300;

export interface SandboxPayment {
  id: string;
  reference: string;
  description: string;
  amountCents: number;
  customerEmail: string;
  cancelUrl: string;
  status: "open" | "paid" | "declined" | "expired";
  /** "setup" saves a card and charges nothing. */
  mode: "payment" | "setup";
}

export type PayOutcome = { ok: true; redirectUrl: string; callback: { body: string; signature: string } } | { ok: false; error: string };

export interface SandboxProvider extends PaymentProvider {
  readonly billing: RecurringBilling;
  readonly savedCardCharges: SavedCardCharges;
  payment(id: string): Promise<SandboxPayment | undefined>;
  pay(id: string, cardNumber: string, now?: Date): Promise<PayOutcome>;
  /** Moves the sandbox's clock on by `seconds`; answers the clock's new offset from real time, in seconds. */
  advanceClock(seconds: number): Promise<number>;
}

export const CARD_DECLINED = "Your card was declined. No payment was taken.";
export const CHECKOUT_EXPIRED = "This checkout has expired: the order was cancelled. No payment was taken.";
export const NOT_A_TEST_CARD =
  "This is a sandbox checkout: use the test card 4242 4242 4242 4242 (succeeds), 4000 0000 0000 0002 (declined) or 4000 0000 0000 0341 (accepted now, declined at renewal).";

const TEST_CARDS: ReadonlySet<string> = new Set(Object.values(SANDBOX_CARDS));

export function signSandboxPayload(secret: string, body: string, now = new Date()): string {
  const t = Math.floor(now.getTime() / 1000);
  const v1 = crypto.createHmac("sha256", secret).update(`${t}.${body}`).digest("hex");
  return `t=${t},v1=${v1}`;
}

function verifySignature(secret: string, body: string, header: string | null, now = new Date()): void {
  if (!header) throw new WebhookSignatureError("Sandbox signature missing");
  const parts = Object.fromEntries(header.split(",").map((p) => p.split("=", 2) as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || !/^[0-9a-f]{64}$/.test(parts.v1 ?? "")) throw new WebhookSignatureError("Sandbox signature malformed");
  if (Math.abs(now.getTime() / 1000 - t) > TOLERANCE_SECONDS) throw new WebhookSignatureError("Sandbox signature too old");
  const expected = crypto.createHmac("sha256", secret).update(`${t}.${body}`).digest();
  if (!crypto.timingSafeEqual(expected, Buffer.from(parts.v1!, "hex"))) throw new WebhookSignatureError("Sandbox signature does not match");
}

function withSessionId(url: string, id: string): string {
  const target = new URL(url);
  target.searchParams.set("session_id", id);
  return target.toString();
}

export function createSandboxProvider(db: Database, options: { siteUrl: string; webhookSecret: string }): SandboxProvider {
  const load = (id: string) =>
    /^sbx_[A-Za-z0-9_-]{22}$/.test(id)
      ? db.selectFrom("sandbox_payment").selectAll().where("id", "=", id).executeTakeFirst()
      : Promise.resolve(undefined);

  const savedCard = async (id: string | null): Promise<SavedCard | null> => {
    const card = id
      ? await db.selectFrom("sandbox_payment_method").select(["id", "brand", "last4"]).where("id", "=", id).executeTakeFirst()
      : undefined;
    return card ?? null;
  };

  const billing: RecurringBilling = {
    async now(real) {
      const clock = await db.selectFrom("sandbox_clock").select("offset_seconds").where("name", "=", "default").executeTakeFirstOrThrow();
      return new Date(real.getTime() + clock.offset_seconds * 1000);
    },

    async charge(request: OffSessionCharge) {
      const card = await db
        .selectFrom("sandbox_payment_method")
        .select("declines_off_session")
        .where("id", "=", request.cardId)
        .executeTakeFirst();
      if (!card) throw new Error(`Sandbox: no saved card ${request.cardId}`);
      await db
        .insertInto("sandbox_charge")
        .values({
          id: `ch_${crypto.randomBytes(16).toString("base64url")}`,
          idempotency_key: request.idempotencyKey,
          payment_method_id: request.cardId,
          amount_cents: request.amountCents,
          status: card.declines_off_session ? "declined" : "succeeded",
          created_at: (await billing.now(new Date())).toISOString(),
        })
        .onConflict((oc) => oc.column("idempotency_key").doNothing())
        .execute();
      const charge = await db
        .selectFrom("sandbox_charge")
        .selectAll()
        .where("idempotency_key", "=", request.idempotencyKey)
        .executeTakeFirstOrThrow();
      // As Stripe does, a key reused for another charge is refused rather than answered.
      if (charge.payment_method_id !== request.cardId || charge.amount_cents !== request.amountCents)
        throw new Error(`Sandbox: idempotency key ${request.idempotencyKey} was used for another charge`);
      return { id: charge.id, status: charge.status };
    },
  };

  const retrieveCheckout = async (sessionId: string): Promise<CheckoutState> => {
    const row = await load(sessionId);
    if (!row) throw new Error(`Sandbox: no checkout session ${sessionId}`);
    return {
      id: row.id,
      reference: row.reference,
      paid: row.status === "paid",
      card: await savedCard(row.payment_method_id),
      // A paid session is the sandbox's payment: its refunds name it.
      ...(row.status === "paid" && row.mode === "payment" ? { paymentId: row.id } : {}),
    };
  };

  async function refund(request: RefundRequest): Promise<RefundOutcome> {
    // A pre-order the buyer paid for afterwards was paid through a session of its own.
    if (request.chargeId?.startsWith("sbx_")) {
      const { chargeId: sessionId, amountCents, idempotencyKey, reference } = request;
      return refund({ sessionId, amountCents, idempotencyKey, reference });
    }
    // Immediate, as a card refund at a real provider is once accepted. A key answers its first
    // refund; the payment's refunds together never pass what it took (queued per payment as
    // createCheckout queues per reference).
    // A charge made later to the card the session saved (ADR 092) is a payment of its own.
    const paymentId = request.chargeId ?? request.sessionId;
    const chargeId = request.chargeId ?? null;
    return db.transaction().execute(async (tx) => {
      if (isPostgres(tx)) await sql`select pg_advisory_xact_lock(hashtextextended(${`sandbox-refund:${paymentId}`}, 0))`.execute(tx);
      const done = await tx
        .selectFrom("sandbox_refund")
        .selectAll()
        .where("idempotency_key", "=", request.idempotencyKey)
        .executeTakeFirst();
      if (done) {
        if (done.payment_id !== request.sessionId || done.charge_id !== chargeId || done.amount_cents !== request.amountCents)
          throw new Error(`Sandbox: idempotency key ${request.idempotencyKey} was used for another refund`);
        return { id: done.id, paymentId, status: "succeeded" as const };
      }
      const payment = request.chargeId
        ? await tx
            .selectFrom("sandbox_charge")
            .select(["status", "amount_cents"])
            .where("id", "=", request.chargeId)
            .executeTakeFirst()
            .then((c) => c && { status: c.status === "succeeded" ? "paid" : c.status, amount_cents: c.amount_cents })
        : await tx.selectFrom("sandbox_payment").select(["status", "amount_cents"]).where("id", "=", request.sessionId).executeTakeFirst();
      if (payment?.status !== "paid") throw new Error(`Sandbox: payment ${paymentId} has nothing to refund`);
      const { refunded } = await tx
        .selectFrom("sandbox_refund")
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("amount_cents"), eb.lit(0)).as("refunded"))
        .where("payment_id", "=", request.sessionId)
        .where("charge_id", chargeId ? "=" : "is", chargeId)
        .executeTakeFirstOrThrow();
      if (!(request.amountCents > 0) || Number(refunded) + request.amountCents > payment.amount_cents)
        return { id: "", paymentId, status: "failed" as const };
      const id = `re_${crypto.randomBytes(16).toString("base64url")}`;
      await tx
        .insertInto("sandbox_refund")
        .values({
          id,
          idempotency_key: request.idempotencyKey,
          payment_id: request.sessionId,
          charge_id: chargeId,
          amount_cents: request.amountCents,
          reference: request.reference,
          created_at: new Date().toISOString(),
        })
        .execute();
      return { id, paymentId, status: "succeeded" as const };
    });
  }

  // An order's saved card, charged as renewals are (sandbox_charge, once per key).
  const savedCardCharges: SavedCardCharges = {
    async charge({ sessionId, amountCents, idempotencyKey }) {
      const card = (await retrieveCheckout(sessionId)).card;
      if (!card) return { status: "declined" };
      const outcome = await billing.charge({ cardId: card.id, amountCents, idempotencyKey });
      return outcome.status === "succeeded" ? { status: "succeeded", paymentId: outcome.id } : { status: "declined" };
    },
  };

  return {
    name: "sandbox",
    billing,
    savedCardCharges,

    async advanceClock(seconds: number) {
      const moved = await db
        .updateTable("sandbox_clock")
        .set((eb) => ({ offset_seconds: eb("offset_seconds", "+", seconds) }))
        .where("name", "=", "default")
        .returning("offset_seconds")
        .executeTakeFirstOrThrow();
      return moved.offset_seconds;
    },

    async createCheckout(request: CheckoutRequest): Promise<CheckoutSession> {
      // One session per reference, however often asked, as Stripe does for a repeated
      // idempotency key. Askers are queued per reference: PostgreSQL by an advisory lock,
      // SQLite by its write lock, which its transactions take as they begin.
      const id = await db.transaction().execute(async (tx) => {
        if (isPostgres(tx)) await sql`select pg_advisory_xact_lock(hashtextextended(${`sandbox:${request.reference}`}, 0))`.execute(tx);
        const opened = await tx.selectFrom("sandbox_payment").select("id").where("reference", "=", request.reference).executeTakeFirst();
        if (opened) return opened.id;
        const fresh = `sbx_${crypto.randomBytes(16).toString("base64url")}`;
        await tx
          .insertInto("sandbox_payment")
          .values({
            id: fresh,
            reference: request.reference,
            // The sandbox adds the tax itself, as Stripe does with a tax rate.
            description: request.tax
              ? `${request.description}, plus ${formatUsd(request.tax.cents)} ${request.tax.rate.displayName.toLowerCase()}`
              : request.description,
            amount_cents: request.amountCents + (request.tax?.cents ?? 0),
            customer_email: request.customerEmail,
            success_url: request.successUrl,
            cancel_url: request.cancelUrl,
            status: "open",
            card_last4: null,
            created_at: new Date().toISOString(),
            paid_at: null,
            save_card: request.saveCard || request.setup ? 1 : 0,
            payment_method_id: null,
            mode: request.setup ? "setup" : "payment",
          })
          .execute();
        return fresh;
      });
      return { id, url: `${options.siteUrl}/sandbox-checkout/${id}` };
    },

    retrieveCheckout,

    async expireCheckout(sessionId: string): Promise<"closed" | "paid"> {
      const row = await load(sessionId);
      if (!row) throw new Error(`Sandbox: no checkout session ${sessionId}`);
      // Conditional, so it cannot cross a payment being taken at the same moment.
      await db
        .updateTable("sandbox_payment")
        .set({ status: "expired" })
        .where("id", "=", sessionId)
        .where("status", "in", ["open", "declined"])
        .execute();
      const after = await load(sessionId);
      return after?.status === "paid" ? "paid" : "closed";
    },

    refund,

    parseWebhook(rawBody: string, signatureHeader: string | null): PaymentEvent {
      verifySignature(options.webhookSecret, rawBody, signatureHeader);
      const event = JSON.parse(rawBody) as {
        id: string;
        type: string;
        data?: { sessionId: string; reference: string; paid: boolean; card: SavedCard | null };
      };
      if (event.type !== "checkout.completed" || !event.data) return { type: "other", eventId: event.id };
      return { type: "checkout.completed", eventId: event.id, ...event.data };
    },

    async payment(id: string): Promise<SandboxPayment | undefined> {
      const row = await load(id);
      return (
        row && {
          id: row.id,
          reference: row.reference,
          description: row.description,
          amountCents: row.amount_cents,
          customerEmail: row.customer_email,
          cancelUrl: row.cancel_url,
          status: row.status,
          mode: row.mode,
        }
      );
    },

    async pay(id: string, cardNumber: string, now = new Date()): Promise<PayOutcome> {
      const row = await load(id);
      if (!row) return { ok: false, error: "This checkout session does not exist." };
      const digits = cardNumber.replace(/[\s-]/g, "");
      if (!TEST_CARDS.has(digits)) return { ok: false, error: NOT_A_TEST_CARD };
      if (row.status === "paid") return { ok: false, error: "This checkout has already been paid." };
      if (row.status === "expired") return { ok: false, error: CHECKOUT_EXPIRED };
      if (digits === SANDBOX_CARDS.declined) {
        await db
          .updateTable("sandbox_payment")
          .set({ status: "declined", card_last4: digits.slice(-4) })
          .where("id", "=", id)
          .where("status", "in", ["open", "declined"])
          .execute();
        return { ok: false, error: CARD_DECLINED };
      }
      // Only one of two racing payments of the same session gets through, and none once expired;
      // the card is saved with the payment, or not at all.
      const card: SavedCard | null = row.save_card
        ? { id: `pm_${crypto.randomBytes(16).toString("base64url")}`, brand: "Visa", last4: digits.slice(-4) }
        : null;
      const paid = await db.transaction().execute(async (tx) => {
        const moved = await tx
          .updateTable("sandbox_payment")
          .set({ status: "paid", card_last4: digits.slice(-4), paid_at: now.toISOString(), payment_method_id: card?.id ?? null })
          .where("id", "=", id)
          .where("status", "in", ["open", "declined"])
          .executeTakeFirst();
        if (Number(moved.numUpdatedRows) !== 1) return false;
        if (card)
          await tx
            .insertInto("sandbox_payment_method")
            .values({
              ...card,
              customer_email: row.customer_email,
              declines_off_session: digits === SANDBOX_CARDS.declinesLater ? 1 : 0,
              created_at: now.toISOString(),
            })
            .execute();
        return true;
      });
      if (!paid) {
        const after = await load(id);
        return { ok: false, error: after?.status === "expired" ? CHECKOUT_EXPIRED : "This checkout has already been paid." };
      }
      const body = JSON.stringify({
        id: `evt_${crypto.randomBytes(12).toString("base64url")}`,
        type: "checkout.completed",
        created: Math.floor(now.getTime() / 1000),
        data: { sessionId: id, reference: row.reference, paid: true, card },
      });
      return {
        ok: true,
        redirectUrl: withSessionId(row.success_url, id),
        callback: { body, signature: signSandboxPayload(options.webhookSecret, body, now) },
      };
    },
  };
}
