import Stripe from "stripe";
import * as cheerio from "cheerio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type Database } from "~/server/db/connection";
import { createStripeProvider } from "~/server/payments/stripe";
import { runPreorders } from "~/server/store/preorders";
import { PAY_AGAIN } from "~/shared/preorders";
import { returnUrlOf, startFakeStripe, stripeEventBody, TEST_CARDS, type FakeStripe } from "~/tests/helpers/fake-stripe";
import { registeredReader, type Reader } from "~/tests/helpers/reader";
import { startBuiltServer, type RunningServer } from "~/tests/helpers/server";
import { selectFromServer } from "~/tests/helpers/server-db";
import {
  hasSubject,
  plainText,
  RESET_SUBJECT,
  startLoopbackSmtp,
  WELCOME_SUBJECT,
  type LoopbackSmtp,
  type Received,
} from "~/tests/helpers/smtp";
import { isolatedConnection, type IsolatedConnection } from "~/tests/helpers/test-db";
import { SHIPPING_ADDRESS } from "~/tests/helpers/store-orders";

// A store order paid through Stripe, against the production build and the loopback Stripe API:
// the shopper is sent to the Checkout Session the server opened for the order, Stripe's signed
// webhook (sent twice, as Stripe may) marks it paid once with one confirmation e-mail, and the
// page Stripe returns the shopper to shows the order as purchased.

const SECRET_KEY = "sk_test_51MeridianStoreOrders00000000000";
const WEBHOOK_SECRET = "whsec_meridianStoreOrdersSecret";
/** Seed catalogue: the first book's hardcover (ships) and its ebook (digital). */
const HARDCOVER = {
  intent: "add",
  productId: "1001",
  type: "Ship",
  quantity: "2",
  referral: "",
  productUrl: "/product/the-patient-ledger/1001",
  format: "Hardcover",
  productPrice: "32.00",
};
const EBOOK = {
  intent: "add",
  productId: "1002",
  type: "Digital",
  referral: "",
  productUrl: "/product/the-patient-ledger/1002",
  format: "Ebook",
  productPrice: "24.99",
};

let stripe: FakeStripe;
let smtp: LoopbackSmtp;
let server: RunningServer;
let database: IsolatedConnection;
/** The server's own database, for what the scheduled jobs would do (they do not run here). */
let db: Database;

beforeAll(async () => {
  database = await isolatedConnection("sst");
  stripe = await startFakeStripe(SECRET_KEY);
  smtp = await startLoopbackSmtp();
  server = await startBuiltServer(
    {
      PAYMENT_PROVIDER: "stripe",
      STRIPE_SECRET_KEY: SECRET_KEY,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: stripe.url,
      SMTP_URL: smtp.url,
      RATE_LIMIT_PER_IP: "100000",
      RATE_LIMIT_PER_ACCOUNT: "1000",
    },
    "production",
    database,
  );
  db = connect(database);
}, 120_000);

afterAll(async () => {
  await db?.destroy();
  await server?.stop();
  await smtp?.stop();
  await stripe?.close();
  await database.drop();
});

const postWebhook = (body: string) =>
  fetch(`${server.url}/api/payments/webhook`, {
    method: "POST",
    body,
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Stripe-Signature": Stripe.webhooks.generateTestHeaderString({ payload: body, secret: WEBHOOK_SECRET }),
    },
  });

const isResetMail = (m: Received) => hasSubject(m, RESET_SUBJECT);
const isOrderMail = (m: Received) => hasSubject(m, /^Your Meridian Review order /);

/**
 * The mails sent to a reader so far, other than password resets and the welcome their registration
 * sent, once everything the server had started mailing them has arrived: it asks for a password
 * reset and waits for that to come.
 */
async function mailsSettled(reader: Reader, email: string): Promise<Received[]> {
  const from = smtp.received.length;
  expect((await reader.request("/forgot-password", { form: { emailAddress: email } })).status).toBe(303);
  await smtp.waitFor((m) => smtp.received.indexOf(m) >= from && m.rcptTo.includes(email) && isResetMail(m));
  return smtp.received.filter((m) => m.rcptTo.includes(email) && !isResetMail(m) && !hasSubject(m, WELCOME_SUBJECT));
}

async function placeOrder(reader: Reader) {
  for (const item of [HARDCOVER, EBOOK]) expect((await reader.request("/shopping-cart", { form: item })).status).toBeLessThan(400);
  const continued = await reader.request("/shipping-payment", {
    form: { intent: "continue", addressChoice: "new", ...SHIPPING_ADDRESS, shippingMethod: "standard" },
  });
  expect(continued.status).toBe(303);
  expect(continued.headers.get("location")).toBe("/review-order");
  const $review = await reader.page("/review-order");
  const form = {
    idempotencyKey: $review("input[name=idempotencyKey]").val() as string,
    shownTotal: $review("input[name=shownTotal]").val() as string,
  };
  const placed = await Promise.all([reader.request("/review-order", { form }), reader.request("/review-order", { form })]);
  expect(placed.map((p) => p.status)).toEqual([303, 303]);
  expect(placed[1]!.headers.get("location")).toBe(placed[0]!.headers.get("location"));
  const [order] = await selectFromServer<{ id: string; number: string; email: string; total_cents: number; status: string }>(
    database,
    "SELECT id, number, email, total_cents, status FROM store_order WHERE idempotency_key = ?",
    [form.idempotencyKey],
  );
  return { order: order!, location: placed[0]!.headers.get("location")!, shownTotal: Number(form.shownTotal) };
}

