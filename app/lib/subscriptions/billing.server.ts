import { mailer } from "~/server/adapters/mail";
import { changeBillingAddress, latestBillingAddress } from "~/server/billing/address";
import { cancelAtPeriodEnd, resumeSubscription } from "~/server/billing/cancellation";
import { finishCardChange, startCardChange } from "~/server/billing/card-change";
import type { BillingAddressOptions } from "~/app/components/account/BillingAddressFields";
import type { BillingAddress } from "~/shared/billing-address";
import { COUNTRIES, regionsOf } from "~/shared/regions";
import type { CancelReason } from "~/shared/cancel-reasons";
import { invoiceDocument, publisherFrom } from "~/server/billing/invoices";
import { billingMail, sendPendingReceipts, sendSubscriptionNotices } from "~/server/billing/mail";
import { billingOverview, isOwnInvoice } from "~/server/billing/overview";
import { changePlan, keepCurrentPlan, quotePlanChange, renewingPlanChoice } from "~/server/billing/plan-change";
import { plansRenewWith } from "~/server/billing/renewals";
import { log } from "~/server/log";
import { config, db } from "~/app/lib/context/db.server";
import { payments } from "~/app/lib/store/payments.server";

// The "Subscription and billing" page's work (server/billing holds the rules): the provider's
// clock, the mail after a cancellation, and the invoice PDFs.

/**
 * Runs work that calls the payment provider; when the provider cannot be reached (or answers
 * with an error) the failure is logged and the reader is told that nothing changed, instead of
 * meeting an error page. Each step is conditional, so trying again later is safe.
 */
async function unlessProviderFails<T>(what: string, work: () => Promise<T>): Promise<T | "provider-unavailable"> {
  try {
    return await work();
  } catch (error) {
    log.error(`${what} failed`, { error });
    return "provider-unavailable";
  }
}

/** The time as the payment provider keeps it: the sandbox's clock may have been moved on. */
async function billingNow(): Promise<Date> {
  const provider = await payments();
  return provider.billing ? provider.billing.now(new Date()) : new Date();
}

/** Whether a plan bought now renews, which its terms must say. */
export async function plansRenew(): Promise<boolean> {
  return plansRenewWith(await payments(), config());
}

export async function billingPage(userId: string) {
  return billingOverview(await db(), userId, await billingNow());
}

/**
 * Cancels at period end and mails "subscription cancelled". A mail failure is logged: the
 * cancellation stands, and the next renewal run sends the mail.
 */
export async function cancelPlan(userId: string, reason: CancelReason | null) {
  const outcome = await unlessProviderFails("cancelling a subscription", async () =>
    cancelAtPeriodEnd(await db(), userId, reason, await billingNow(), (await payments()).subscriptions),
  );
  if (outcome === "provider-unavailable") return outcome;
  try {
    await sendSubscriptionNotices(await db(), billingMail(config(), mailer()), new Date());
  } catch (error) {
    log.error("subscription cancelled mail failed", { error });
  }
  return outcome;
}

export async function resumePlan(userId: string) {
  return unlessProviderFails("resuming a subscription", async () =>
    resumeSubscription(await db(), userId, await billingNow(), (await payments()).subscriptions),
  );
}

/** The reader's own invoice as a PDF; undefined for anyone else's. */
export async function ownInvoicePdf(userId: string, invoiceId: string) {
  if (!(await isOwnInvoice(await db(), userId, invoiceId))) return undefined;
  const { number, pdf } = await invoiceDocument(await db(), invoiceId, publisherFrom(config()), config().siteUrl);
  return { filename: `invoice-${number}.pdf`, pdf };
}

/** Opens the provider's page for a new card; null when the reader has no renewing plan. */
export async function changeCard(reader: { id: string; email: string }) {
  return unlessProviderFails("opening a card change", async () =>
    startCardChange(await db(), await payments(), { userId: reader.id, email: reader.email }, config().siteUrl),
  );
}

/**
 * Puts the card from the provider's session on file (charging an overdue renewal to it) and
 * mails the receipt of that payment. A mail failure is logged: the next renewal run sends it.
 * The provider's signed callback calls this as it is, so that a failure answers an error and the
 * provider sends the callback again.
 */
export async function applyCardChange(userId: string | null, sessionId: string) {
  const outcome = await finishCardChange(await db(), await payments(), sessionId, userId, new Date(), config().BILLING_GRACE_DAYS);
  if (outcome === "paid") {
    try {
      await sendPendingReceipts(await db(), billingMail(config(), mailer()), new Date());
    } catch (error) {
      log.error("receipt mail after a card change failed", { error });
    }
  }
  return outcome;
}

/** The reader back from the provider's page: as applyCardChange, telling them when the provider failed. */
export async function cardChanged(userId: string, sessionId: string) {
  return unlessProviderFails("finishing a card change", () => applyCardChange(userId, sessionId));
}

/** Whether choosing `planId` changes the reader's renewing plan (in Subscription and billing) rather than buying one. */
export async function planChoice(userId: string, planId: string) {
  return renewingPlanChoice(await db(), userId, planId, await billingNow());
}

/** What changing to `planId` would cost now, by the provider's clock (a plan Stripe renews: on the period Stripe bills). */
export async function planQuote(userId: string, planId: string) {
  return unlessProviderFails("quoting a plan change", async () =>
    quotePlanChange(await db(), userId, planId, await billingNow(), (await payments()).subscriptions),
  );
}

/**
 * Makes the quoted change (an upgrade charged now, a downgrade at renewal) and mails the
 * upgrade's receipt. A mail failure is logged: the next renewal run (or billing event) sends it.
 */
export async function changePlanTo(userId: string, planId: string, quotedAt: string) {
  const outcome = await unlessProviderFails("changing plan", async () =>
    changePlan(await db(), await payments(), userId, planId, quotedAt, await billingNow()),
  );
  if (outcome === "upgraded") {
    try {
      await sendPendingReceipts(await db(), billingMail(config(), mailer()), new Date());
    } catch (error) {
      log.error("upgrade receipt mail failed", { error });
    }
  }
  return outcome;
}

export async function keepPlan(userId: string) {
  return unlessProviderFails("keeping a plan", async () => keepCurrentPlan(await db(), userId, (await payments()).subscriptions));
}

/** The reader's billing address as last given (their plan's, else their latest checkout's); null when none. */
export async function readerBillingAddress(userId: string) {
  return latestBillingAddress(await db(), userId);
}

/** Puts a new billing address on the reader's renewing plan (at the provider first, when it renews the plan). */
export async function changeAddress(userId: string, address: BillingAddress) {
  return unlessProviderFails("changing a billing address", async () =>
    changeBillingAddress(await db(), userId, address, await billingNow(), (await payments()).subscriptions),
  );
}

/** The lists the billing address form chooses from. */
export const billingAddressOptions = (): BillingAddressOptions => ({
  countries: COUNTRIES,
  states: regionsOf("US"),
  provinces: regionsOf("CA"),
});
