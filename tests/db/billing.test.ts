import { beforeEach, describe, expect, it } from "vitest";
import { insertUser } from "~/server/accounts/users";
import { cancelAtPeriodEnd, resumeSubscription } from "~/server/billing/cancellation";
import { finishCardChange, startCardChange } from "~/server/billing/card-change";
import { MAIL_CLAIM_MS, sendSubscriptionNotices, type BillingMail } from "~/server/billing/mail";
import { billingOverview, isOwnInvoice } from "~/server/billing/overview";
import { changePlan, keepCurrentPlan, quotePlanChange, type PlanChangeQuote } from "~/server/billing/plan-change";
import { runRenewals, renewalKey } from "~/server/billing/renewals";
import type { Database } from "~/server/db/connection";
import { SANDBOX_CARDS, type SandboxProvider } from "~/server/payments/sandbox";
import { issueCheckoutKey, settleCheckout, startCheckout } from "~/server/subscriptions/checkout";
import { subscriberStatus } from "~/server/subscriptions/entitlements";
import { findPlan } from "~/server/subscriptions/plans";
import type { BillingAddress } from "~/shared/billing-address";
import { plainText } from "~/tests/helpers/smtp";
import { dialectName } from "~/tests/helpers/test-db";
import { SITE, NOVEMBER, DAY, UNTAXED, useSandboxBilling } from "~/tests/helpers/sandbox-billing";

// Subscribe through the sandbox, move its clock on and renew: each period charged and invoiced
// once, whatever runs at the same moment or is cut short (ADR 066).

let db: Database;
let sandbox: SandboxProvider;
let mail: BillingMail;
let mails: () => string[];
const world = useSandboxBilling({ publisherAddress: ["60 Harbor Street", "Boston, MA 02210"] });
beforeEach(() => ({ db, sandbox, mail, mails } = world));

/** A renewal run as the housekeeping makes it, with the default grace of 7 days. */
const renew = () => runRenewals(db, sandbox.billing, mail, NOVEMBER, 7);
const charges = () => db.selectFrom("sandbox_charge").selectAll().execute();
const invoices = () => db.selectFrom("invoice").selectAll().orderBy("number").execute();
const subscriptionOf = (userId: string) =>
  db.selectFrom("subscription").selectAll().where("user_id", "=", userId).executeTakeFirstOrThrow();

