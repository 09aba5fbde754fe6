import fs from "node:fs";
import path from "node:path";
import * as cheerio from "cheerio";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeStripe, stripeSignature, TEST_CARDS, type FakeStripe } from "~/tests/helpers/fake-stripe";
import { selectFromServer } from "~/tests/helpers/server-db";
import { startBuiltServer, type RunningServer } from "~/tests/helpers/server";
import { isolatedConnection, type IsolatedConnection } from "~/tests/helpers/test-db";

// Stripe Billing against the production build (ADR 067): a reader subscribes in Stripe Checkout,
// Stripe's test clock moves a month on, and its signed webhooks (delivered by the loopback Stripe
// to /api/payments/webhook, then all again) renew the plan once; the reader cancels from
// Subscription and billing, which asks Stripe, and Stripe's events end the plan. A reader
// upgrades there too, and Stripe charges what the page quoted (ADR 071).

const SECRET_KEY = "sk_test_51MeridianBillingIntegration00";
const WEBHOOK_SECRET = "whsec_meridianBillingIntegration";
const PASSWORD = "Lantern5!quay";
const DAY = 86_400;

let fake: FakeStripe;
let stripe: Stripe;
let server: RunningServer;
let database: IsolatedConnection;

beforeAll(async () => {
  database = await isolatedConnection("stb");
  fake = await startFakeStripe(SECRET_KEY);
  const api = new URL(fake.url);
  stripe = new Stripe(SECRET_KEY, { host: api.hostname, port: Number(api.port), protocol: "http", maxNetworkRetries: 0 });
  server = await startBuiltServer(
    { PAYMENT_PROVIDER: "stripe", STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_URL: fake.url },
    "production",
    database,
  );
  fake.webhookTo(`${server.url}/api/payments/webhook`, WEBHOOK_SECRET);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await database?.drop();
  await fake?.close();
});

let readers = 0;
async function registerReader(): Promise<{ email: string; cookie: string }> {
  const email = `renewer${++readers}@example.org`;
  const res = await fetch(`${server.url}/register`, {
    method: "POST",
    body: new URLSearchParams({ firstName: "Ada", lastName: `Renewer${readers}`, emailAddress: email, password: PASSWORD }),
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.url },
    redirect: "manual",
  });
  expect(res.status).toBe(303);
  const cookie = res.headers
    .getSetCookie()
    .find((c) => c.startsWith("mr_session="))!
    .split(";")[0]!;
  return { email, cookie };
}

const post = (path: string, cookie: string, form: Record<string, string> = {}) =>
  fetch(server.url + path, {
    method: "POST",
    body: new URLSearchParams(form),
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.url, Cookie: cookie },
    redirect: "manual",
  });

/** The reader's plan and invoices as Subscription and billing shows them. */
async function billingPage(cookie: string) {
  const res = await fetch(`${server.url}/my-account/billing`, { headers: { Cookie: cookie }, redirect: "manual" });
  expect(res.status).toBe(200);
  const $ = cheerio.load(await res.text());
  return {
    plan: $("#plan-heading").parent().text(),
    invoices: $("#invoices-heading")
      .parent()
      .find("li strong")
      .map((_, e) => $(e).text())
      .get(),
  };
}

/** Subscribes to Digital in Stripe Checkout with `card`, billed to `billing`; every event delivered to the site. */
async function subscribe(card: string = TEST_CARDS.succeeds, billing: Record<string, string> = { countryCode: "GB" }) {
  const reader = await registerReader();
  const res = await post("/subscriptions/checkout?plan=digital&ab=paywall-article", reader.cookie, billing);
  expect(res.status).toBe(303);
  const session = fake.sessionAt(res.headers.get("location") ?? "")!;
  expect(session.mode).toBe("subscription");
  fake.pay(session.id, card);
  expect(new Set(await fake.deliver())).toEqual(new Set([200]));
  return reader;
}

async function advance(days: number) {
  const clock = await stripe.testHelpers.testClocks.retrieve(fake.clock);
  await stripe.testHelpers.testClocks.advance(fake.clock, { frozen_time: clock.frozen_time + days * DAY });
  expect(new Set(await fake.deliver())).toEqual(new Set([200]));
}

