import { beforeEach, describe, expect, it } from "vitest";
import { insertUser, type User } from "~/server/accounts/users";
import { cancelAtPeriodEnd } from "~/server/billing/cancellation";
import type { BillingMail } from "~/server/billing/mail";
import { runRenewals } from "~/server/billing/renewals";
import type { Database } from "~/server/db/connection";
import { SANDBOX_CARDS, type SandboxProvider } from "~/server/payments/sandbox";
import { analyticsDataLayer, analyticsSubscriptions, layerQuota } from "~/server/readers/analytics";
import { readerById } from "~/server/readers/signed-in";
import { issueCheckoutKey, settleCheckout, startCheckout } from "~/server/subscriptions/checkout";
import { subscriberStatus } from "~/server/subscriptions/entitlements";
import { findPlan } from "~/server/subscriptions/plans";
import { dialectName } from "~/tests/helpers/test-db";
import { SITE, NOVEMBER, DAY, UNTAXED, useSandboxBilling } from "~/tests/helpers/sandbox-billing";

// What the analytics data layer (and, from the same function, the service API's profile) tells of
// a reader's subscriptions as they renew, lapse into past due, are cancelled or replaced (issue
// 37): the status, the renewals paid, the latest payment and the current period.

let db: Database;
let sandbox: SandboxProvider;
let mail: BillingMail;
const world = useSandboxBilling();
beforeEach(() => ({ db, sandbox, mail } = world));

/** A renewal run as the housekeeping makes it (grace of 7 days), after moving the sandbox's clock on. */
async function renewAfter(days: number) {
  await sandbox.advanceClock(days * DAY);
  return runRenewals(db, sandbox.billing, mail, NOVEMBER, 7);
}
/** The provider's time now: what the site's clock will read when that day comes. */
const providerNow = () => sandbox.billing.now(NOVEMBER);
/** The reader as a request reads them (ADR 095), checked against the subscriber status read on its own. */
async function readerAt(user: User, now: Date) {
  const reader = (await readerById(db, user.id, now))!;
  expect(reader.subscriber).toEqual(await subscriberStatus(db, user.id, now));
  return reader;
}
const subscriptionsOf = async (user: User) => {
  const now = await providerNow();
  return analyticsSubscriptions((await readerAt(user, now)).subscriptions, now);
};

async function newReader(): Promise<User> {
  return (await insertUser(db, {
    firstName: "Nora",
    lastName: "Quinn",
    email: `nora.${Math.random().toString(36).slice(2)}@example.org`,
    password: "Harbour7!lamp",
    optIn: false,
  }))!;
}

/** Buys the plan at the sandbox's page with `card`, as of the provider's time. */
async function buy(user: User, planId: string, card: string = SANDBOX_CARDS.succeeds) {
  const now = await providerNow();
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
      billing: UNTAXED,
    },
    now,
  );
  if (!started.ok) throw new Error("checkout did not start");
  expect((await sandbox.pay(started.url.split("/").at(-1)!, card, now)).ok).toBe(true);
  expect(await settleCheckout(db, sandbox, started.checkoutId, user.id, now)).toBe("activated");
}

describe(`subscriptions as the data layer and the API tell them (${dialectName})`, () => {
  it("counts each paid renewal, gives the latest payment and the current period", async () => {
    const reader = await newReader();
    await buy(reader, "digital");
    expect(await subscriptionsOf(reader)).toEqual([
      expect.objectContaining({
        subscriptionSourceCode: "WEB",
        subscriptionStatus: "active",
        timesRenewed: 0,
        orderValue: 12,
        termTitle: "Digital",
        purchaseDate: "2026-11-15T12:00:00.000Z",
        subscriptionAccessPeriod: { start: "2026-11-15T12:00:00.000Z", expiration: "2026-12-15T12:00:00.000Z" },
      }),
    ]);

    expect(await renewAfter(31)).toMatchObject({ renewed: 1 });
    expect(await renewAfter(31)).toMatchObject({ renewed: 1 });
    const now = await providerNow();
    const signedIn = await readerAt(reader, now);
    const quota = await layerQuota(
      db,
      { reader: signedIn, visitorId: undefined, limits: { guest: 4, registered: 8 }, pageCountsRead: false },
      now,
    );
    expect(quota).toBeNull();
    const layer = analyticsDataLayer({ signedIn: { reader: signedIn, following: [] }, quota }, now);
    expect(layer.user.userState).toBe("Subscriber");
    expect(layer.user.subscriptions).toEqual([
      expect.objectContaining({
        subscriptionStatus: "active",
        timesRenewed: 2,
        orderValue: 12,
        // Still the day it was bought; the period is the one last paid for.
        purchaseDate: "2026-11-15T12:00:00.000Z",
        subscriptionAccessPeriod: { start: "2027-01-15T12:00:00.000Z", expiration: "2027-02-15T12:00:00.000Z" },
      }),
    ]);
  });

  it("tells a declined renewal as past_due with access through the grace, and a cancelled plan as cancelled, then expired", async () => {
    const declined = await newReader();
    await buy(declined, "digital", SANDBOX_CARDS.declinesLater);
    const cancelled = await newReader();
    await buy(cancelled, "executive");
    expect(await cancelAtPeriodEnd(db, cancelled.id, null, NOVEMBER)).toBe("cancelled");
    expect(await subscriptionsOf(cancelled)).toMatchObject([{ subscriptionStatus: "cancelled", orderValue: 450, timesRenewed: 0 }]);

    expect(await renewAfter(31)).toMatchObject({ renewed: 0, declined: 1 });
    const [pastDue] = await subscriptionsOf(declined);
    const { grace_end } = await db
      .selectFrom("subscription")
      .select("grace_end")
      .where("user_id", "=", declined.id)
      .executeTakeFirstOrThrow();
    expect(pastDue).toMatchObject({
      subscriptionStatus: "past_due",
      timesRenewed: 0,
      orderValue: 12,
      subscriptionAccessPeriod: { start: "2026-11-15T12:00:00.000Z", expiration: grace_end },
    });
    expect(grace_end! > "2026-12-15T12:00:00.000Z").toBe(true);

    await renewAfter(365);
    expect(await subscriptionsOf(cancelled)).toMatchObject([{ subscriptionStatus: "expired", timesRenewed: 0 }]);
    expect(await subscriptionsOf(declined)).toMatchObject([{ subscriptionStatus: "expired", timesRenewed: 0 }]);
  });

  it("tells a plan another replaced as replaced, with its own payments, beside the new one", async () => {
    const reader = await newReader();
    await buy(reader, "digital");
    await renewAfter(31);
    await buy(reader, "all-access");
    expect(await subscriptionsOf(reader)).toEqual([
      expect.objectContaining({ termTitle: "Digital", subscriptionStatus: "replaced", timesRenewed: 1, orderValue: 12 }),
      expect.objectContaining({ termTitle: "All Access", subscriptionStatus: "active", timesRenewed: 0, orderValue: 599 }),
    ]);
  });
});
