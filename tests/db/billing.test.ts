import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { insertUser } from "~/server/accounts/users";
import { createMailer } from "~/server/adapters/mail";
import { cancelAtPeriodEnd, resumeSubscription } from "~/server/billing/cancellation";
import { sendSubscriptionNotices, type BillingMail } from "~/server/billing/mail";
import { billingOverview, isOwnInvoice } from "~/server/billing/overview";
import { runRenewals, renewalKey } from "~/server/billing/renewals";
import type { Database } from "~/server/db/connection";
import { createSandboxProvider, SANDBOX_CARDS, type SandboxProvider } from "~/server/payments/sandbox";
import { issueCheckoutKey, settleCheckout, startCheckout } from "~/server/subscriptions/checkout";
import { subscriberStatus } from "~/server/subscriptions/entitlements";
import { findPlan } from "~/server/subscriptions/plans";
import { dialectName, seededTestDatabase } from "~/tests/helpers/test-db";

// Subscribe through the sandbox, move its clock on and renew: each period charged and invoiced
// once, whatever runs at the same moment or is cut short (ADR 066).

const SITE = "http://127.0.0.1:9";
const NOVEMBER = new Date("2026-11-15T12:00:00Z");
const DAY = 86_400;

let db: Database;
let close: () => Promise<void>;
let sandbox: SandboxProvider;
let outbox: string;
let mail: BillingMail;
beforeEach(async () => {
  ({ db, close } = await seededTestDatabase());
  sandbox = createSandboxProvider(db, { siteUrl: SITE, webhookSecret: "sandbox-webhook-secret-for-billing-tests" });
  outbox = fs.mkdtempSync(path.join(os.tmpdir(), "billing-mail-"));
  mail = {
    mailer: createMailer({ from: "Meridian Review <no-reply@meridian-review.example>", outbox }),
    siteUrl: SITE,
    publisher: { name: "Meridian Review Publishing", addressLines: ["60 Harbor Street", "Boston, MA 02210"], taxId: null },
  };
});
afterEach(async () => {
  await close();
  fs.rmSync(outbox, { recursive: true, force: true });
});

const mails = () =>
  fs
    .readdirSync(outbox)
    .sort()
    .map((f) => fs.readFileSync(path.join(outbox, f), "utf8"));
const charges = () => db.selectFrom("sandbox_charge").selectAll().execute();
const invoices = () => db.selectFrom("invoice").selectAll().orderBy("number").execute();
const subscriptionOf = (userId: string) =>
  db.selectFrom("subscription").selectAll().where("user_id", "=", userId).executeTakeFirstOrThrow();

/** Registers a reader and buys the plan at the sandbox's page with `card`, as of NOVEMBER. */
async function subscribe(card: string = SANDBOX_CARDS.succeeds, planId = "digital") {
  const user = (await insertUser(db, {
    firstName: "Nora",
    lastName: "Quinn",
    email: `nora.${Math.random().toString(36).slice(2)}@example.org`,
    password: "Harbour7!lamp",
    optIn: false,
  }))!;
  const started = await startCheckout(
    db,
    sandbox,
    { userId: user.id, email: user.email, plan: findPlan(planId)!, abTag: "test", siteUrl: SITE, idempotencyKey: issueCheckoutKey() },
    NOVEMBER,
  );
  if (!started.ok) throw new Error("checkout did not start");
  expect((await sandbox.pay(started.url.split("/").at(-1)!, card, NOVEMBER)).ok).toBe(true);
  expect(await settleCheckout(db, sandbox, started.checkoutId, user.id, NOVEMBER)).toBe("activated");
  return user;
}