const invoicesOf = (email: string) =>
  selectFromServer<{ number: number; kind: string; payment_key: string; tax_cents: number }>(
    database,
    "SELECT i.number, i.kind, i.payment_key, i.tax_cents FROM invoice i JOIN app_user u ON u.id = i.user_id WHERE u.email = ? ORDER BY i.number",
    [email],
  );
const subscriptionOf = async (email: string) =>
  (
    await selectFromServer<{ billing_status: string; access_end: string }>(
      database,
      "SELECT s.billing_status, s.access_end FROM subscription s JOIN app_user u ON u.id = s.user_id WHERE u.email = ?",
      [email],
    )
  )[0]!;
const mailsTo = (email: string) => {
  const dir = path.join(database.dataDir, "mail");
  return fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .map((f) => fs.readFileSync(path.join(dir, f), "utf8"))
        .filter((m) => m.includes(`To: ${email}`))
    : [];
};

describe("Stripe Billing through the built site", () => {
  // First: Stripe's test clock must not have been moved ahead of the site's time, which quotes by real time.
  it("upgrades from Subscription and billing: Stripe charges the amount the quote showed, to the cent, and the plan changes", async () => {
    const reader = await subscribe();
    expect((await billingPage(reader.cookie)).plan).toContain("Change plan");
    const quotePage = await fetch(`${server.url}/my-account/billing/plan?to=premium`, { headers: { Cookie: reader.cookie } });
    expect(quotePage.status).toBe(200);
    const $ = cheerio.load(await quotePage.text());
    expect($("h1").text()).toBe("Upgrade to Premium");
    const toPay = $("dt:contains('To pay today')").next().find("strong").text();
    const quotedAt = String($("input[name=quotedAt]").val());

    const confirmed = await post("/my-account/billing/plan", reader.cookie, { intent: "change", to: "premium", quotedAt });
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get("location")).toBe("/my-account/billing?updated=upgraded");
    const charged = [...fake.invoices.values()].find((i) => i.billing_reason === "subscription_update")!;
    expect(charged).toMatchObject({ status: "paid" });
    expect(`$${(charged.amount_paid / 100).toFixed(2)}`).toBe(toPay);

    const notice = await fetch(`${server.url}/my-account/billing?updated=upgraded`, { headers: { Cookie: reader.cookie } });
    expect(
      cheerio
        .load(await notice.text())("[role=status]")
        .text(),
    ).toContain("Your plan is now Premium.");
    expect((await billingPage(reader.cookie)).plan).toContain("Premium, $20.00 a month");
    expect(await invoicesOf(reader.email)).toMatchObject([{ kind: "purchase" }, { kind: "upgrade", payment_key: charged.id }]);
    expect(mailsTo(reader.email).filter((m) => m.includes("your subscription is now Premium"))).toHaveLength(1);

    // Stripe's events of the change follow its answer: they change nothing more.
    expect(new Set(await fake.deliver())).toEqual(new Set([200]));
    expect(await invoicesOf(reader.email)).toHaveLength(2);
    expect(mailsTo(reader.email).filter((m) => m.includes("your subscription is now Premium"))).toHaveLength(1);
    // Cancelled, so that it does not renew beside the next test's reader when Stripe's clock moves.
    expect((await post("/my-account/billing/cancel", reader.cookie, { reason: "" })).status).toBe(303);
  });

  it("renews a month on by Stripe's invoice.paid: once, however often the events come, and refuses a bad signature", async () => {
    const reader = await subscribe();
    const stripeSubscription = [...fake.subscriptions.values()].at(-1)!;
    expect((await billingPage(reader.cookie)).plan).toContain("Visa ending in 4242");
    expect((await billingPage(reader.cookie)).plan).toContain("Next renewal");
    const paidUntil = (await subscriptionOf(reader.email)).access_end;

    await advance(32);
    const invoices = await invoicesOf(reader.email);
    const renewal = [...fake.invoices.values()].find(
      (i) => i.billing_reason === "subscription_cycle" && i.parent.subscription_details.subscription === stripeSubscription.id,
    )!;
    expect(invoices).toMatchObject([{ kind: "purchase" }, { kind: "renewal", payment_key: renewal.id, number: invoices[0]!.number + 1 }]);
    expect((await subscriptionOf(reader.email)).access_end > paidUntil).toBe(true);
    expect((await billingPage(reader.cookie)).invoices).toHaveLength(2);
    expect(mailsTo(reader.email).filter((m) => m.includes("has renewed"))).toHaveLength(1);

    expect(new Set(await fake.deliver(...fake.events.map((e) => e.id)))).toEqual(new Set([200]));
    expect(await invoicesOf(reader.email)).toHaveLength(2);
    expect(mailsTo(reader.email).filter((m) => m.includes("has renewed"))).toHaveLength(1);

    const body = JSON.stringify(fake.events.find((e) => e.type === "invoice.paid"));
    const forged = await fetch(`${server.url}/api/payments/webhook`, {
      method: "POST",
      body,
      headers: { "Content-Type": "application/json", "Stripe-Signature": stripeSignature(body, "whsec_someoneElse") },
    });
    expect(forged.status).toBe(400);
  });

  it("cancels from Subscription and billing through Stripe, and Stripe's events end the plan at the period's end", async () => {
    const reader = await subscribe();
    const stripeSubscription = [...fake.subscriptions.values()].at(-1)!;
    const cancelled = await post("/my-account/billing/cancel", reader.cookie, { reason: "" });
    expect(cancelled.status).toBe(303);
    expect(stripeSubscription.cancel_at_period_end).toBe(true);
    expect(new Set(await fake.deliver())).toEqual(new Set([200]));
    expect((await billingPage(reader.cookie)).plan).toContain("Cancelled: ends on");
    expect(mailsTo(reader.email).filter((m) => m.includes("has been cancelled"))).toHaveLength(1);

    await advance(32);
    expect((await subscriptionOf(reader.email)).billing_status).toBe("ended");
    expect(mailsTo(reader.email).filter((m) => m.includes("has ended"))).toHaveLength(1);
    expect((await invoicesOf(reader.email)).map((i) => i.kind)).toEqual(["purchase"]);
  });
  it("taxes through Stripe's tax rate for the billing address, and a new address from Subscription and billing sets the next", async () => {
    const reader = await subscribe(TEST_CARDS.succeeds, { countryCode: "US", region: "NY" });
    const stripeSubscription = [...fake.subscriptions.values()].at(-1)!;
    expect(stripeSubscription.default_tax_rates).toMatchObject([{ percentage: 4, state: "NY" }]);
    expect((await billingPage(reader.cookie)).plan).toContain("$12.48 ($12.00 + Tax (NY 4%) $0.48)");
    await advance(32);
    expect((await invoicesOf(reader.email)).map((i) => [i.kind, i.tax_cents])).toEqual([
      ["purchase", 48],
      ["renewal", 48],
    ]);

    const moved = await post("/my-account/billing", reader.cookie, { intent: "address", countryCode: "GB", region: "" });
    expect(moved.headers.get("location")).toBe("/my-account/billing?updated=address");
    expect(stripeSubscription.default_tax_rates).toEqual([]);
    await advance(31);
    expect((await invoicesOf(reader.email)).at(-1)).toMatchObject({ kind: "renewal", tax_cents: 0 });
  });

  // Last: it stops the loopback Stripe.
  it("tells the reader that nothing changed when Stripe cannot be reached, and changes nothing", async () => {
    const reader = await subscribe();
    const before = await subscriptionOf(reader.email);
    await fake.close();
    for (const [path, form] of [
      ["/my-account/billing/cancel", { reason: "" }],
      ["/my-account/billing/card", {}],
      ["/my-account/billing", { intent: "address", countryCode: "US", region: "NY" }],
    ] as const) {
      const res = await post(path, reader.cookie, form);
      expect(res.status, path).toBe(303);
      expect(res.headers.get("location"), path).toBe("/my-account/billing?updated=provider-unavailable");
    }
    const page = await fetch(`${server.url}/my-account/billing?updated=provider-unavailable`, { headers: { Cookie: reader.cookie } });
    expect(
      cheerio
        .load(await page.text())("[role=alert]")
        .text(),
    ).toContain("We could not reach our payment provider, so nothing has changed.");
    expect(await subscriptionOf(reader.email)).toEqual(before);
  });
});