/** Registers a reader and buys the plan at the sandbox's page with `card`, as of NOVEMBER. */
async function subscribe(card: string = SANDBOX_CARDS.succeeds, planId = "digital", billing: BillingAddress = UNTAXED) {
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
    {
      userId: user.id,
      email: user.email,
      plan: findPlan(planId)!,
      abTag: "test",
      siteUrl: SITE,
      idempotencyKey: issueCheckoutKey(),
      billing,
    },
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
    const report = await renew();
    expect(report).toMatchObject({ renewed: 0, declined: 0, receipts: 1 });
    const [receipt] = mails();
    expect(receipt).toContain(`Subject: Your Meridian Review receipt MR-${String(invoice!.number).padStart(6, "0")}`);
    expect(receipt).toContain("Content-Type: application/pdf");
  });

  it("renews once when the clock moves 31 days, and a second run the same day changes nothing", async () => {
    const user = await subscribe();
    await renew();
    expect(await sandbox.advanceClock(31 * DAY)).toBe(31 * DAY);

    const report = await renew();
    expect(report).toMatchObject({ renewed: 1, declined: 0, receipts: 1 });
    expect(report.at.toISOString()).toBe("2026-12-16T12:00:00.000Z");
    expect((await subscriptionOf(user.id)).access_end).toBe("2027-01-15T12:00:00.000Z");
    const [first, second] = await invoices();
    expect(second).toMatchObject({ number: first!.number + 1, kind: "renewal", period_start: "2026-12-15T12:00:00.000Z" });
    expect(await charges()).toHaveLength(1);
    expect(mails()).toHaveLength(2);
    expect(mails()[1]).toContain("has renewed");

    expect(await renew()).toMatchObject({ renewed: 0, declined: 0, receipts: 0 });
    expect(await charges()).toHaveLength(1);
    expect(await invoices()).toHaveLength(2);
    expect(mails()).toHaveLength(2);
  });

  it("renews a yearly plan a year on, and a clock moved two months on renews a monthly plan twice", async () => {
    const yearly = await subscribe(SANDBOX_CARDS.succeeds, "executive");
    const monthly = await subscribe();
    await sandbox.advanceClock(62 * DAY);
    expect(await renew()).toMatchObject({ renewed: 2 });
    expect((await subscriptionOf(monthly.id)).access_end).toBe("2027-02-15T12:00:00.000Z");
    expect((await subscriptionOf(yearly.id)).access_end).toBe("2027-11-15T12:00:00.000Z");
    await sandbox.advanceClock(304 * DAY);
    await renew();
    expect((await subscriptionOf(yearly.id)).access_end).toBe("2028-11-15T12:00:00.000Z");
  });

  it("charges once when two runs renew at the same moment", async () => {
    const users = [await subscribe(), await subscribe(), await subscribe()];
    await sandbox.advanceClock(31 * DAY);
    const reports = await Promise.all([1, 2].map(renew));
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

  it("marks a renewal the 0341 card declines past due and mails once, with the page to change the card", async () => {
    const user = await subscribe(SANDBOX_CARDS.declinesLater);
    await renew();
    await sandbox.advanceClock(31 * DAY);
    expect(await renew()).toMatchObject({ renewed: 0, declined: 1, failureNotices: 1 });
    expect(await subscriptionOf(user.id)).toMatchObject({
      billing_status: "past_due",
      past_due_since: "2026-12-16T12:00:00.000Z",
      access_end: "2026-12-15T12:00:00.000Z",
    });
    expect(await charges()).toMatchObject([{ status: "declined" }]);
    expect(await invoices()).toHaveLength(1);
    const notice = mails().at(-1)!;
    expect(notice).toContain("Subject: Your Meridian Review payment did not go through");
    expect(plainText(notice)).toContain(`${SITE}/my-account/billing/card`);
    expect(await renew()).toMatchObject({ declined: 0, failureNotices: 0 });
    expect(mails()).toHaveLength(2);
  });

  it("charges once when a run is cut short after the charge and run again", async () => {
    const user = await subscribe();
    await renew();
    await sandbox.advanceClock(31 * DAY);
    // The run killed after the provider charged, before the period moved: only the charge happened.
    const before = await subscriptionOf(user.id);
    const key = renewalKey(before.id, before.access_end);
    const charged = await sandbox.billing.charge({ cardId: before.payment_method_id!, amountCents: 1200, idempotencyKey: key });
    expect(await renew()).toMatchObject({ renewed: 1, receipts: 1 });
    expect(await charges()).toEqual([expect.objectContaining({ id: charged.id, idempotency_key: key })]);
    expect((await invoices()).filter((i) => i.kind === "renewal")).toEqual([expect.objectContaining({ payment_key: key })]);
    // The run killed after the renewal committed, having claimed its receipt but not sent it:
    // the claim holds off other runs until it lapses, then the next run sends it.
    const renewedAt = await sandbox.billing.now(NOVEMBER);
    await db
      .updateTable("invoice")
      .set({ receipt_sent_at: null, receipt_claimed_until: new Date(renewedAt.getTime() + MAIL_CLAIM_MS).toISOString() })
      .where("payment_key", "=", key)
      .execute();
    const mailed = mails().length;
    expect(await renew()).toMatchObject({ renewed: 0, receipts: 0 });
    await sandbox.advanceClock(MAIL_CLAIM_MS / 1000);
    expect(await renew()).toMatchObject({ renewed: 0, receipts: 1 });
    expect(mails()).toHaveLength(mailed + 1);
    expect(await renew()).toMatchObject({ receipts: 0 });
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
    expect(await renew()).toMatchObject({ renewed: 0, ended: 1, subscriptionNotices: 1 });
    expect(await charges()).toHaveLength(0);
    expect(await invoices()).toHaveLength(1);
    expect(await subscriptionOf(user.id)).toMatchObject({ billing_status: "ended", access_end: "2026-12-15T12:00:00.000Z" });
    expect(mails().filter((m) => m.includes("has ended"))).toHaveLength(1);
    expect(await subscriberStatus(db, user.id, DECEMBER_16)).toBeNull();
    expect(await billingOverview(db, user.id, DECEMBER_16)).toMatchObject({ kind: "none", invoices: [{ amountCents: 1200 }] });

    expect(await renew()).toMatchObject({ ended: 0, subscriptionNotices: 0 });
    expect(await resumeSubscription(db, user.id, DECEMBER_16)).toBe("unchanged");
  });

  it("resumes before the end: the plan renews as before", async () => {
    const user = await subscribe();
    await cancelAtPeriodEnd(db, user.id, null, NOVEMBER);
    expect(await resumeSubscription(db, user.id, NOVEMBER)).toBe("resumed");
    expect(await subscriptionOf(user.id)).toMatchObject({ billing_status: "active", cancel_reason: null, cancelled_at: null });
    await sandbox.advanceClock(31 * DAY);
    expect(await renew()).toMatchObject({ renewed: 1, ended: 0, subscriptionNotices: 0 });
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
  const runToday = renew;

  it("reminds once within 7 days of the renewal, with the amount and its tax, the card and how to cancel; the next year again", async () => {
    await subscribe(SANDBOX_CARDS.succeeds, "executive", { countryCode: "US", region: "NY" });
    await sandbox.advanceClock(357 * DAY);
    expect(await runToday()).toMatchObject({ reminders: 0 });
    expect(reminders()).toHaveLength(0);

    await sandbox.advanceClock(2 * DAY);
    expect(await runToday()).toMatchObject({ renewed: 0, reminders: 1 });
    const [text] = reminders();
    expect(text).toContain("Subject: Your Meridian Review Executive subscription renews on November 15, 2027");
    expect(text).toContain("On that day we will charge $468.00 ($450.00 + Tax (NY 4%) $18.00) to your Visa card ending in 4242.");
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

  it("names the plan and price a change chosen for the next period will charge", async () => {
    const user = await subscribe(SANDBOX_CARDS.succeeds, "executive");
    await db.updateTable("subscription").set({ scheduled_plan_id: "digital" }).where("user_id", "=", user.id).execute();
    await sandbox.advanceClock(360 * DAY);
    expect(await runToday()).toMatchObject({ reminders: 1 });
    expect(reminders()[0]).toContain("renews for another month on November 15, 2027, as Digital, the plan you chose.");
    expect(reminders()[0]).toContain("we will charge $12.00 to your");
  });

  it("gives the claim back when the mail cannot be sent, and the next run sends it", async () => {
    const user = await subscribe(SANDBOX_CARDS.succeeds, "all-access");
    await runToday();
    await sandbox.advanceClock(360 * DAY);
    const failing: BillingMail = { ...mail, mailer: { send: () => Promise.reject(new Error("SMTP down")) } };
    await expect(runRenewals(db, sandbox.billing, failing, NOVEMBER, 7)).rejects.toThrow("SMTP down");
    expect((await subscriptionOf(user.id)).reminder_sent_for).toBeNull();
    expect(await runToday()).toMatchObject({ reminders: 1 });
    expect(reminders()[0]).toContain("$599.00");
  });
});

describe(`dunning: retries, grace and a new card (${dialectName})`, () => {
  const at = (iso: string) => new Date(iso);
  /** Moves the clock on and renews as of the new time. */
  const after = async (days: number) => {
    await sandbox.advanceClock(days * DAY);
    return renew();
  };
  const failureMails = () =>
    mails()
      .filter((m) => m.includes("Subject: Your Meridian Review payment did not go through"))
      .map(plainText);
  /** Puts `card` on file for the reader's plan through the sandbox's page, as the reader would. */
  async function changeCard(user: { id: string; email: string }, card: string, as: string | null = user.id) {
    const started = await startCardChange(db, sandbox, { userId: user.id, email: user.email }, SITE);
    const session = started!.url.split("/").at(-1)!;
    expect((await sandbox.payment(session))?.mode).toBe("setup");
    expect((await sandbox.pay(session, card, NOVEMBER)).ok).toBe(true);
    return { session, outcome: await finishCardChange(db, sandbox, session, as, NOVEMBER, 7) };
  }

  it("retries on days 1, 3 and 5 with a mail at each failure, keeps access through grace, then ends and walls", async () => {
    const user = await subscribe(SANDBOX_CARDS.declinesLater);
    await renew();
    expect(await after(31)).toMatchObject({ declined: 1, failureNotices: 1 });
    expect(await subscriptionOf(user.id)).toMatchObject({
      billing_status: "past_due",
      failed_attempts: 1,
      past_due_since: "2026-12-16T12:00:00.000Z",
      grace_end: "2026-12-23T12:00:00.000Z",
      next_retry_at: "2026-12-17T12:00:00.000Z",
    });
    expect(failureMails()[0]).toContain("We will try the card again on December 17, 2026");
    expect(failureMails()[0]).toContain(`${SITE}/my-account/billing/card`);
    expect(await subscriberStatus(db, user.id, at("2026-12-22T12:00:00Z"))).toMatchObject({ tier: { name: "Good" } });

    expect(await after(1)).toMatchObject({ declined: 1, failureNotices: 1, ended: 0 });
    expect((await subscriptionOf(user.id)).next_retry_at).toBe("2026-12-19T12:00:00.000Z");
    expect(await after(1)).toMatchObject({ declined: 0, failureNotices: 0 });
    expect(await after(1)).toMatchObject({ declined: 1, failureNotices: 1 });
    expect((await subscriptionOf(user.id)).next_retry_at).toBe("2026-12-21T12:00:00.000Z");
    expect(await after(2)).toMatchObject({ declined: 1, failureNotices: 1, ended: 0 });
    expect(await subscriptionOf(user.id)).toMatchObject({ failed_attempts: 4, next_retry_at: null });
    expect(failureMails()).toHaveLength(4);
    expect(failureMails()[3]).toContain("This was our last try. You keep full access until December 23, 2026");
    expect((await charges()).map((c) => c.status)).toEqual(["declined", "declined", "declined", "declined"]);
    expect(new Set((await charges()).map((c) => c.idempotency_key)).size).toBe(4);

    expect(await after(2)).toMatchObject({ declined: 0, ended: 1, subscriptionNotices: 1 });
    expect(await subscriptionOf(user.id)).toMatchObject({ billing_status: "ended" });
    expect(plainText(mails().find((m) => m.includes("has ended"))!)).toContain("we could not take its renewal payment");
    expect(await subscriberStatus(db, user.id, at("2026-12-23T12:00:01Z"))).toBeNull();
    expect(await after(10)).toMatchObject({ declined: 0, ended: 0, failureNotices: 0, subscriptionNotices: 0 });
    expect(await charges()).toHaveLength(4);
    expect(await invoices()).toHaveLength(1);
  });

  it("restores active when a retry goes through, from the period's own end", async () => {
    const user = await subscribe(SANDBOX_CARDS.declinesLater);
    await after(31);
    const { payment_method_id } = await subscriptionOf(user.id);
    // The card's bank accepts it again before the first retry.
    await db.updateTable("sandbox_payment_method").set({ declines_off_session: 0 }).where("id", "=", payment_method_id!).execute();
    expect(await after(1)).toMatchObject({ recovered: 1, declined: 0, receipts: 1 });
    expect(await subscriptionOf(user.id)).toMatchObject({
      billing_status: "active",
      access_end: "2027-01-15T12:00:00.000Z",
      failed_attempts: 0,
      past_due_since: null,
      grace_end: null,
      next_retry_at: null,
    });
    expect((await invoices()).at(-1)).toMatchObject({ kind: "renewal", period_start: "2026-12-15T12:00:00.000Z" });
    expect(await after(3)).toMatchObject({ declined: 0, recovered: 0, renewed: 0 });
  });

  it("charges a new card put on file during grace at once, once, and the plan is active again", async () => {
    const user = await subscribe(SANDBOX_CARDS.declinesLater);
    await after(31);
    const { session, outcome } = await changeCard(user, SANDBOX_CARDS.succeeds);
    expect(outcome).toBe("paid");
    // The provider's signed callback for the same session, after the reader's return: nothing more.
    expect(await finishCardChange(db, sandbox, session, null, NOVEMBER, 7)).toBe("paid");
    expect(await subscriptionOf(user.id)).toMatchObject({
      billing_status: "active",
      card_last4: "4242",
      access_end: "2027-01-15T12:00:00.000Z",
    });
    expect((await charges()).map((c) => c.status)).toEqual(["declined", "succeeded"]);
    expect((await invoices()).filter((i) => i.kind === "renewal")).toHaveLength(1);
    expect(await after(1)).toMatchObject({ declined: 0, recovered: 0, receipts: 1 });
  });

  it("keeps the new card on file when it too is declined, and the retries go on", async () => {
    const user = await subscribe(SANDBOX_CARDS.declinesLater);
    await after(31);
    const before = await subscriptionOf(user.id);
    expect((await changeCard(user, SANDBOX_CARDS.declinesLater)).outcome).toBe("declined");
    expect(await subscriptionOf(user.id)).toMatchObject({
      billing_status: "past_due",
      failed_attempts: 1,
      next_retry_at: before.next_retry_at,
    });
    expect((await subscriptionOf(user.id)).payment_method_id).not.toBe(before.payment_method_id);
  });

  it("changes an active plan's card for the next renewal, charging nothing now; a replayed older session changes nothing", async () => {
    const user = await subscribe();
    const first = await changeCard(user, SANDBOX_CARDS.declinesLater);
    expect(first.outcome).toBe("updated");
    expect((await changeCard(user, SANDBOX_CARDS.succeeds)).outcome).toBe("updated");
    const current = await subscriptionOf(user.id);
    expect(await finishCardChange(db, sandbox, first.session, user.id, NOVEMBER, 7)).toBe("updated");
    expect((await subscriptionOf(user.id)).payment_method_id).toBe(current.payment_method_id);
    expect(await charges()).toHaveLength(0);
    expect(await after(31)).toMatchObject({ renewed: 1 });
  });

  it("never puts a card on another reader's plan", async () => {
    const owner = await subscribe();
    const other = await subscribe();
    const { session } = await changeCard(owner, SANDBOX_CARDS.succeeds, owner.id);
    const before = await subscriptionOf(owner.id);
    expect(await finishCardChange(db, sandbox, session, other.id, NOVEMBER, 7)).toBe("unknown");
    expect(await startCardChange(db, sandbox, { userId: "no-such-reader", email: "x@example.org" }, SITE)).toBeNull();
    expect(await subscriptionOf(owner.id)).toEqual(before);
  });
});

describe(`changing plan (${dialectName})`, () => {
  /** The provider's time, 15 of the period's 30 days in: half of it is left. */
  const HALFWAY = new Date("2026-11-30T12:00:00Z");
  const halfway = () => sandbox.advanceClock(15 * DAY);

  it("upgrades at once for the rest of the period, charging exactly the quote, and renews at the new price", async () => {
    const user = await subscribe();
    await halfway();
    const quote = await quotePlanChange(db, user.id, "premium", HALFWAY);
    expect(quote).toMatchObject({
      kind: "upgrade",
      newPlanCents: 1000,
      creditCents: 600,
      amountCents: 400,
      periodEnd: "2026-12-15T12:00:00.000Z",
    });
    expect(await changePlan(db, sandbox, user.id, "premium", (quote as PlanChangeQuote).quotedAt, HALFWAY)).toBe("upgraded");
    expect(await charges()).toMatchObject([{ amount_cents: 400, status: "succeeded" }]);
    expect(await subscriptionOf(user.id)).toMatchObject({
      plan_id: "premium",
      role_code: "MRSUB_BEST",
      access_end: "2026-12-15T12:00:00.000Z",
    });
    expect((await invoices()).at(-1)).toMatchObject({
      kind: "upgrade",
      plan_id: "premium",
      amount_cents: 400,
      period_start: HALFWAY.toISOString(),
    });
    expect(await subscriberStatus(db, user.id, HALFWAY)).toMatchObject({ tier: { name: "Best" } });
    expect(await renew()).toMatchObject({ receipts: 2 });
    expect(plainText(mails().at(-1)!)).toContain("your subscription is now Premium");

    await sandbox.advanceClock(16 * DAY);
    expect(await renew()).toMatchObject({ renewed: 1 });
    expect((await charges()).at(-1)).toMatchObject({ amount_cents: 2000 });
  });

  it("moves a monthly plan to a yearly one now: the year's price less the unused month, and a year from today", async () => {
    const user = await subscribe();
    await halfway();
    const quote = (await quotePlanChange(db, user.id, "executive", HALFWAY)) as PlanChangeQuote;
    expect(quote).toMatchObject({
      kind: "upgrade",
      newPlanCents: 45000,
      creditCents: 600,
      amountCents: 44400,
      periodEnd: "2027-11-30T12:00:00.000Z",
    });
    expect(await changePlan(db, sandbox, user.id, "executive", quote.quotedAt, HALFWAY)).toBe("upgraded");
    expect(await subscriptionOf(user.id)).toMatchObject({ plan_id: "executive", access_end: "2027-11-30T12:00:00.000Z" });
    expect(await charges()).toMatchObject([{ amount_cents: 44400 }]);
  });

  it("downgrades at the next renewal, which charges the new plan; the downgrade can be taken back", async () => {
    const user = await subscribe(SANDBOX_CARDS.succeeds, "premium");
    const quote = (await quotePlanChange(db, user.id, "digital", NOVEMBER)) as PlanChangeQuote;
    expect(quote).toMatchObject({ kind: "downgrade", amountCents: 0, startsAt: "2026-12-15T12:00:00.000Z" });
    expect(await changePlan(db, sandbox, user.id, "digital", quote.quotedAt, NOVEMBER)).toBe("scheduled");
    expect(await subscriptionOf(user.id)).toMatchObject({ plan_id: "premium", scheduled_plan_id: "digital" });
    expect(await subscriberStatus(db, user.id, NOVEMBER)).toMatchObject({ tier: { name: "Best" } });
    expect(await keepCurrentPlan(db, user.id)).toBe(true);
    expect(await changePlan(db, sandbox, user.id, "digital", quote.quotedAt, NOVEMBER)).toBe("scheduled");
    expect(await charges()).toHaveLength(0);

    await sandbox.advanceClock(31 * DAY);
    expect(await renew()).toMatchObject({ renewed: 1 });
    expect(await charges()).toMatchObject([{ amount_cents: 1200 }]);
    expect(await subscriptionOf(user.id)).toMatchObject({ plan_id: "digital", role_code: "MRSUB_GOOD", scheduled_plan_id: null });
  });

  it("charges once for a double submit, refuses a stale or future quote, and leaves the plan when the card declines", async () => {
    const user = await subscribe();
    await halfway();
    const { quotedAt } = (await quotePlanChange(db, user.id, "premium", HALFWAY)) as PlanChangeQuote;
    const hourAndMore = new Date(HALFWAY.getTime() + 3_601_000);
    expect(await changePlan(db, sandbox, user.id, "premium", quotedAt, hourAndMore)).toBe("stale");
    expect(await changePlan(db, sandbox, user.id, "premium", "2026-12-01T00:00:00.000Z", HALFWAY)).toBe("stale");
    expect(await changePlan(db, sandbox, user.id, "premium", "not a date", HALFWAY)).toBe("stale");
    const twice = await Promise.all([1, 2].map(() => changePlan(db, sandbox, user.id, "premium", quotedAt, HALFWAY)));
    expect(twice.sort()).toEqual(["unchanged", "upgraded"]);
    expect(await charges()).toHaveLength(1);
    expect((await invoices()).filter((i) => i.kind === "upgrade")).toHaveLength(1);

    const declining = await subscribe(SANDBOX_CARDS.declinesLater);
    const quote = (await quotePlanChange(db, declining.id, "premium", HALFWAY)) as PlanChangeQuote;
    expect(await changePlan(db, sandbox, declining.id, "premium", quote.quotedAt, HALFWAY)).toBe("declined");
    expect(await subscriptionOf(declining.id)).toMatchObject({ plan_id: "digital", pending_change: null });
  });

  it("finishes an upgrade whose process stopped after the charge, charging nothing more", async () => {
    const user = await subscribe();
    await halfway();
    const before = await subscriptionOf(user.id);
    const key = `upgrade:${before.id}:premium:${HALFWAY.toISOString()}`;
    await db.updateTable("subscription").set({ pending_change: key }).where("id", "=", before.id).execute();
    await sandbox.billing.charge({ cardId: before.payment_method_id!, amountCents: 400, idempotencyKey: key });
    expect(await quotePlanChange(db, user.id, "all-access", HALFWAY)).toMatchObject({ kind: "upgrade" });
    expect(await changePlan(db, sandbox, user.id, "all-access", HALFWAY.toISOString(), HALFWAY)).toBe("unchanged");
    expect(await renew()).toMatchObject({ upgradesFinished: 1 });
    expect(await charges()).toHaveLength(1);
    expect(await subscriptionOf(user.id)).toMatchObject({ plan_id: "premium", pending_change: null });
    expect(await renew()).toMatchObject({ upgradesFinished: 0 });
  });

  it("quotes nothing without a renewing plan, for the same plan, or an unknown one", async () => {
    const user = await subscribe();
    expect(await quotePlanChange(db, user.id, "digital", NOVEMBER)).toBe("same-plan");
    expect(await quotePlanChange(db, user.id, "platinum", NOVEMBER)).toBe("unknown-plan");
    await cancelAtPeriodEnd(db, user.id, null, NOVEMBER);
    expect(await quotePlanChange(db, user.id, "premium", NOVEMBER)).toBe("no-renewing-plan");
  });
});