describe(`recurring billing through the sandbox (${dialectName})`, () => {
  it("saves the card at checkout, invoices the purchase and mails its receipt", async () => {
    const user = await subscribe();
    const subscription = await subscriptionOf(user.id);
    expect(subscription).toMatchObject({ plan_id: "digital", billing_status: "active", card_brand: "Visa", card_last4: "4242" });
    expect(subscription.access_end).toBe("2026-12-15T12:00:00.000Z");
    const [invoice] = await invoices();
    expect(invoice).toMatchObject({ kind: "purchase", amount_cents: 1200, tax_cents: 0, period_end: subscription.access_end });
    const report = await runRenewals(db, sandbox.billing, mail, NOVEMBER);
    expect(report).toMatchObject({ renewed: 0, declined: 0, receipts: 1 });
    const [receipt] = mails();
    expect(receipt).toContain(`Subject: Your Meridian Review receipt MR-${String(invoice!.number).padStart(6, "0")}`);
    expect(receipt).toContain("Content-Type: application/pdf");
  });

  it("renews once when the clock moves 31 days, and a second run the same day changes nothing", async () => {
    const user = await subscribe();
    await runRenewals(db, sandbox.billing, mail, NOVEMBER);
    expect(await sandbox.advanceClock(31 * DAY)).toBe(31 * DAY);

    const report = await runRenewals(db, sandbox.billing, mail, NOVEMBER);
    expect(report).toMatchObject({ renewed: 1, declined: 0, receipts: 1 });
    expect(report.at.toISOString()).toBe("2026-12-16T12:00:00.000Z");
    expect((await subscriptionOf(user.id)).access_end).toBe("2027-01-15T12:00:00.000Z");
    const [first, second] = await invoices();
    expect(second).toMatchObject({ number: first!.number + 1, kind: "renewal", period_start: "2026-12-15T12:00:00.000Z" });
    expect(await charges()).toHaveLength(1);
    expect(mails()).toHaveLength(2);
    expect(mails()[1]).toContain("has renewed");

    expect(await runRenewals(db, sandbox.billing, mail, NOVEMBER)).toMatchObject({ renewed: 0, declined: 0, receipts: 0 });
    expect(await charges()).toHaveLength(1);
    expect(await invoices()).toHaveLength(2);
    expect(mails()).toHaveLength(2);
  });

  it("renews a yearly plan a year on, and a clock moved two months on renews a monthly plan twice", async () => {
    const yearly = await subscribe(SANDBOX_CARDS.succeeds, "executive");
    const monthly = await subscribe();
    await sandbox.advanceClock(62 * DAY);
    expect(await runRenewals(db, sandbox.billing, mail, NOVEMBER)).toMatchObject({ renewed: 2 });
    expect((await subscriptionOf(monthly.id)).access_end).toBe("2027-02-15T12:00:00.000Z");
    expect((await subscriptionOf(yearly.id)).access_end).toBe("2027-11-15T12:00:00.000Z");
    await sandbox.advanceClock(304 * DAY);
    await runRenewals(db, sandbox.billing, mail, NOVEMBER);
    expect((await subscriptionOf(yearly.id)).access_end).toBe("2028-11-15T12:00:00.000Z");
  });

  it("charges once when two runs renew at the same moment", async () => {
    const users = [await subscribe(), await subscribe(), await subscribe()];
    await sandbox.advanceClock(31 * DAY);
    const reports = await Promise.all([1, 2].map(() => runRenewals(db, sandbox.billing, mail, NOVEMBER)));
    expect(reports[0]!.renewed + reports[1]!.renewed).toBe(3);
    expect(await charges()).toHaveLength(3);
    const renewals = (await invoices()).filter((i) => i.kind === "renewal");
    expect(renewals).toHaveLength(3);
    // One gapless sequence: the purchases' numbers, then the renewals', with nothing skipped.
    const numbers = (await invoices()).map((i) => i.number);
    expect(numbers).toEqual(numbers.map((_, i) => numbers[0]! + i));
    for (const user of users) expect((await subscriptionOf(user.id)).access_end).toBe("2027-01-15T12:00:00.000Z");
    expect(mails().filter((m) => m.includes("has renewed"))).toHaveLength(3);
  });

  it("marks a renewal the 0341 card declines past due and mails once, with the account page", async () => {
    const user = await subscribe(SANDBOX_CARDS.declinesLater);
    await runRenewals(db, sandbox.billing, mail, NOVEMBER);
    await sandbox.advanceClock(31 * DAY);
    expect(await runRenewals(db, sandbox.billing, mail, NOVEMBER)).toMatchObject({ renewed: 0, declined: 1, failureNotices: 1 });
    expect(await subscriptionOf(user.id)).toMatchObject({
      billing_status: "past_due",
      past_due_since: "2026-12-16T12:00:00.000Z",
      access_end: "2026-12-15T12:00:00.000Z",
    });
    expect(await charges()).toMatchObject([{ status: "declined" }]);
    expect(await invoices()).toHaveLength(1);
    const notice = mails().at(-1)!;
    expect(notice).toContain("Subject: Your Meridian Review payment did not go through");
    expect(notice).toContain(`${SITE}/my-account`);
    expect(await runRenewals(db, sandbox.billing, mail, NOVEMBER)).toMatchObject({ declined: 0, failureNotices: 0 });
    expect(mails()).toHaveLength(2);
  });

  it("charges once when a run is cut short after the charge and run again", async () => {
    const user = await subscribe();
    await runRenewals(db, sandbox.billing, mail, NOVEMBER);
    await sandbox.advanceClock(31 * DAY);
    // The run killed after the provider charged, before the period moved: only the charge happened.
    const before = await subscriptionOf(user.id);
    const key = renewalKey(before.id, before.access_end);
    const charged = await sandbox.billing.charge({ cardId: before.payment_method_id!, amountCents: 1200, idempotencyKey: key });
    expect(await runRenewals(db, sandbox.billing, mail, NOVEMBER)).toMatchObject({ renewed: 1, receipts: 1 });
    expect(await charges()).toEqual([expect.objectContaining({ id: charged.id, idempotency_key: key })]);
    expect((await invoices()).filter((i) => i.kind === "renewal")).toEqual([expect.objectContaining({ payment_key: key })]);
    // The run killed after the renewal committed, before its receipt went: the next run sends it.
    await db.updateTable("invoice").set({ receipt_sent_at: null }).where("payment_key", "=", key).execute();
    const mailed = mails().length;
    expect(await runRenewals(db, sandbox.billing, mail, NOVEMBER)).toMatchObject({ renewed: 0, receipts: 1 });
    expect(mails()).toHaveLength(mailed + 1);
    expect(await charges()).toHaveLength(1);
  });

  it("refuses an idempotency key reused for another charge", async () => {
    const user = await subscribe();
    const { payment_method_id } = await subscriptionOf(user.id);
    await sandbox.billing.charge({ cardId: payment_method_id!, amountCents: 1200, idempotencyKey: "k1" });
    await expect(sandbox.billing.charge({ cardId: payment_method_id!, amountCents: 999, idempotencyKey: "k1" })).rejects.toThrow(
      /used for another charge/,
    );
  });
});