describe("a store order paid through Stripe", () => {
  it("opens one Checkout Session for the order's total, is paid once by the replayed webhook, mails once, and shows Purchased on return", async () => {
    const reader = await registeredReader(server.url);
    const { order, location, shownTotal } = await placeOrder(reader);
    expect(order.status).toBe("pending_payment");

    const session = stripe.sessionAt(location);
    expect(session, `no Checkout Session at ${location}`).toBeDefined();
    expect(location).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
    expect(session!.client_reference_id).toBe(order.id);
    expect(session!.amount_total).toBe(order.total_cents);
    expect(order.total_cents).toBe(shownTotal);
    expect(session!.customer_email).toBe(order.email);
    const creations = stripe.requests.filter(
      (r) => r.method === "POST" && r.path === "/v1/checkout/sessions" && r.form.get("client_reference_id") === order.id,
    );
    expect(creations).toHaveLength(1);
    expect(creations[0]!.idempotencyKey).toBe(`checkout-session:${order.id}`);
    expect(returnUrlOf(session!)).toBe(`${server.url}/order/${order.id}?session_id=${session!.id}`);

    // Until Stripe reports the payment, the order waits (the session is still unpaid).
    const $waiting = await reader.page(`/order/${order.id}`);
    expect($waiting("dd").text()).toContain("Awaiting payment");

    const body = stripeEventBody("checkout.session.completed", { ...session!, status: "complete", payment_status: "paid", url: null });
    for (let i = 0; i < 2; i++) {
      const res = await postWebhook(body);
      expect(res.status).toBe(200);
    }
    const rows = await selectFromServer<{ status: string; paid_at: string | null }>(
      database,
      "SELECT status, paid_at FROM store_order WHERE id = ?",
      [order.id],
    );
    expect(rows).toEqual([{ status: "paid", paid_at: expect.any(String) }]);

    const back = new URL(returnUrlOf(session!));
    const $order = await reader.page(back.pathname + back.search);
    expect($order("dd").text()).toContain("Purchased");
    expect($order("[role=status]").text()).toContain("Thank you for your order.");
    expect($order("main").text()).toContain("Hardcover");
    expect($order("main").text()).toContain("Ebook");

    await smtp.waitFor((m) => m.rcptTo.includes(order.email) && isOrderMail(m));
    const mails = await mailsSettled(reader, order.email);
    expect(mails).toHaveLength(1);
    expect(plainText(mails[0]!.raw)).toContain(`Order number: ${order.number}`);
    // Paying emptied the cart.
    expect((await reader.page("/shipping-payment"))("main").text()).toContain("Your Shopping Cart is empty.");
  });

  it("marks the order paid when the shopper returns before the webhook, asking Stripe", async () => {
    const reader = await registeredReader(server.url);
    const { order, location } = await placeOrder(reader);
    const session = stripe.completeSession(stripe.sessionAt(location)!.id);
    const back = new URL(returnUrlOf(session));
    expect((await reader.page(back.pathname + back.search))("dd").text()).toContain("Purchased");
    await smtp.waitFor((m) => m.rcptTo.includes(order.email) && isOrderMail(m));
    // The webhook that follows changes nothing and sends nothing more.
    expect((await postWebhook(stripeEventBody("checkout.session.completed", { ...session, url: null }))).status).toBe(200);
    expect(await mailsSettled(reader, order.email)).toHaveLength(1);
  });
});

describe("cancelling a store order paid through Stripe", () => {
  const status = async (id: string) =>
    (await selectFromServer<{ status: string }>(database, "SELECT status FROM store_order WHERE id = ?", [id]))[0]!.status;

  it("expires the order's Checkout Session, so the page the shopper left can no longer be paid", async () => {
    const reader = await registeredReader(server.url);
    const { order, location } = await placeOrder(reader);
    const session = stripe.sessionAt(location)!;
    const cancelled = await reader.request(`/order/${order.id}`, { form: { intent: "cancel" } });
    expect(cancelled.status).toBe(303);
    expect(stripe.requests).toContainEqual(expect.objectContaining({ method: "POST", path: `/v1/checkout/sessions/${session.id}/expire` }));
    expect(session.status).toBe("expired");
    expect(await status(order.id)).toBe("cancelled");
  });

  it("keeps the order when Stripe cannot be reached to close the page, and says to try again", async () => {
    const reader = await registeredReader(server.url);
    const { order, location } = await placeOrder(reader);
    // Stripe answers 404 for a session it no longer knows: the expiry cannot be confirmed.
    stripe.sessions.delete(stripe.sessionAt(location)!.id);
    const refused = await reader.request(`/order/${order.id}`, { form: { intent: "cancel" } });
    expect(refused.status).toBe(503);
    expect(
      cheerio
        .load(await refused.text())("[role=alert]")
        .text(),
    ).toContain("The order could not be cancelled just now. Please try again in a few minutes.");
    expect(await status(order.id)).toBe("pending_payment");
  });
});

