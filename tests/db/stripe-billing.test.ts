import fs from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import Stripe from "stripe";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { insertUser } from "~/server/accounts/users";
import { createMailer } from "~/server/adapters/mail";
import { changeBillingAddress } from "~/server/billing/address";
import { cancelAtPeriodEnd, resumeSubscription } from "~/server/billing/cancellation";
import { finishCardChange, startCardChange } from "~/server/billing/card-change";
import { changePlan, keepCurrentPlan, quotePlanChange, renewingPlanChoice, type PlanChangeQuote } from "~/server/billing/plan-change";
import { sendPendingReceipts, type BillingMail } from "~/server/billing/mail";
import { runRenewals } from "~/server/billing/renewals";
import { followBillingEvent, isBillingEvent } from "~/server/billing/stripe-events";
import type { Database } from "~/server/db/connection";
import { WebhookSignatureError, type PaymentProvider } from "~/server/payments/provider";
import { createSandboxProvider } from "~/server/payments/sandbox";
import { createStripeProvider, STRIPE_API_VERSION } from "~/server/payments/stripe";
import { handlePaymentEvent, issueCheckoutKey, planPrice, startCheckout } from "~/server/subscriptions/checkout";
import { subscriberStatus } from "~/server/subscriptions/entitlements";
import { findPlan } from "~/server/subscriptions/plans";
import type { BillingAddress } from "~/shared/billing-address";
import { startFakeStripe, TEST_CARDS, type FakeStripe } from "~/tests/helpers/fake-stripe";
import { dialectName, seededTestDatabase } from "~/tests/helpers/test-db";

// Stripe Billing renews; the site follows its signed webhooks (ADR 067). End to end against the
// loopback Stripe: subscribe in Checkout, move Stripe's test clock, and check what the reader
// gets (access, invoices, mails) when events arrive once, twice, or out of order.

const SECRET_KEY = "sk_test_51MeridianBillingLoopback00000";
const WEBHOOK_SECRET = "whsec_meridianBillingLoopback";
const SITE = "http://127.0.0.1:9";
const NOVEMBER = new Date("2026-11-15T12:00:00Z");
const DAY = 86_400;
/** A billing address where no sales tax is due: the figures of the tests that are not about tax. */
const UNTAXED = { countryCode: "GB", region: null };

let db: Database;
let close: () => Promise<void>;
let fake: FakeStripe;
let provider: PaymentProvider;
let stripe: Stripe;
let receiver: Server;
let outbox: string;
let mail: BillingMail;