describe(`cancel at period end and resume (${dialectName})`, () => {
  const DECEMBER_16 = new Date("2026-12-16T12:00:00Z");

  it("cancels: access to the period's end, no renewal charged, then ended with one mail each, and the meter again", async () => {
    const user = await subscribe();
    expect(await cancelAtPeriodEnd(db, user.id, "price", NOVEMBER)).toBe("cancelled");
    expect(await sendSubscriptionNotices(db, mail, NOVEMBER)).toBe(1);
    expect(mails().find((m) => m.includes("has been cancelled"))).toContain("December 15, 2026");
    expect(await subscriptionOf(user.id)).toMatchObject({ billing_status: "cancel_at_period_end", cancel_reason: "price" });
    expect(await subscriberStatus(db, user.id, new Date("2026-12-15T11:00:00Z"))).not.toBeNull();

    await sandbox.advanceClock(31 * DAY);
    expect(await runRenewals(db, sandbox.billing, mail, NOVEMBER)).toMatchObject({ renewed: 0, ended: 1, subscriptionNotices: 1 });
    expect(await charges()).toHaveLength(0);
    expect(await invoices()).toHaveLength(1);
    expect(await subscriptionOf(user.id)).toMatchObject({ billing_status: "ended", access_end: "2026-12-15T12:00:00.000Z" });
    expect(mails().filter((m) => m.includes("has ended"))).toHaveLength(1);
    expect(await subscriberStatus(db, user.id, DECEMBER_16)).toBeNull();
    expect(await billingOverview(db, user.id, DECEMBER_16)).toMatchObject({ kind: "none", invoices: [{ amountCents: 1200 }] });

    expect(await runRenewals(db, sandbox.billing, mail, NOVEMBER)).toMatchObject({ ended: 0, subscriptionNotices: 0 });
    expect(await resumeSubscription(db, user.id, DECEMBER_16)).toBe("unchanged");
  });

  it("resumes before the end: the plan renews as before", async () => {
    const user = await subscribe();
    await cancelAtPeriodEnd(db, user.id, null, NOVEMBER);
    expect(await resumeSubscription(db, user.id, NOVEMBER)).toBe("resumed");
    expect(await subscriptionOf(user.id)).toMatchObject({ billing_status: "active", cancel_reason: null, cancelled_at: null });
    await sandbox.advanceClock(31 * DAY);
    expect(await runRenewals(db, sandbox.billing, mail, NOVEMBER)).toMatchObject({ renewed: 1, ended: 0, subscriptionNotices: 0 });
    expect((await subscriptionOf(user.id)).access_end).toBe("2027-01-15T12:00:00.000Z");
    expect(await billingOverview(db, user.id, DECEMBER_16)).toMatchObject({
      kind: "web",
      billingStatus: "active",
      card: { brand: "Visa", last4: "4242" },
      invoices: [{ number: expect.stringMatching(/^MR-/) }, { number: expect.stringMatching(/^MR-/) }],
    });
  });

  it("changes nothing twice: a second cancel or resume, at once or replayed, and mails once", async () => {
    const user = await subscribe();
    const twice = await Promise.all([cancelAtPeriodEnd(db, user.id, "time", NOVEMBER), cancelAtPeriodEnd(db, user.id, "other", NOVEMBER)]);
    expect(twice.sort()).toEqual(["cancelled", "unchanged"]);
    await Promise.all([sendSubscriptionNotices(db, mail, NOVEMBER), sendSubscriptionNotices(db, mail, NOVEMBER)]);
    expect(mails().filter((m) => m.includes("has been cancelled"))).toHaveLength(1);
    const resumed = await Promise.all([resumeSubscription(db, user.id, NOVEMBER), resumeSubscription(db, user.id, NOVEMBER)]);
    expect(resumed.sort()).toEqual(["resumed", "unchanged"]);
    expect(await resumeSubscription(db, user.id, NOVEMBER)).toBe("unchanged");
  });

  it("never touches another reader's subscription or invoice", async () => {
    const owner = await subscribe();
    const other = await subscribe();
    const [ownersInvoice] = await db.selectFrom("invoice").select("id").where("user_id", "=", owner.id).execute();
    expect(await isOwnInvoice(db, other.id, ownersInvoice!.id)).toBe(false);
    expect(await isOwnInvoice(db, owner.id, ownersInvoice!.id)).toBe(true);

    expect(await cancelAtPeriodEnd(db, other.id, null, NOVEMBER)).toBe("cancelled");
    expect((await subscriptionOf(owner.id)).billing_status).toBe("active");
    await cancelAtPeriodEnd(db, owner.id, null, NOVEMBER);
    expect(await resumeSubscription(db, other.id, NOVEMBER)).toBe("resumed");
    expect((await subscriptionOf(owner.id)).billing_status).toBe("cancel_at_period_end");
  });

  it("shows a print subscription with its account number, and a reader without one as none", async () => {
    const reader = await subscribe();
    await db
      .updateTable("subscription")
      .set({ source: "print", reference: "print:PR-100234", billing_status: null })
      .where("user_id", "=", reader.id)
      .execute();
    expect(await billingOverview(db, reader.id, NOVEMBER)).toMatchObject({ kind: "print", accountNumber: "PR-100234" });
    expect(await cancelAtPeriodEnd(db, reader.id, null, NOVEMBER)).toBe("unchanged");
  });
});