describe("a pre-order whose card Stripe declined on its date", () => {
  it("is paid by its buyer with another card from the order's page, without JavaScript: one Checkout Session however often the form is sent, and only theirs", async () => {
    const soon = await db
      .selectFrom("product_availability as a")
      .innerJoin("product as p", "p.id", "a.product_id")
      .select(["a.id", "a.available_date", "p.title"])
      .where("a.code", "=", "KND")
      .where("a.status", "=", "F")
      .orderBy("a.id")
      .executeTakeFirstOrThrow();
    await db.updateTable("product_availability").set({ preorder_charge: "ship" }).where("id", "=", soon.id).execute();
    const reader = await registeredReader(server.url);
    for (const item of [HARDCOVER, { intent: "add", productId: String(soon.id), type: "Digital", referral: "" }])
      expect((await reader.request("/shopping-cart", { form: item })).status).toBeLessThan(400);
    const continued = await reader.request("/shipping-payment", {
      form: { intent: "continue", addressChoice: "new", ...SHIPPING_ADDRESS, shippingMethod: "standard" },
    });
    expect(continued.status).toBe(303);
    const $review = await reader.page("/review-order");
    expect($review("main").text()).toContain(`Charged when it ships: ${soon.title}.`);
    const placed = await reader.request("/review-order", {
      form: {
        idempotencyKey: $review("input[name=idempotencyKey]").val() as string,
        shownTotal: $review("input[name=shownTotal]").val() as string,
      },
    });
    const session = stripe.sessionAt(placed.headers.get("location")!)!;
    expect(session.customer).toMatch(/^cus_/);
    const orderId = session.client_reference_id!;
    stripe.pay(session.id, TEST_CARDS.declinesLater);
    expect((await postWebhook(stripeEventBody("checkout.session.completed", { ...session, url: null }))).status).toBe(200);

    // The scheduled job, on the day after the format's date.
    const provider = createStripeProvider({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, apiUrl: stripe.url });
    const mail = {
      mailer: { send: async () => ({ messageId: "<1@test>" }) },
      siteUrl: server.url,
      publisher: { name: "Meridian Review", addressLines: [], taxId: null },
    };
    const dayAfter = new Date(Date.parse(`${soon.available_date}T12:00:00Z`) + 86_400_000);
    expect(await runPreorders(db, provider, mail, dayAfter)).toMatchObject({ declined: 1 });

    const $declined = await reader.page(`/order/${orderId}`);
    expect($declined("main").text()).toContain("Your card was declined for this pre-order, and nothing was charged for it.");
    const form = $declined("form").filter((_, f) => $declined(f).find("button").text() === PAY_AGAIN);
    expect(form).toHaveLength(1);
    expect(form.attr("method")).toBe("post");
    const fields = { intent: "pay-preorder", position: form.find("input[name=position]").val() as string };

    // Another reader's order answers as if there were none, and opens nothing.
    const stranger = await registeredReader(server.url);
    expect((await stranger.request(`/order/${orderId}`, { form: fields })).status).toBe(404);
    expect((await reader.request(`/order/${orderId}`, { form: { intent: "pay-preorder", position: "x" } })).status).toBe(400);

    const sent = await Promise.all([1, 2].map(() => reader.request(`/order/${orderId}`, { form: fields })));
    expect(sent.map((r) => r.status)).toEqual([303, 303]);
    expect(sent[1]!.headers.get("location")).toBe(sent[0]!.headers.get("location"));
    const repay = stripe.sessionAt(sent[0]!.headers.get("location")!)!;
    expect(repay.client_reference_id).toBe(`preorder-payment:${orderId}:${fields.position}:0`);
    // Both sent at once asked Stripe under the attempt's key: one session.
    expect([...stripe.sessions.values()].filter((x) => x.client_reference_id === repay.client_reference_id)).toHaveLength(1);
    expect(returnUrlOf(repay)).toBe(`${server.url}/order/${orderId}?session_id=${repay.id}`);

    stripe.pay(repay.id);
    expect(
      (await postWebhook(stripeEventBody("checkout.session.completed", { ...stripe.sessions.get(repay.id)!, url: null }))).status,
    ).toBe(200);
    const [line] = await selectFromServer<{ charge_id: string; charge_failed_at: string | null }>(
      database,
      "SELECT charge_id, charge_failed_at FROM store_order_line WHERE order_id = ? AND position = ?",
      [orderId, Number(fields.position)],
    );
    expect(line).toEqual({ charge_id: stripe.sessions.get(repay.id)!.payment_intent, charge_failed_at: null });
    const back = new URL(returnUrlOf(repay));
    const $paid = await reader.page(back.pathname + back.search);
    expect($paid("main").text()).not.toContain(PAY_AGAIN);
    expect($paid("main").text()).not.toContain("Your card was declined");
  });
});
