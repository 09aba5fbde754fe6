import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/server/db/connection";
import { createStripeProvider } from "~/server/payments/stripe";
import type { PaymentProvider } from "~/server/payments/provider";
import { markOrderPaid } from "~/server/store/order-payment";
import { confirmProviderRefunds, refundOrder, refundsOf } from "~/server/store/refunds/refunds";
import { startFakeStripe, stripeSignature, type FakeStripe } from "~/tests/helpers/fake-stripe";
import { availabilities, insertOrder } from "~/tests/helpers/store-orders";
import { dialectName, seededTestDatabase } from "~/tests/helpers/test-db";

// Refunds through Stripe (ADR 086) against the loopback server speaking Stripe's API: the
// Refunds API with the PaymentIntent of the order's Checkout session, an idempotency key per
// refund, a refund pending until `charge.refunded` confirms it, and Stripe's own refusal of more
// than the charge has left.

const SECRET_KEY = "sk_test_refunds";
const WEBHOOK_SECRET = "whsec_refunds";
let db: Database;
let close: () => Promise<void>;
let stripe: FakeStripe;
let provider: PaymentProvider;
const NOW = new Date("2026-03-02T10:00:00.000Z");
const STAFF = { id: null, label: "store@example.org" };

beforeAll(async () => {
  ({ db, close } = await seededTestDatabase());
  stripe = await startFakeStripe(SECRET_KEY);
  provider = createStripeProvider({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, apiUrl: stripe.url });
}, 60_000);

afterAll(async () => {
  await stripe?.close();
  await close?.();
});

/** The webhook Stripe would send for the last event of this type, as the adapter reads it. */
function lastEvent(type: string) {
  const event = stripe.events.filter((e) => e.type === type).at(-1)!;
  const body = JSON.stringify(event);
  return provider.parseWebhook(body, stripeSignature(body, WEBHOOK_SECRET));
}

describe(`refunds through Stripe (${dialectName})`, () => {
  it("refunds a line with the Refunds API, pending until charge.refunded confirms it; a replay and a refund past the charge change nothing", async () => {
    const pick = await availabilities(db);
    const order = await insertOrder(db, {
      userId: null,
      email: "stripe-refund@example.org",
      status: "pending_payment",
      createdAt: NOW.toISOString(),
      lines: [{ availabilityId: pick.hardcover.id }, { availabilityId: pick.kindle.id }],
    });
    const row = await db.selectFrom("store_order").select(["total_cents"]).where("id", "=", order.id).executeTakeFirstOrThrow();
    const session = await provider.createCheckout({
      reference: order.id,
      description: order.number,
      amountCents: row.total_cents,
      currency: "usd",
      customerEmail: "stripe-refund@example.org",
      successUrl: "https://meridian.test/ok",
      cancelUrl: "https://meridian.test/no",
    });
    await db.updateTable("store_order").set({ provider: "stripe", provider_session_id: session.id }).where("id", "=", order.id).execute();
    stripe.pay(session.id);
    await markOrderPaid(db, order.id, NOW);

    const key = crypto.randomUUID();
    const refunded = await refundOrder(
      db,
      provider,
      STAFF,
      order.id,
      { lines: [{ position: 2, quantity: 1 }], reason: "Faulty", idempotencyKey: key },
      NOW,
    );
    const ebook = (
      await db
        .selectFrom("store_order_line")
        .select("line_total_cents")
        .where("order_id", "=", order.id)
        .where("position", "=", 2)
        .executeTakeFirstOrThrow()
    ).line_total_cents;
    expect(refunded).toMatchObject({ ok: true, status: "pending", amountCents: ebook });
    const call = stripe.requests.find((r) => r.path === "/v1/refunds")!;
    expect(call.form.get("amount")).toBe(String(ebook));
    expect(call.form.get("payment_intent")).toBe(stripe.sessions.get(session.id)!.payment_intent);
    expect(call.idempotencyKey).toMatch(/^refund:/);
    expect((await refundsOf(db, order.id))[0]).toMatchObject({ status: "pending", creditNote: null });

    // The form sent again: the same refund, and Stripe is not asked twice.
    expect(
      await refundOrder(
        db,
        provider,
        STAFF,
        order.id,
        { lines: [{ position: 2, quantity: 1 }], reason: "Faulty", idempotencyKey: key },
        NOW,
      ),
    ).toMatchObject({
      ok: true,
      replay: true,
    });
    expect(stripe.requests.filter((r) => r.path === "/v1/refunds")).toHaveLength(1);

    const event = lastEvent("charge.refunded");
    expect(event).toMatchObject({ type: "payment.refunded", amountRefundedCents: ebook });
    if (event.type !== "payment.refunded") throw new Error(event.type);
    expect(await confirmProviderRefunds(db, event.paymentId, event.amountRefundedCents, NOW)).toBe("confirmed");
    expect(await confirmProviderRefunds(db, event.paymentId, event.amountRefundedCents, NOW)).toBe("ignored");
    expect((await refundsOf(db, order.id))[0]).toMatchObject({ status: "succeeded", creditNote: expect.stringMatching(/^CN-\d{6}$/) });

    // Stripe refuses more than the charge has left: the refund fails and gives back what it counted.
    const charge = stripe.charges.get(event.paymentId)!;
    charge.amount_refunded = Number(charge.amount);
    expect(await refundOrder(db, provider, STAFF, order.id, { reason: "The rest", idempotencyKey: crypto.randomUUID() }, NOW)).toEqual({
      ok: false,
      problem: "provider",
    });
    const after = await db.selectFrom("store_order").select("refunded_cents").where("id", "=", order.id).executeTakeFirstOrThrow();
    expect(after.refunded_cents).toBe(ebook);
    expect((await refundsOf(db, order.id)).map((r) => r.status).sort()).toEqual(["failed", "succeeded"]);
  });
});