describe(`the reminder before an annual renewal (${dialectName})`, () => {
  // Executive bought on NOVEMBER renews on November 15, 2027; 358 days on is 7 days before.
  // Headers unfolded, quoted-printable soft breaks and "=3D" undone.
  const reminders = () =>
    mails()
      .map((m) =>
        m
          .replace(/\r?\n[ \t]+/g, " ")
          .replace(/=\r?\n/g, "")
          .replace(/=3D/g, "="),
      )
      .filter((m) => /^Subject: Your Meridian Review .* subscription renews on /m.test(m));
  const runToday = () => runRenewals(db, sandbox.billing, mail, NOVEMBER);

  it("reminds once within 7 days of the renewal, with the amount, the card and how to cancel; the next year again", async () => {
    await subscribe(SANDBOX_CARDS.succeeds, "executive");
    await sandbox.advanceClock(357 * DAY);
    expect(await runToday()).toMatchObject({ reminders: 0 });
    expect(reminders()).toHaveLength(0);

    await sandbox.advanceClock(2 * DAY);
    expect(await runToday()).toMatchObject({ renewed: 0, reminders: 1 });
    const [text] = reminders();
    expect(text).toContain("Subject: Your Meridian Review Executive subscription renews on November 15, 2027");
    expect(text).toContain("On that day we will charge $450.00 to your Visa card ending in 4242.");
    expect(text).toContain(`cancel before November 15, 2027 on Subscription and billing: ${SITE}/my-account/billing/cancel`);
    expect(text).toContain("Meridian Review Publishing");

    expect(await runToday()).toMatchObject({ reminders: 0 });
    await Promise.all([runToday(), runToday()]);
    expect(reminders()).toHaveLength(1);

    // Renewed a week later: the new period's reminder comes a year on, once.
    await sandbox.advanceClock(7 * DAY);
    expect(await runToday()).toMatchObject({ renewed: 1, reminders: 0 });
    await sandbox.advanceClock(358 * DAY);
    expect(await runToday()).toMatchObject({ renewed: 0, reminders: 1 });
    expect(await runToday()).toMatchObject({ reminders: 0 });
    expect(reminders()).toHaveLength(2);
    expect(reminders()[1]).toContain("renews on November 15, 2028");
  });

  it("does not remind a monthly plan or a cancelled one", async () => {
    const monthly = await subscribe();
    const cancelled = await subscribe(SANDBOX_CARDS.succeeds, "all-access");
    expect(await cancelAtPeriodEnd(db, cancelled.id, null, NOVEMBER)).toBe("cancelled");
    await sandbox.advanceClock(25 * DAY);
    expect(await runToday()).toMatchObject({ reminders: 0 });
    await sandbox.advanceClock(334 * DAY);
    expect(await runToday()).toMatchObject({ reminders: 0 });
    expect(reminders()).toHaveLength(0);
    expect((await subscriptionOf(monthly.id)).reminder_sent_for).toBeNull();
    expect((await subscriptionOf(cancelled.id)).reminder_sent_for).toBeNull();
  });

  it("gives the claim back when the mail cannot be sent, and the next run sends it", async () => {
    const user = await subscribe(SANDBOX_CARDS.succeeds, "all-access");
    await runToday();
    await sandbox.advanceClock(360 * DAY);
    const failing: BillingMail = { ...mail, mailer: { send: () => Promise.reject(new Error("SMTP down")) } };
    await expect(runRenewals(db, sandbox.billing, failing, NOVEMBER)).rejects.toThrow("SMTP down");
    expect((await subscriptionOf(user.id)).reminder_sent_for).toBeNull();
    expect(await runToday()).toMatchObject({ reminders: 1 });
    expect(reminders()[0]).toContain("$599.00");
  });
});
