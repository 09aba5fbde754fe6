import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertUser } from "~/server/accounts/users";
import { connect, type Database } from "~/server/db/connection";
import type { PaymentEvent, PaymentProvider } from "~/server/payments/provider";
import { createStripeProvider } from "~/server/payments/stripe";
import { deleteAccount, ERASED_EMAIL } from "~/server/privacy";
import { settleOrder, startOrderPayment } from "~/server/store/order-payment";
import { findOrder, type Order } from "~/server/store/order-records";
import { issueIdempotencyKey } from "~/server/store/order-submit";
import { handlePreorderPaymentEvent, settlePreorderPayment, startPreorderPayment } from "~/server/store/preorder-payment";
import { chargeDue, preorderChargeKey, runPreorders } from "~/server/store/preorders";
import { confirmProviderRefunds, refundOrder, refundsOf } from "~/server/store/refunds/refunds";
import { PAY_AGAIN } from "~/shared/preorders";
import { startFakeStripe, stripeSignature, TEST_CARDS, type FakeEvent, type FakeStripe } from "~/tests/helpers/fake-stripe";
import { NOON_IN_NEW_YORK as NOON, placeOrder, preorderCatalogue, recordingMail, type Shopper } from "~/tests/helpers/store-checkout";
import { dialectName, isolatedConnection, type IsolatedConnection } from "~/tests/helpers/test-db";

// Pre-orders charged "when it ships" through Stripe (ADR 092, amended), against the loopback
// server speaking Stripe's API: the order's Checkout Session takes what is owed now and saves the
// card for a customer; on the date the scheduled job charges it off-session under the line's key
// (once, though a round stopped between the charge and its record asks again); a declined card or
// one that wants its holder to authenticate marks the line; a refund of the charged pre-order goes
// to its own PaymentIntent and is confirmed by that payment's events; and a buyer whose card was
// declined pays for the line through a Checkout Session of its own.

const SECRET_KEY = "sk_test_preorders";
const WEBHOOK_SECRET = "whsec_preorders";
const STAFF = { id: null, label: "store@meridian.example" };
const GUEST = { guest: "stripe-preorder@example.org" };
/** When the job runs: noon the day before the coming-soon date and the day after (orders are placed at NOON, long before). */
let BEFORE: Date;
let AFTER: Date;
const URLS = { successUrl: "https://meridian.test/order/back", cancelUrl: "https://meridian.test/order/stay" };

let connection: IsolatedConnection;
let db: Database;
let stripe: FakeStripe;
let provider: PaymentProvider;
const { sent, mail } = recordingMail();
let soonEbook: number;
let onSaleHardcover: number;

beforeAll(async () => {
  connection = await isolatedConnection("preorders-stripe");
  db = connect(connection);
  stripe = await startFakeStripe(SECRET_KEY);
  provider = createStripeProvider({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, apiUrl: stripe.url });
  ({ soonEbook, onSaleHardcover, dayBefore: BEFORE, dayAfter: AFTER } = await preorderCatalogue(db));
  await db.updateTable("product_availability").set({ preorder_charge: "ship" }).where("id", "=", soonEbook).execute();
}, 60_000);

afterAll(async () => {
  await stripe?.close();
  await db?.destroy();
  await connection?.drop();
});

/** An order of these items (a guest's, or a reader's) placed through the cart and checkout, paid at Stripe's hosted page with `card`. */
async function paidOrder(
  items: number[],
  card: string = TEST_CARDS.succeeds,
  shopper: Shopper = GUEST,
): Promise<Order & { sessionId: string }> {
  const order = await placeOrder(db, shopper, items, NOON, provider);
  const session = stripe.sessionAt(await startOrderPayment(db, provider, order, URLS))!;
  stripe.pay(session.id, card);
  expect(await settleOrder(db, provider, order.id, NOON)).toBe("paid");
  return { ...order, sessionId: session.id };
}

const lineOf = (orderId: string, availabilityId: number) =>
  db
    .selectFrom("store_order_line")
    .selectAll()
    .where("order_id", "=", orderId)
    .where("availability_id", "=", availabilityId)
    .executeTakeFirstOrThrow();
const posts = (path: string) => stripe.requests.filter((r) => r.method === "POST" && r.path === path);
const chargesFor = (order: Order) => posts("/v1/payment_intents").filter((r) => r.idempotencyKey?.startsWith(`preorder:${order.id}:`));