/** The webhook endpoint as the route runs it: verify, apply once, mail; 400 for a bad signature. */
function startReceiver(): Promise<string> {
  receiver = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    try {
      const event = provider.parseWebhook(Buffer.concat(chunks).toString("utf8"), (req.headers["stripe-signature"] as string) ?? null);
      const now = fake.now();
      if (isBillingEvent(event)) await followBillingEvent(db, event, mail, now, 7);
      else {
        await handlePaymentEvent(db, event, now, provider);
        await sendPendingReceipts(db, mail, now);
      }
      res.writeHead(200).end();
    } catch (error) {
      res.writeHead(error instanceof WebhookSignatureError ? 400 : 500).end(String(error));
    }
  });
  return new Promise((resolve) =>
    receiver.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/payments/webhook`)),
  );
}

beforeEach(async () => {
  ({ db, close } = await seededTestDatabase());
  fake = await startFakeStripe(SECRET_KEY, { now: NOVEMBER });
  provider = createStripeProvider({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, apiUrl: fake.url });
  const url = new URL(fake.url);
  stripe = new Stripe(SECRET_KEY, { host: url.hostname, port: Number(url.port), protocol: "http", maxNetworkRetries: 0 });
  fake.webhookTo(await startReceiver(), WEBHOOK_SECRET);
  outbox = fs.mkdtempSync(path.join(os.tmpdir(), "stripe-billing-mail-"));
  mail = {
    mailer: createMailer({ from: "Meridian Review <no-reply@meridian-review.example>", outbox }),
    siteUrl: SITE,
    publisher: { name: "Meridian Review Publishing", addressLines: ["60 Harbor Street", "Boston, MA 02210"], taxId: null },
  };
});
afterEach(async () => {
  await new Promise((resolve) => receiver.close(resolve));
  await fake.close();
  await close();
  fs.rmSync(outbox, { recursive: true, force: true });
});

const mails = () =>
  fs
    .readdirSync(outbox)
    .sort()
    // Quoted-printable soft line breaks joined, so that a link reads whole.
    .map((f) => fs.readFileSync(path.join(outbox, f), "utf8").replace(/=\r?\n/g, ""));
const mailsWith = (text: string) => mails().filter((m) => m.includes(text));
const invoices = () => db.selectFrom("invoice").selectAll().orderBy("number").execute();
const subscriptionOf = (userId: string) =>
  db.selectFrom("subscription").selectAll().where("user_id", "=", userId).where("status", "=", "active").executeTakeFirstOrThrow();
const stripeSubscriptionOf = (id: string) => fake.subscriptions.get(id)!;

/** Moves Stripe's test clock on, as a test would in Stripe's dashboard or API; answers the events of what fell due. */
async function advance(days: number) {
  return advanceSeconds(days * DAY);
}

async function advanceSeconds(seconds: number) {
  const clock = await stripe.testHelpers.testClocks.retrieve(fake.clock);
  const from = fake.events.length;
  await stripe.testHelpers.testClocks.advance(fake.clock, { frozen_time: clock.frozen_time + seconds });
  return fake.events.slice(from);
}

/** Registers a reader (or takes `existing`) and subscribes through Stripe Checkout with `card`; all events delivered. */
async function subscribe(
  card: string = TEST_CARDS.succeeds,
  planId = "digital",
  existing?: { id: string; email: string },
  billing: BillingAddress = UNTAXED,
) {
  const user =
    existing ??
    (await insertUser(db, {
      firstName: "Iris",
      lastName: "Vale",
      email: `iris.${Math.random().toString(36).slice(2)}@example.org`,
      password: "Harbour7!lamp",
      optIn: false,
    }))!;
  const started = await startCheckout(
    db,
    provider,
    {
      userId: user.id,
      email: user.email,
      plan: findPlan(planId)!,
      abTag: "test",
      siteUrl: SITE,
      idempotencyKey: issueCheckoutKey(),
      renews: true,
      billing,
    },
    NOVEMBER,
  );
  if (!started.ok) throw new Error("checkout did not start");
  fake.pay(fake.sessionAt(started.url)!.id, card);
  expect(new Set(await fake.deliver())).toEqual(new Set([200]));
  return user;
}

describe(`Stripe Billing renews, the site follows its webhooks (${dialectName})`, () => {
  it("subscribes in Checkout's subscription mode, then renews a month on: period moved, next invoice number, receipt", async () => {
    const user = await subscribe();
    const creation = fake.requests.find((r) => r.path === "/v1/checkout/sessions" && r.method === "POST")!;
    expect(creation.form.get("mode")).toBe("subscription");
    expect(creation.stripeVersion).toBe(STRIPE_API_VERSION);
    const [price] = fake.prices.values();
    expect(price).toMatchObject({ lookup_key: "plan:digital:1200", unit_amount: 1200, recurring: { interval: "month" } });
    expect(creation.form.get("line_items[0][price]")).toBe(price!.id);

    const [stripeSubscription] = fake.subscriptions.values();
    const subscription = await subscriptionOf(user.id);
    expect(subscription).toMatchObject({
      billing_status: "active",
      provider_subscription_id: stripeSubscription!.id,
      provider_customer_id: stripeSubscription!.customer,
      card_brand: "Visa",
      card_last4: "4242",
      access_end: "2026-12-15T12:00:00.000Z",
    });
    expect(await invoices()).toMatchObject([{ kind: "purchase", amount_cents: 1200 }]);
    expect(mailsWith("Thank you for subscribing")).toHaveLength(1);

    const events = await advance(31);
    expect(events.map((e) => e.type)).toContain("invoice.paid");
    expect(new Set(await fake.deliver())).toEqual(new Set([200]));
    expect((await subscriptionOf(user.id)).access_end).toBe("2027-01-15T12:00:00.000Z");
    const [first, second] = await invoices();
    const renewal = [...fake.invoices.values()].find((i) => i.billing_reason === "subscription_cycle")!;
    expect(second).toMatchObject({
      number: first!.number + 1,
      kind: "renewal",
      payment_key: renewal.id,
      amount_cents: 1200,
      period_start: "2026-12-15T12:00:00.000Z",
      period_end: "2027-01-15T12:00:00.000Z",
      card_last4: "4242",
    });
    const receipt = mailsWith("has renewed");
    expect(receipt).toHaveLength(1);
    expect(receipt[0]).toContain(`MR-${String(second!.number).padStart(6, "0")}`);
    expect(await subscriberStatus(db, user.id, new Date("2027-01-10T00:00:00Z"))).not.toBeNull();
  });

  it("sends an active plan's change to Subscription and billing; a past-due plan replaced by buying another stops renewing at Stripe", async () => {
    const active = await subscribe();
    expect(await renewingPlanChoice(db, active.id, "premium", NOVEMBER)).toBe("change");
    expect(await renewingPlanChoice(db, active.id, "digital", NOVEMBER)).toBe("same-plan");

    const user = await subscribe(TEST_CARDS.declinesLater);
    await advance(30);
    await fake.deliver();
    expect((await subscriptionOf(user.id)).billing_status).toBe("past_due");
    expect(await renewingPlanChoice(db, user.id, "premium", fake.now())).toBeNull();
    await subscribe(TEST_CARDS.succeeds, "premium", user);
    const replaced = stripeSubscriptionOf(
      (
        await db
          .selectFrom("subscription")
          .selectAll()
          .where("user_id", "=", user.id)
          .where("plan_id", "=", "digital")
          .executeTakeFirstOrThrow()
      ).provider_subscription_id!,
    );
    expect(replaced).toMatchObject({ status: "canceled" });
    const rows = await db.selectFrom("subscription").selectAll().where("user_id", "=", user.id).orderBy("created_at").execute();
    expect(rows.map((r) => [r.plan_id, r.status, r.billing_status])).toEqual(
      expect.arrayContaining([
        ["digital", "cancelled", "ended"],
        ["premium", "active", "active"],
      ]),
    );
    await advance(31);
    await fake.deliver();
    const renewals = (await invoices()).filter((i) => i.kind === "renewal" && i.user_id === user.id);
    expect(renewals.map((i) => i.plan_id)).toEqual(["premium"]);
  });

  it("keeps the site's own renewal run from charging a subscription Stripe renews", async () => {
    const user = await subscribe();
    const sandbox = createSandboxProvider(db, { siteUrl: SITE, webhookSecret: "sandbox-webhook-secret-for-stripe-tests" });
    await sandbox.advanceClock(62 * DAY);
    expect(await runRenewals(db, sandbox.billing, mail, NOVEMBER, 7)).toMatchObject({ renewed: 0, declined: 0, ended: 0 });
    expect((await subscriptionOf(user.id)).access_end).toBe("2026-12-15T12:00:00.000Z");
  });

  it("0341: the renewal fails, past due with a mail for each failed attempt, then Stripe ends it and the reader meets the wall", async () => {
    const user = await subscribe(TEST_CARDS.declinesLater);
    expect((await subscriptionOf(user.id)).card_last4).toBe("0341");

    // To the period's end, when Stripe tries the renewal.
    await advance(30);
    expect(new Set(await fake.deliver())).toEqual(new Set([200]));
    expect(await subscriptionOf(user.id)).toMatchObject({
      billing_status: "past_due",
      access_end: "2026-12-15T12:00:00.000Z",
    });
    const pastDueSince = (await subscriptionOf(user.id)).past_due_since;
    expect(pastDueSince).not.toBeNull();
    const notices = mailsWith("Subject: Your Meridian Review payment did not go through");
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain(`${SITE}/my-account`);

    // Stripe's first retry, a day later, fails too: one more mail; past due since the first failure.
    await advance(1);
    await fake.deliver();
    expect(mailsWith("payment did not go through")).toHaveLength(2);
    expect((await subscriptionOf(user.id)).past_due_since).toBe(pastDueSince);

    // The last retry fails and Stripe cancels the subscription: ended, mailed once, walled.
    const events = await advance(5);
    expect(events.map((e) => e.type)).toContain("customer.subscription.deleted");
    await fake.deliver();
    expect(await subscriptionOf(user.id)).toMatchObject({ billing_status: "ended", access_end: "2026-12-15T12:00:00.000Z" });
    expect(mailsWith("has ended")).toHaveLength(1);
    expect(mailsWith("has ended")[0]).toContain("we could not take its renewal");
    expect(await subscriberStatus(db, user.id, fake.now())).toBeNull();
    expect(await invoices()).toHaveLength(1);
  });

  it("changes nothing twice when every event is delivered again", async () => {
    const user = await subscribe();
    await advance(31);
    await fake.deliver();
    const before = { subscription: await subscriptionOf(user.id), invoices: await invoices(), mails: mails().length };

    const statuses = await fake.deliver(...fake.events.map((e) => e.id));
    expect(new Set(statuses)).toEqual(new Set([200]));
    expect(await subscriptionOf(user.id)).toEqual(before.subscription);
    expect(await invoices()).toEqual(before.invoices);
    expect(mails()).toHaveLength(before.mails);
  });

  it("applies once when the same events arrive twice at the same moment", async () => {
    const user = await subscribe();
    const renewal = await advance(31);
    const ids = renewal.map((e) => e.id);
    await Promise.all([fake.deliver(...ids), fake.deliver(...ids)]);
    expect((await subscriptionOf(user.id)).access_end).toBe("2027-01-15T12:00:00.000Z");
    expect((await invoices()).filter((i) => i.kind === "renewal")).toHaveLength(1);
    expect(mailsWith("has renewed")).toHaveLength(1);
  });

  it("ends in the same state whatever order the events arrive in, and an older period paid late moves nothing back", async () => {
    const user = await subscribe();
    const first = await advance(31);
    const second = await advance(31);
    // Newest first: the second renewal's events (subscription.updated before its invoice.paid),
    // then the first's.
    await fake.deliver(...[...first, ...second].reverse().map((e) => e.id));
    expect((await subscriptionOf(user.id)).access_end).toBe("2027-02-15T12:00:00.000Z");
    expect((await subscriptionOf(user.id)).billing_status).toBe("active");
    const renewals = (await invoices()).filter((i) => i.kind === "renewal");
    expect(renewals.map((i) => i.period_end)).toEqual(["2027-02-15T12:00:00.000Z", "2027-01-15T12:00:00.000Z"]);
    expect(mailsWith("has renewed")).toHaveLength(2);
  });

  it("a failure for a period already paid, or a recovery older than a later failure, changes nothing wrongly", async () => {
    const user = await subscribe(TEST_CARDS.declinesLater);
    const failed = await advance(30);
    // The card is replaced through a setup checkout, and the next retry pays.
    const setup = fake.sessionAt((await startCardChange(db, provider, { userId: user.id, email: user.email }, SITE))!.url)!;
    expect(setup).toMatchObject({ mode: "setup", customer: [...fake.subscriptions.values()][0]!.customer });
    expect(await finishCardChange(db, provider, setup.id, user.id, NOVEMBER, 7)).toBe("unknown");
    fake.pay(setup.id, TEST_CARDS.succeeds);
    const from = fake.events.length;
    expect(await finishCardChange(db, provider, setup.id, user.id, NOVEMBER, 7)).toBe("paid");
    // Setting the card told of the subscription as it was then (past due, which the held-back
    // failure events would have said first); the recovery is the payment and the update after it.
    const recovered = fake.events
      .slice(from)
      .filter((e) => e.type !== "customer.subscription.updated" || e.data.object.status === "active");
    expect(recovered.map((e) => e.type)).toContain("invoice.paid");
    expect(await subscriptionOf(user.id)).toMatchObject({ card_brand: "Visa", card_last4: "4242" });
    expect([...fake.subscriptions.values()][0]!.default_payment_method).toBe((await subscriptionOf(user.id)).payment_method_id);

    // The recovery arrives first, the failure it recovered from after it.
    await fake.deliver(...recovered.map((e) => e.id));
    await fake.deliver(...failed.map((e) => e.id));
    expect(await subscriptionOf(user.id)).toMatchObject({ billing_status: "active", access_end: "2027-01-15T12:00:00.000Z" });
    expect(mailsWith("payment did not go through")).toHaveLength(0);
  });

  it("changes no card from another reader's setup session, and a past-due plan's new card pays its invoice at once", async () => {
    const owner = await subscribe(TEST_CARDS.declinesLater);
    const other = await subscribe();
    const othersSession = fake.sessionAt((await startCardChange(db, provider, { userId: other.id, email: other.email }, SITE))!.url)!;
    fake.pay(othersSession.id, "5555555555554444");
    expect(await finishCardChange(db, provider, othersSession.id, owner.id, NOVEMBER, 7)).toBe("unknown");
    expect((await subscriptionOf(owner.id)).card_last4).toBe("0341");

    await advance(30);
    await fake.deliver();
    expect((await subscriptionOf(owner.id)).billing_status).toBe("past_due");
    const setup = fake.sessionAt((await startCardChange(db, provider, { userId: owner.id, email: owner.email }, SITE))!.url)!;
    fake.pay(setup.id, TEST_CARDS.succeeds);
    expect(await finishCardChange(db, provider, setup.id, owner.id, NOVEMBER, 7)).toBe("paid");
    expect(await finishCardChange(db, provider, setup.id, null, NOVEMBER, 7)).toBe("paid");
    await fake.deliver();
    expect(await subscriptionOf(owner.id)).toMatchObject({
      billing_status: "active",
      card_last4: "4242",
      access_end: "2027-01-15T12:00:00.000Z",
    });
    expect((await invoices()).filter((i) => i.kind === "renewal" && i.user_id === owner.id)).toHaveLength(1);
  });

  it("answers a bad signature with an error and applies nothing", async () => {
    const user = await subscribe();
    await advance(31);
    fake.webhookTo(receiverUrl(), "whsec_someoneElse");
    expect(new Set(await fake.deliver())).toEqual(new Set([400]));
    expect((await subscriptionOf(user.id)).access_end).toBe("2026-12-15T12:00:00.000Z");
    expect(await invoices()).toHaveLength(1);
  });

  it("cancels at period end through Stripe: confirmed by its event without a second change, then ended at the period's end", async () => {
    const user = await subscribe();
    expect(await cancelAtPeriodEnd(db, user.id, "price", NOVEMBER, provider.subscriptions)).toBe("cancelled");
    const update = fake.requests.find((r) => r.method === "POST" && r.path.startsWith("/v1/subscriptions/"))!;
    expect(update.form.get("cancel_at_period_end")).toBe("true");
    expect(update.idempotencyKey).toMatch(/^cancel:sub_/);
    expect([...fake.subscriptions.values()][0]).toMatchObject({ cancel_at_period_end: true });
    const cancelledAt = (await subscriptionOf(user.id)).cancelled_at;

    await fake.deliver();
    expect(await subscriptionOf(user.id)).toMatchObject({
      billing_status: "cancel_at_period_end",
      cancel_reason: "price",
      cancelled_at: cancelledAt,
    });
    expect(mailsWith("has been cancelled")).toHaveLength(1);

    await advance(31);
    await fake.deliver();
    expect(await subscriptionOf(user.id)).toMatchObject({ billing_status: "ended", access_end: "2026-12-15T12:00:00.000Z" });
    expect(await invoices()).toHaveLength(1);
    expect(mailsWith("has ended")).toHaveLength(1);
  });

  it("resumes through Stripe, and the cancel's event arriving after the resume's changes nothing", async () => {
    const user = await subscribe();
    await cancelAtPeriodEnd(db, user.id, null, NOVEMBER, provider.subscriptions);
    const [cancelled] = fake.pending();
    expect(await resumeSubscription(db, user.id, NOVEMBER, provider.subscriptions)).toBe("resumed");
    const resumed = fake.pending().at(-1)!;
    expect(resumed.id).not.toBe(cancelled!.id);
    await fake.deliver(resumed.id, cancelled!.id);
    expect((await subscriptionOf(user.id)).billing_status).toBe("active");
    expect([...fake.subscriptions.values()][0]).toMatchObject({ cancel_at_period_end: false });
    await advance(31);
    await fake.deliver();
    expect((await subscriptionOf(user.id)).access_end).toBe("2027-01-15T12:00:00.000Z");
  });
});

describe(`plan changes on a plan Stripe renews, prorated by Stripe as quoted (${dialectName})`, () => {
  const PERIOD_END = "2026-12-15T12:00:00.000Z";
  const seconds = (iso: string) => Date.parse(iso) / 1000;

  /** The quote Subscription and billing shows now (Stripe's clock), on the period Stripe bills. */
  async function quote(userId: string, planId: string): Promise<PlanChangeQuote> {
    const quoted = await quotePlanChange(db, userId, planId, fake.now(), provider.subscriptions);
    if (typeof quoted === "string") throw new Error(`no quote: ${quoted}`);
    return quoted;
  }

  /** The reader confirms the quote a minute and a half after it was shown. */
  const confirm = (userId: string, quoted: PlanChangeQuote) =>
    changePlan(db, provider, userId, quoted.to.id, quoted.quotedAt, new Date(Date.parse(quoted.quotedAt) + 90_000));

  const stripeSubscriptionFor = async (userId: string) => stripeSubscriptionOf((await subscriptionOf(userId)).provider_subscription_id!);
  const planUpdates = (subscriptionId: string) =>
    fake.requests.filter((r) => r.method === "POST" && r.path === `/v1/subscriptions/${subscriptionId}` && r.form.has("items[0][id]"));
  const changeInvoices = () => [...fake.invoices.values()].filter((i) => i.billing_reason === "subscription_update");
  const priceId = (lookupKey: string) => [...fake.prices.values()].find((p) => p.lookup_key === lookupKey)!.id;
  const planOf = async (userId: string) => {
    const { plan_id, role_code, access_end, scheduled_plan_id, billing_status } = await subscriptionOf(userId);
    return { plan_id, role_code, access_end, scheduled_plan_id, billing_status };
  };

  it("upgrades at once, prorated to the second as of the quote: Stripe charges exactly the cents shown, once", async () => {
    const user = await subscribe();
    await advanceSeconds(9 * DAY + 13_577);
    const quoted = await quote(user.id, "premium");
    // Premium for the rest of the period less the unused part of Digital, each to the second and the cent.
    const unused = (Date.parse(PERIOD_END) - Date.parse(quoted.quotedAt)) / (30 * DAY * 1000);
    expect(quoted).toMatchObject({
      kind: "upgrade",
      newPlanCents: Math.round(2000 * unused),
      creditCents: Math.round(1200 * unused),
      amountCents: Math.round(2000 * unused) - Math.round(1200 * unused),
      periodEnd: PERIOD_END,
    });
    expect(await confirm(user.id, quoted)).toBe("upgraded");

    const stripeSubscription = await stripeSubscriptionFor(user.id);
    const [update] = planUpdates(stripeSubscription.id);
    expect(Object.fromEntries(update!.form)).toMatchObject({
      "items[0][id]": stripeSubscription.items.data[0]!.id,
      "items[0][price]": priceId("plan:premium:2000"),
      proration_behavior: "always_invoice",
      proration_date: String(seconds(quoted.quotedAt)),
      payment_behavior: "error_if_incomplete",
      "metadata[plan]": "premium",
    });
    expect(update!.form.has("billing_cycle_anchor[type]")).toBe(false);
    expect(update!.idempotencyKey).toBe(`upgrade:${stripeSubscription.id}:premium:${quoted.quotedAt}`);
    const [charged] = changeInvoices();
    expect(charged).toMatchObject({ status: "paid", amount_paid: quoted.amountCents });
    expect(charged!.lines.data.map((line) => line.amount)).toEqual([-quoted.creditCents, quoted.newPlanCents]);

    expect(await planOf(user.id)).toMatchObject({ plan_id: "premium", role_code: "MRSUB_BEST", access_end: PERIOD_END });
    expect((await invoices()).at(-1)).toMatchObject({
      kind: "upgrade",
      plan_id: "premium",
      amount_cents: quoted.amountCents,
      payment_key: charged!.id,
      period_start: quoted.quotedAt,
      period_end: PERIOD_END,
    });
    await sendPendingReceipts(db, mail, fake.now());
    expect(mailsWith("your subscription is now Premium")).toHaveLength(1);

    // Stripe's events of the change arrive after its answer, newest first: nothing changes again.
    const before = { plan: await planOf(user.id), invoices: await invoices(), mails: mails().length };
    expect(
      new Set(
        await fake.deliver(
          ...fake
            .pending()
            .reverse()
            .map((e) => e.id),
        ),
      ),
    ).toEqual(new Set([200]));
    await fake.deliver();
    expect(await planOf(user.id)).toEqual(before.plan);
    expect(await invoices()).toEqual(before.invoices);
    expect(mails()).toHaveLength(before.mails);

    await advance(21);
    await fake.deliver();
    expect((await invoices()).at(-1)).toMatchObject({ kind: "renewal", plan_id: "premium", amount_cents: 2000, period_start: PERIOD_END });
  });

  it("moves a monthly plan to a yearly one: a new year from now, at the year's price less the unused month, as quoted", async () => {
    const user = await subscribe();
    await advanceSeconds(12 * DAY + 7_201);
    const quoted = await quote(user.id, "executive");
    const yearOn = new Date(quoted.quotedAt);
    yearOn.setUTCFullYear(yearOn.getUTCFullYear() + 1);
    expect(quoted).toMatchObject({ kind: "upgrade", newPlanCents: 45000, periodEnd: yearOn.toISOString() });
    expect(await confirm(user.id, quoted)).toBe("upgraded");

    const stripeSubscription = await stripeSubscriptionFor(user.id);
    const [update] = planUpdates(stripeSubscription.id);
    expect(update!.form.get("billing_cycle_anchor[type]")).toBe("now");
    expect(update!.form.get("items[0][price]")).toBe(priceId("plan:executive:45000"));
    const [charged] = changeInvoices();
    expect(charged).toMatchObject({ status: "paid", amount_paid: quoted.amountCents });
    expect(charged!.lines.data.map((line) => line.amount)).toEqual([-quoted.creditCents, 45000]);
    expect(stripeSubscription.items.data[0]).toMatchObject({ current_period_end: seconds(quoted.periodEnd) });
    expect(await planOf(user.id)).toMatchObject({ plan_id: "executive", role_code: "MRSUB_EXECUTIVE", access_end: quoted.periodEnd });
    expect((await invoices()).at(-1)).toMatchObject({ kind: "upgrade", amount_cents: quoted.amountCents, period_end: quoted.periodEnd });

    // No more monthly renewals: the next charge is the yearly one, a year after the change.
    await advance(366);
    await fake.deliver();
    expect((await invoices()).map((i) => [i.kind, i.plan_id, i.amount_cents])).toEqual([
      ["purchase", "digital", 1200],
      ["upgrade", "executive", quoted.amountCents],
      ["renewal", "executive", 45000],
    ]);
  });

  it("downgrades at the renewal through a Stripe schedule: nothing charged now, the plan kept to the period's end, then the lower one", async () => {
    const user = await subscribe(TEST_CARDS.succeeds, "premium");
    await advance(10);
    const quoted = await quote(user.id, "digital");
    expect(quoted).toMatchObject({ kind: "downgrade", amountCents: 0, startsAt: PERIOD_END });
    const stripeInvoices = fake.invoices.size;
    expect(await confirm(user.id, quoted)).toBe("scheduled");

    const stripeSubscription = await stripeSubscriptionFor(user.id);
    const schedule = fake.schedules.get(stripeSubscription.schedule!)!;
    const lookupKey = (id: string) => fake.prices.get(id)!.lookup_key;
    expect(schedule.phases.map((p) => [lookupKey(p.items[0]!.price), p.start_date, p.end_date, p.metadata.plan])).toEqual([
      ["plan:premium:2000", seconds(NOVEMBER.toISOString()), seconds(PERIOD_END), "premium"],
      ["plan:digital:1200", seconds(PERIOD_END), seconds("2027-01-15T12:00:00.000Z"), "digital"],
    ]);
    expect(fake.invoices.size).toBe(stripeInvoices);
    await fake.deliver();
    expect(await planOf(user.id)).toMatchObject({ plan_id: "premium", scheduled_plan_id: "digital" });
    expect((await subscriberStatus(db, user.id, fake.now()))?.roleCodes).toEqual(["MRSUB_BEST"]);

    await advance(21);
    await fake.deliver();
    expect(await planOf(user.id)).toMatchObject({
      plan_id: "digital",
      role_code: "MRSUB_GOOD",
      scheduled_plan_id: null,
      access_end: "2027-01-15T12:00:00.000Z",
    });
    // A month later the schedule has let go, and the subscription renews at Digital by itself.
    await advance(31);
    await fake.deliver();
    expect(stripeSubscription.schedule).toBeNull();
    expect((await invoices()).map((i) => [i.kind, i.plan_id, i.amount_cents])).toEqual([
      ["purchase", "premium", 2000],
      ["renewal", "digital", 1200],
      ["renewal", "digital", 1200],
    ]);
  });

  it("runs a yearly plan downgraded to a monthly one to the end of its year, then renews it monthly", async () => {
    const user = await subscribe(TEST_CARDS.succeeds, "executive");
    await advance(100);
    const quoted = await quote(user.id, "premium");
    expect(quoted).toMatchObject({ kind: "downgrade", startsAt: "2027-11-15T12:00:00.000Z" });
    expect(await confirm(user.id, quoted)).toBe("scheduled");
    await advance(250);
    await fake.deliver();
    expect(await planOf(user.id)).toMatchObject({ plan_id: "executive", scheduled_plan_id: "premium" });
    await advance(20);
    await fake.deliver();
    expect(await planOf(user.id)).toMatchObject({ plan_id: "premium", scheduled_plan_id: null, access_end: "2027-12-15T12:00:00.000Z" });
    expect((await invoices()).map((i) => [i.kind, i.plan_id, i.amount_cents])).toEqual([
      ["purchase", "executive", 45000],
      ["renewal", "premium", 2000],
    ]);
  });

  it("keeps the plan: Stripe's schedule is released and the renewal charges the plan the reader has; a cancel releases one too", async () => {
    const user = await subscribe(TEST_CARDS.succeeds, "premium");
    await advance(5);
    expect(await confirm(user.id, await quote(user.id, "digital"))).toBe("scheduled");
    const stripeSubscription = await stripeSubscriptionFor(user.id);
    const first = stripeSubscription.schedule!;
    expect(await keepCurrentPlan(db, user.id, provider.subscriptions)).toBe(true);
    expect(fake.schedules.get(first)).toMatchObject({ status: "released" });
    expect(stripeSubscription.schedule).toBeNull();
    expect(await planOf(user.id)).toMatchObject({ plan_id: "premium", scheduled_plan_id: null });
    expect(await keepCurrentPlan(db, user.id, provider.subscriptions)).toBe(false);

    // Chosen again (a new quote, so new keys): a new schedule. Stripe refuses to cancel a
    // subscription a schedule manages, so cancelling releases it first.
    await advance(1);
    expect(await confirm(user.id, await quote(user.id, "digital-print"))).toBe("scheduled");
    expect(stripeSubscription.schedule).not.toBeNull();
    expect(stripeSubscription.schedule).not.toBe(first);
    expect(await cancelAtPeriodEnd(db, user.id, null, fake.now(), provider.subscriptions)).toBe("cancelled");
    expect(stripeSubscription).toMatchObject({ schedule: null, cancel_at_period_end: true });
    expect(await planOf(user.id)).toMatchObject({ billing_status: "cancel_at_period_end", scheduled_plan_id: null });
    expect(await resumeSubscription(db, user.id, fake.now(), provider.subscriptions)).toBe("resumed");

    await advance(31);
    await fake.deliver();
    expect(await planOf(user.id)).toMatchObject({ plan_id: "premium", billing_status: "active", access_end: "2027-01-15T12:00:00.000Z" });
    expect((await invoices()).at(-1)).toMatchObject({ kind: "renewal", plan_id: "premium", amount_cents: 2000 });
  });

  it("applies changes whose answers were lost from their invoice.paid, once, whatever the order and however often the events come", async () => {
    const user = await subscribe();
    const stripeSubscription = await stripeSubscriptionFor(user.id);
    const from = fake.events.length;
    // Two upgrades Stripe made and charged whose answers never reached the site (it stopped meanwhile).
    for (const [planId, after] of [
      ["digital-print", 3 * DAY],
      ["premium", 2 * DAY + 4_000],
    ] as const) {
      await advanceSeconds(after);
      await provider.subscriptions!.changePlanNow({
        subscriptionId: stripeSubscription.id,
        current: await provider.subscriptions!.retrievePlan(stripeSubscription.id),
        to: planPrice(findPlan(planId)!),
        prorationDate: fake.now(),
        newPeriod: false,
        idempotencyKey: `upgrade:${stripeSubscription.id}:${planId}:${fake.now().toISOString()}`,
      });
    }
    const changes = fake.events.slice(from);
    expect(new Set(await fake.deliver(...[...changes].reverse().map((e) => e.id)))).toEqual(new Set([200]));
    expect(await planOf(user.id)).toMatchObject({ plan_id: "premium", role_code: "MRSUB_BEST", access_end: PERIOD_END });
    const charged = changeInvoices();
    expect((await invoices()).filter((i) => i.kind === "upgrade").map((i) => [i.plan_id, i.payment_key, i.amount_cents])).toEqual(
      expect.arrayContaining(charged.map((c) => [c.parent.subscription_details.metadata.plan, c.id, c.amount_paid])),
    );
    expect((await invoices()).filter((i) => i.kind === "upgrade")).toHaveLength(2);

    const before = { plan: await planOf(user.id), invoices: await invoices() };
    await fake.deliver(...changes.map((e) => e.id));
    await fake.deliver(...[...changes].reverse().map((e) => e.id));
    expect(await planOf(user.id)).toEqual(before.plan);
    expect(await invoices()).toEqual(before.invoices);

    await advance(30);
    await fake.deliver(...[...fake.events].reverse().map((e) => e.id));
    expect(await planOf(user.id)).toMatchObject({ plan_id: "premium", access_end: "2027-01-15T12:00:00.000Z" });
    expect((await invoices()).map((i) => [i.kind, i.plan_id])).toEqual([
      ["purchase", "digital"],
      ...before.invoices.slice(1).map((i) => [i.kind, i.plan_id]),
      ["renewal", "premium"],
    ]);
    await sendPendingReceipts(db, mail, fake.now());
    expect(mailsWith("Subject: Your Meridian Review receipt")).toHaveLength(4);
  });

  it("leaves the reader on their plan when the card declines the upgrade: Stripe makes no change, and its failure event changes nothing", async () => {
    const user = await subscribe(TEST_CARDS.declinesLater);
    await advance(4);
    expect(await confirm(user.id, await quote(user.id, "premium"))).toBe("declined");
    const stripeSubscription = await stripeSubscriptionFor(user.id);
    expect(stripeSubscription.items.data[0]!.price.lookup_key).toBe("plan:digital:1200");
    expect(stripeSubscription.metadata.plan).toBe("digital");
    expect(changeInvoices().map((i) => i.status)).toEqual(["void"]);

    expect(fake.pending().map((e) => e.type)).toContain("invoice.payment_failed");
    expect(new Set(await fake.deliver())).toEqual(new Set([200]));
    expect(await planOf(user.id)).toMatchObject({ plan_id: "digital", billing_status: "active", access_end: PERIOD_END });
    expect((await invoices()).map((i) => i.kind)).toEqual(["purchase"]);
    expect(mailsWith("payment did not go through")).toHaveLength(0);
  });

  it("makes one change and one charge of a confirmation sent twice at once, and quotes again across a renewal", async () => {
    const user = await subscribe();
    await advance(6);
    const quoted = await quote(user.id, "premium");
    const outcomes = await Promise.all([confirm(user.id, quoted), confirm(user.id, quoted)]);
    expect(outcomes).toContain("upgraded");
    expect(outcomes.every((o) => o === "upgraded" || o === "unchanged")).toBe(true);
    const subscriptionId = (await stripeSubscriptionFor(user.id)).id;
    expect(new Set(planUpdates(subscriptionId).map((r) => r.idempotencyKey))).toEqual(
      new Set([`upgrade:${subscriptionId}:premium:${quoted.quotedAt}`]),
    );
    expect(changeInvoices()).toHaveLength(1);
    expect((await invoices()).filter((i) => i.kind === "upgrade")).toHaveLength(1);
    expect(await confirm(user.id, quoted)).toBe("unchanged");
    const asked = planUpdates(subscriptionId).length;

    // Quoted minutes before Stripe renewed the plan, confirmed after: the period has changed, so it is quoted again.
    await advanceSeconds(24 * DAY - 5 * 60);
    const late = await quote(user.id, "executive");
    await advanceSeconds(10 * 60);
    await fake.deliver();
    expect(await changePlan(db, provider, user.id, "executive", late.quotedAt, fake.now())).toBe("stale");
    expect(planUpdates(subscriptionId)).toHaveLength(asked);
  });
});

describe(`Stripe Billing taxes as the site does (${dialectName})`, () => {
  const NEW_YORK: BillingAddress = { countryCode: "US", region: "NY" };
  const taxRatesMade = () => fake.requests.filter((r) => r.method === "POST" && r.path === "/v1/tax_rates");

  it("taxes the purchase and each renewal through the subscription's default tax rate, made once for every reader billed there", async () => {
    const user = await subscribe(TEST_CARDS.succeeds, "digital", undefined, NEW_YORK);
    await subscribe(TEST_CARDS.succeeds, "digital", undefined, NEW_YORK);
    expect(taxRatesMade()).toHaveLength(1);
    const [rate] = fake.taxRates.values();
    expect(rate).toMatchObject({ percentage: 4, inclusive: false, country: "US", state: "NY" });
    const [stripeSubscription] = fake.subscriptions.values();
    expect(stripeSubscription!.default_tax_rates.map((r) => r.id)).toEqual([rate!.id]);
    // Stripe's first invoice and the site's own purchase invoice agree to the cent.
    const firstAtStripe = [...fake.invoices.values()][0]!;
    expect(firstAtStripe).toMatchObject({ subtotal: 1200, amount_paid: 1248 });
    expect((await invoices())[0]).toMatchObject({ kind: "purchase", amount_cents: 1200, tax_cents: 48, tax_rate_bp: 400 });

    await advance(31);
    expect(new Set(await fake.deliver())).toEqual(new Set([200]));
    const renewal = (await invoices()).find((i) => i.user_id === user.id && i.kind === "renewal");
    expect(renewal).toMatchObject({ amount_cents: 1200, tax_cents: 48, tax_rate_bp: 400, billing_country: "US", billing_region: "NY" });
    expect(mailsWith("has renewed").some((m) => m.includes("Tax (NY 4%): $0.48") && m.includes("Amount paid: $12.48"))).toBe(true);
  });

  it("charges a taxed upgrade the quoted tax to the cent: Stripe taxes each proration line, and so does the quote", async () => {
    // California's 7.25% on awkward prorated amounts: the tax of the difference and the difference of the taxes part by a cent.
    const user = await subscribe(TEST_CARDS.succeeds, "digital", undefined, { countryCode: "US", region: "CA" });
    await advanceSeconds(7 * DAY + 6_000);
    const quoted = await quotePlanChange(db, user.id, "premium", fake.now(), provider.subscriptions);
    if (typeof quoted === "string") throw new Error(quoted);
    const lineTax = (cents: number) => Math.round((cents * 725) / 10_000);
    expect(quoted.tax.cents).toBe(lineTax(quoted.newPlanCents) - lineTax(quoted.creditCents));
    expect(quoted.tax.cents).not.toBe(lineTax(quoted.amountCents));
    expect(await changePlan(db, provider, user.id, "premium", quoted.quotedAt, fake.now())).toBe("upgraded");
    const [charged] = [...fake.invoices.values()].filter((i) => i.billing_reason === "subscription_update");
    expect(charged).toMatchObject({ status: "paid", amount_paid: quoted.amountCents + quoted.tax.cents });
    expect((await invoices()).at(-1)).toMatchObject({
      kind: "upgrade",
      amount_cents: quoted.amountCents,
      tax_cents: quoted.tax.cents,
      tax_rate_bp: 725,
    });
  });

  it("sets the subscription's tax rate when the billing address changes: the next renewal only is taxed anew", async () => {
    const user = await subscribe();
    const [stripeSubscription] = fake.subscriptions.values();
    expect(stripeSubscription!.default_tax_rates).toEqual([]);
    expect(taxRatesMade()).toHaveLength(0);

    expect(await changeBillingAddress(db, user.id, { countryCode: "CA", region: "QC" }, NOVEMBER, provider.subscriptions)).toBe("changed");
    expect(stripeSubscription!.default_tax_rates).toMatchObject([{ percentage: 5, country: "CA" }]);
    expect((await invoices())[0]).toMatchObject({ kind: "purchase", tax_cents: 0 });
    await advance(31);
    await fake.deliver();
    expect((await invoices()).at(-1)).toMatchObject({ kind: "renewal", amount_cents: 1200, tax_cents: 60, tax_rate_bp: 500 });

    // Back to a place without tax: Stripe's rates are cleared, and the next renewal is untaxed.
    expect(await changeBillingAddress(db, user.id, UNTAXED, NOVEMBER, provider.subscriptions)).toBe("changed");
    expect(stripeSubscription!.default_tax_rates).toEqual([]);
    await advance(31);
    await fake.deliver();
    expect((await invoices()).at(-1)).toMatchObject({ kind: "renewal", tax_cents: 0, tax_rate_bp: 0, billing_country: "GB" });
  });

  it("changes no address when Stripe cannot be reached", async () => {
    const user = await subscribe();
    const unreachable = createStripeProvider({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, apiUrl: "http://127.0.0.1:9" });
    await expect(changeBillingAddress(db, user.id, NEW_YORK, NOVEMBER, unreachable.subscriptions)).rejects.toThrow(/^Stripe: /);
    expect(await subscriptionOf(user.id)).toMatchObject({ billing_country: "GB", billing_region: null });
  });
});

const receiverUrl = () => `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/payments/webhook`;