/** The event Stripe sends, as the adapter reads it from the signed webhook. */
function received(event: FakeEvent): PaymentEvent {
  const body = JSON.stringify(event);
  return provider.parseWebhook(body, stripeSignature(body, WEBHOOK_SECRET));
}

/** Stripe's latest charge.refunded for this PaymentIntent, applied as the webhook applies it. */
async function confirmRefundsOf(paymentIntent: string) {
  const event = received(
    stripe.events.filter((e) => e.type === "charge.refunded" && e.data.object.payment_intent === paymentIntent).at(-1)!,
  );
  if (event.type !== "payment.refunded") throw new Error(event.type);
  return confirmProviderRefunds(db, event.paymentId, event.amountRefundedCents, AFTER);
}

describe(`pre-orders through Stripe (${dialectName})`, () => {
  it("takes only what is owed now at checkout, saving the card for a customer, or only saves it when nothing else is", async () => {
    const order = await paidOrder([soonEbook, onSaleHardcover]);
    const ebook = await lineOf(order.id, soonEbook);
    expect(ebook.charge_cents).toBeGreaterThan(0);
    expect(order.deferredCents).toBe(ebook.charge_cents);
    const session = stripe.sessions.get(order.sessionId)!;
    expect(session).toMatchObject({ mode: "payment", amount_total: order.totalCents - order.deferredCents, customer_email: null });
    expect(stripe.customers.get(session.customer!)).toMatchObject({ email: "stripe-preorder@example.org" });
    const created = posts("/v1/checkout/sessions").find((r) => r.form.get("client_reference_id") === order.id)!;
    expect(created.form.get("payment_intent_data[setup_future_usage]")).toBe("off_session");
    expect(created.form.get("customer")).toBe(session.customer);
    expect(stripe.paymentIntents.get(session.payment_intent!)).toMatchObject({
      customer: session.customer,
      setup_future_usage: "off_session",
    });

    const only = await paidOrder([soonEbook]);
    expect(stripe.sessions.get(only.sessionId)).toMatchObject({
      mode: "setup",
      customer: expect.stringMatching(/^cus_/),
      payment_intent: null,
    });
    // Either way the card is there to charge on the date.
    expect(await runPreorders(db, provider, mail, AFTER)).toMatchObject({ charged: 2, declined: 0, released: 2 });
  });

  it("charges the saved card off-session on the date, once: a round stopped before recording the charge asks again under the same key", async () => {
    const order = await paidOrder([soonEbook, onSaleHardcover]);
    const ebook = await lineOf(order.id, soonEbook);
    await runPreorders(db, provider, mail, BEFORE);
    expect(chargesFor(order)).toEqual([]);

    // A round charged the line and stopped before marking it: the next one asks Stripe again.
    const key = preorderChargeKey(order.id, ebook.position);
    const first = await provider.savedCardCharges!.charge({
      sessionId: order.sessionId,
      amountCents: ebook.charge_cents!,
      description: `Order ${order.number}: ${ebook.title} (${ebook.format}), pre-order`,
      idempotencyKey: key,
    });
    expect(first).toMatchObject({ status: "succeeded" });
    expect(await runPreorders(db, provider, mail, AFTER)).toMatchObject({ charged: 1, declined: 0, released: 1 });
    expect(await runPreorders(db, provider, mail, AFTER)).toMatchObject({ charged: 0, declined: 0, released: 0 });

    const asked = chargesFor(order);
    expect(asked.map((r) => r.idempotencyKey)).toEqual([key, key]);
    const session = stripe.sessions.get(order.sessionId)!;
    expect(Object.fromEntries(asked[1]!.form)).toMatchObject({
      amount: String(ebook.charge_cents),
      currency: "usd",
      customer: session.customer,
      off_session: "true",
      confirm: "true",
    });
    const intents = [...stripe.paymentIntents.values()].filter(
      (pi) => pi.customer === session.customer && pi.id !== session.payment_intent,
    );
    expect(intents).toHaveLength(1);
    expect(intents[0]).toMatchObject({ status: "succeeded", amount: ebook.charge_cents, payment_method: expect.stringMatching(/^pm_/) });
    const after = await lineOf(order.id, soonEbook);
    expect(after).toMatchObject({ charge_id: intents[0]!.id, charge_failed_at: null, released_at: AFTER.toISOString() });
    // Taken in all: the order's total, never more.
    expect(session.amount_total! + Number(intents[0]!.amount)).toBe(order.totalCents);
  });

  it("marks the line when the card is declined or its bank wants the buyer to authenticate, mails the buyer once, and asks no more", async () => {
    const declined = await paidOrder([soonEbook, onSaleHardcover], TEST_CARDS.declinesLater);
    const authenticate = await paidOrder([soonEbook], TEST_CARDS.authenticatesEveryTime);
    const mails = sent.length;
    expect(await runPreorders(db, provider, mail, AFTER)).toMatchObject({ charged: 0, declined: 2, released: 0 });
    expect(await runPreorders(db, provider, mail, AFTER)).toMatchObject({ charged: 0, declined: 0, released: 0 });
    for (const order of [declined, authenticate]) {
      expect(await lineOf(order.id, soonEbook)).toMatchObject({
        charge_failed_at: AFTER.toISOString(),
        charged_at: null,
        released_at: null,
      });
      expect(chargesFor(order)).toHaveLength(1);
    }
    const codes = [...stripe.paymentIntents.values()]
      .filter((pi) => pi.status === "requires_payment_method")
      .map((pi) => (pi.last_payment_error as { code: string }).code);
    expect(codes).toEqual(expect.arrayContaining(["card_declined", "authentication_required"]));
    const told = sent.slice(mails).filter((m) => /could not take the payment/.test(m.subject));
    expect(told.map((m) => m.subject).sort()).toEqual(
      [declined, authenticate].map((o) => `We could not take the payment for your pre-order ${o.number}`).sort(),
    );
    expect(told[0]!.text).toContain(PAY_AGAIN);
  });

  it("refunds a charged pre-order to its own PaymentIntent, and a refund of it with another line once both payments confirm", async () => {
    const order = await paidOrder([soonEbook, onSaleHardcover]);
    await runPreorders(db, provider, mail, AFTER);
    const ebook = await lineOf(order.id, soonEbook);
    const session = stripe.sessions.get(order.sessionId)!;
    expect(ebook.charge_id).toMatch(/^pi_/);

    const alone = await refundOrder(
      db,
      provider,
      STAFF,
      order.id,
      { lines: [{ position: ebook.position, quantity: 1 }], reason: "Changed their mind", idempotencyKey: issueIdempotencyKey() },
      AFTER,
    );
    expect(alone).toMatchObject({ ok: true, status: "pending", amountCents: ebook.charge_cents });
    const call = posts("/v1/refunds").at(-1)!;
    expect(call.form.get("payment_intent")).toBe(ebook.charge_id);
    expect(call.form.get("amount")).toBe(String(ebook.charge_cents));
    // The checkout's payment is not this refund's: its events confirm nothing of it.
    expect(await confirmProviderRefunds(db, session.payment_intent!, 0, AFTER)).toBe("ignored");
    expect(await confirmRefundsOf(ebook.charge_id!)).toBe("confirmed");
    expect((await refundsOf(db, order.id)).map((r) => r.status)).toEqual(["succeeded"]);

    // A second order: the whole of it refunded goes back to both payments, and succeeds once both say so.
    const both = await paidOrder([soonEbook, onSaleHardcover]);
    await runPreorders(db, provider, mail, AFTER);
    const charged = await lineOf(both.id, soonEbook);
    const bothSession = stripe.sessions.get(both.sessionId)!;
    const refunded = await refundOrder(
      db,
      provider,
      STAFF,
      both.id,
      { reason: "Buyer asked", idempotencyKey: issueIdempotencyKey() },
      AFTER,
    );
    expect(refunded).toMatchObject({ ok: true, status: "pending", amountCents: both.totalCents });
    expect(
      posts("/v1/refunds")
        .slice(-2)
        .map((r) => [r.form.get("payment_intent"), Number(r.form.get("amount"))]),
    ).toEqual(
      expect.arrayContaining([
        [charged.charge_id, charged.charge_cents],
        [bothSession.payment_intent, bothSession.amount_total],
      ]),
    );
    expect(await confirmRefundsOf(bothSession.payment_intent!)).toBe("ignored");
    expect((await refundsOf(db, both.id)).map((r) => r.status)).toEqual(["pending"]);
    expect(await confirmRefundsOf(charged.charge_id!)).toBe("confirmed");
    expect((await refundsOf(db, both.id)).map((r) => r.status)).toEqual(["succeeded"]);
  });

  it("lets the buyer of a declined pre-order pay through a Checkout Session of its own, once however often asked, and refunds go to it", async () => {
    const placed = await paidOrder([soonEbook, onSaleHardcover], TEST_CARDS.declinesLater);
    await runPreorders(db, provider, mail, AFTER);
    const declined = await lineOf(placed.id, soonEbook);
    const order = (await findOrder(db, placed.id))!;
    const owed = chargeDue({ ...declined, charge_cents: declined.charge_cents! });

    // The form sent twice at once, and again: one session, for what the line owes.
    const opened = await Promise.all([1, 2].map(() => startPreorderPayment(db, provider, order, declined.position, URLS, AFTER)));
    const again = await startPreorderPayment(db, provider, order, declined.position, URLS, AFTER);
    expect(new Set([...opened, again].map((o) => (o.kind === "checkout" ? o.url : o.kind))).size).toBe(1);
    const first = stripe.sessionAt(again.kind === "checkout" ? again.url : "")!;
    const reference = `preorder-payment:${order.id}:${declined.position}:0`;
    expect(first).toMatchObject({ mode: "payment", amount_total: owed, client_reference_id: reference, customer_email: order.email });
    const creations = posts("/v1/checkout/sessions").filter((r) => r.form.get("client_reference_id") === reference);
    expect(new Set(creations.map((r) => r.idempotencyKey))).toEqual(new Set([`checkout-session:${reference}`]));

    // Left unpaid for an hour: the next asking closes it at Stripe and opens the next attempt.
    const later = new Date(AFTER.getTime() + 3_600_000);
    const next = await startPreorderPayment(db, provider, order, declined.position, URLS, later);
    expect(first.status).toBe("expired");
    expect(() => stripe.pay(first.id)).toThrow(/expired/);
    const second = stripe.sessionAt(next.kind === "checkout" ? next.url : "")!;
    expect(second.client_reference_id).toBe(`preorder-payment:${order.id}:${declined.position}:1`);

    stripe.pay(second.id);
    const completed = stripe.events.filter((e) => e.type === "checkout.session.completed" && e.data.object.id === second.id).at(-1)!;
    expect(await handlePreorderPaymentEvent(db, provider, received(completed), later)).toBe("paid");
    // Sent again, and the buyer back: the same payment, recorded once.
    expect(await handlePreorderPaymentEvent(db, provider, received(completed), new Date(later.getTime() + 1000))).toBe("paid");
    expect(await settlePreorderPayment(db, provider, order.id, second.id, new Date(later.getTime() + 2000))).toBe("paid");
    expect(await lineOf(order.id, soonEbook)).toMatchObject({
      charge_id: second.payment_intent,
      charge_failed_at: null,
      charged_at: later.toISOString(),
      released_at: later.toISOString(),
    });
    expect(await startPreorderPayment(db, provider, (await findOrder(db, order.id))!, declined.position, URLS, later)).toEqual({
      kind: "not-payable",
    });
    // The job leaves it alone.
    expect(await runPreorders(db, provider, mail, later)).toMatchObject({ charged: 0, declined: 0, released: 0 });

    const refund = await refundOrder(
      db,
      provider,
      STAFF,
      order.id,
      { lines: [{ position: declined.position, quantity: 1 }], reason: "Changed their mind", idempotencyKey: issueIdempotencyKey() },
      later,
    );
    expect(refund).toMatchObject({ ok: true, status: "pending", amountCents: owed });
    expect(posts("/v1/refunds").at(-1)!.form.get("payment_intent")).toBe(second.payment_intent);
    expect(await confirmRefundsOf(second.payment_intent!)).toBe("confirmed");
  });
  it("deletes the order's customer at Stripe once nothing is left to charge to its card: charged, declined or refunded; never before", async () => {
    const customerOf = async (order: Order) =>
      (await db.selectFrom("store_order").select("provider_customer_id").where("id", "=", order.id).executeTakeFirstOrThrow())
        .provider_customer_id;
    const charged = await paidOrder([soonEbook, onSaleHardcover]);
    const declined = await paidOrder([soonEbook], TEST_CARDS.declinesLater);
    const refunded = await paidOrder([soonEbook]);
    const orders = [charged, declined, refunded];
    const customers = orders.map((o) => stripe.sessions.get(o.sessionId)!.customer!);
    // Kept with the order as its checkout made it.
    expect(await Promise.all(orders.map(customerOf))).toEqual(customers);
    const deletes = () => stripe.requests.filter((r) => r.method === "DELETE" && customers.some((c) => r.path === `/v1/customers/${c}`));

    // Before the date only the refunded order (nothing left to charge) loses its customer.
    expect(
      await refundOrder(db, provider, STAFF, refunded.id, { reason: "Buyer asked", idempotencyKey: issueIdempotencyKey() }, BEFORE),
    ).toMatchObject({ ok: true, amountCents: 0 });
    expect(await runPreorders(db, provider, mail, BEFORE)).toMatchObject({ charged: 0, customersDeleted: 1 });
    expect(deletes().map((r) => r.path)).toEqual([`/v1/customers/${customers[2]}`]);
    expect(stripe.customers.get(customers[0]!)).toMatchObject({ email: "stripe-preorder@example.org" });

    // On the date: charged, or declined (its buyer pays at a checkout of its own): both go, once.
    expect(await runPreorders(db, provider, mail, AFTER)).toMatchObject({ charged: 1, declined: 1, customersDeleted: 2 });
    expect(await runPreorders(db, provider, mail, AFTER)).toMatchObject({ customersDeleted: 0 });
    expect(deletes()).toHaveLength(3);
    for (const customer of customers) expect(stripe.customers.get(customer)).toEqual({ id: customer, object: "customer", deleted: true });
    expect(await Promise.all(orders.map(customerOf))).toEqual([null, null, null]);
    // The charge it made is still refunded to its own PaymentIntent.
    const ebook = await lineOf(charged.id, soonEbook);
    expect(
      await refundOrder(
        db,
        provider,
        STAFF,
        charged.id,
        { lines: [{ position: ebook.position, quantity: 1 }], reason: "Changed their mind", idempotencyKey: issueIdempotencyKey() },
        AFTER,
      ),
    ).toMatchObject({ ok: true, status: "pending", amountCents: ebook.charge_cents });
    expect(posts("/v1/refunds").at(-1)!.form.get("payment_intent")).toBe(ebook.charge_id);
  });

  it("deletes a reader's order customers with their account unless a pre-order still awaits its charge, which the job makes on its date before deleting that one", async () => {
    const buyer = (await insertUser(db, {
      firstName: "Ines",
      lastName: "Okafor",
      email: `preorder-reader-${crypto.randomUUID()}@example.org`,
      password: "Lantern5!quay",
      optIn: false,
    }))!;
    const reader = { reader: buyer };
    const spent = await paidOrder([soonEbook], TEST_CARDS.succeeds, reader);
    expect(
      await refundOrder(db, provider, STAFF, spent.id, { reason: "Buyer asked", idempotencyKey: issueIdempotencyKey() }, BEFORE),
    ).toMatchObject({ ok: true });
    const due = await paidOrder([soonEbook, onSaleHardcover], TEST_CARDS.succeeds, reader);
    const spentCustomer = stripe.sessions.get(spent.sessionId)!.customer!;
    const dueCustomer = stripe.sessions.get(due.sessionId)!.customer!;

    // Stripe out of reach: the account stays, to be deleted when the reader tries again.
    const unreachable = createStripeProvider({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, apiUrl: "http://127.0.0.1:9" });
    await expect(deleteAccount(db, buyer.id, BEFORE, unreachable)).rejects.toThrow(/^Stripe: delete customer failed/);
    expect(await db.selectFrom("app_user").select("id").where("id", "=", buyer.id).execute()).toHaveLength(1);

    expect(await deleteAccount(db, buyer.id, BEFORE, provider)).toMatchObject({ ok: true, deleted: { ordersKept: 2 } });
    expect(stripe.customers.get(spentCustomer)).toMatchObject({ deleted: true });
    // The pre-order still due keeps its card, with the customer it is saved for.
    expect(stripe.customers.get(dueCustomer)).toMatchObject({ email: buyer.email });
    expect(
      await db
        .selectFrom("store_order")
        .select(["user_id", "email", "provider_customer_id"])
        .where("id", "=", due.id)
        .executeTakeFirstOrThrow(),
    ).toEqual({
      user_id: null,
      email: ERASED_EMAIL,
      provider_customer_id: dueCustomer,
    });

    const mails = sent.length;
    expect(await runPreorders(db, provider, mail, AFTER)).toMatchObject({ charged: 1, released: 1, customersDeleted: 1 });
    expect(await lineOf(due.id, soonEbook)).toMatchObject({ charged_at: AFTER.toISOString(), charge_id: expect.stringMatching(/^pi_/) });
    expect(stripe.customers.get(dueCustomer)).toMatchObject({ deleted: true });
    // Its buyer's address went with the account: nothing is mailed.
    expect(sent.length).toBe(mails);
  });
});
