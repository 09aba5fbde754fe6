import type { Database } from "~/server/db/connection";
import type { Config } from "~/server/config";
import type { PaymentProvider, RecurringBilling } from "~/server/payments/provider";
import { addMonths } from "~/server/subscriptions/entitlements";
import { findPlan } from "~/server/subscriptions/plans";
import { endCancelledSubscriptions } from "./cancellation";
import { sendPaymentFailedNotices, sendPendingReceipts, sendSubscriptionNotices, type BillingMail } from "./mail";
import { recordInvoice } from "./invoices";

/** Subscriptions taken up per query: a run goes on until none is left due (a clock moved on by two periods renews twice). */
const BATCH = 100;

export interface RenewalReport {
  /** The provider's time the run renewed as of. */
  at: Date;
  renewed: number;
  declined: number;
  /** Cancelled subscriptions whose paid period ended. */
  ended: number;
  receipts: number;
  failureNotices: number;
  /** "Subscription cancelled" and "subscription ended" mails. */
  subscriptionNotices: number;
}

interface DueSubscription {
  id: string;
  user_id: string;
  plan_id: string | null;
  payment_method_id: string | null;
  card_brand: string | null;
  card_last4: string | null;
  access_end: string;
  company: string | null;
  tax_id: string | null;
}

/**
 * The key of one period's renewal: the same whoever tries it and however often, so the provider
 * charges it once and the invoice records it once.
 */
export const renewalKey = (subscriptionId: string, periodEnd: string) => `renewal:${subscriptionId}:${periodEnd}`;

/**
 * Renews every renewing subscription whose period has ended by the provider's clock (`realNow`
 * moved as the provider's clock says): charges the card on file, extends the period by one
 * interval and writes the invoice, or marks it past_due when the card is declined; ends the
 * cancelled ones whose period is over; then mails the receipts, "payment failed", "cancelled" and
 * "ended" notices not yet sent. Safe to run in several instances at
 * once and again after a crash at any step (ADR 066): the charge is idempotent by
 * renewalKey, and the period moves only from the end the charge was for.
 */
export async function runRenewals(db: Database, billing: RecurringBilling, mail: BillingMail, realNow: Date): Promise<RenewalReport> {
  const at = await billing.now(realNow);
  const report: RenewalReport = { at, renewed: 0, declined: 0, ended: 0, receipts: 0, failureNotices: 0, subscriptionNotices: 0 };
  for (;;) {
    const due = await dueSubscriptions(db, at);
    for (const subscription of due) {
      const outcome = await renew(db, billing, subscription, at);
      if (outcome === "renewed") report.renewed++;
      if (outcome === "declined") report.declined++;
    }
    if (due.length === 0) break;
  }
  report.ended = await endCancelledSubscriptions(db, at);
  report.receipts = await sendPendingReceipts(db, mail, at);
  report.failureNotices = await sendPaymentFailedNotices(db, mail, at);
  report.subscriptionNotices = await sendSubscriptionNotices(db, mail, at);
  return report;
}

function dueSubscriptions(db: Database, at: Date): Promise<DueSubscription[]> {
  return (
    db
      .selectFrom("subscription")
      .leftJoin("subscription_checkout", "subscription_checkout.id", "subscription.reference")
      .select([
        "subscription.id",
        "subscription.user_id",
        "subscription.plan_id",
        "subscription.payment_method_id",
        "subscription.card_brand",
        "subscription.card_last4",
        "subscription.access_end",
        "subscription_checkout.company",
        "subscription_checkout.tax_id",
      ])
      .where("subscription.billing_status", "=", "active")
      .where("subscription.status", "=", "active")
      // A subscription the provider renews (Stripe Billing) is renewed there, never charged here.
      .where("subscription.provider_subscription_id", "is", null)
      .where("subscription.access_end", "<=", at.toISOString())
      .orderBy("subscription.access_end")
      .limit(BATCH)
      .execute()
  );
}

/** One period's renewal; "skipped" when another run applied it first. */
async function renew(db: Database, billing: RecurringBilling, due: DueSubscription, at: Date): Promise<"renewed" | "declined" | "skipped"> {
  const plan = findPlan(due.plan_id ?? "");
  if (!plan || !due.payment_method_id) throw new Error(`subscription ${due.id} renews without a plan or a card on file`);
  const key = renewalKey(due.id, due.access_end);
  const charge = await billing.charge({ cardId: due.payment_method_id, amountCents: plan.priceCents, idempotencyKey: key });
  // Each outcome is applied by one update conditional on the period the charge was for: of two
  // runs (or a run and its retry after a crash) only one moves it, and only that one invoices.
  const current = (eb: Database) =>
    eb.updateTable("subscription").where("id", "=", due.id).where("access_end", "=", due.access_end).where("billing_status", "=", "active");
  if (charge.status === "declined") {
    const marked = await current(db)
      .set({ billing_status: "past_due", past_due_since: at.toISOString(), failure_mailed_at: null })
      .executeTakeFirst();
    return Number(marked.numUpdatedRows) === 1 ? "declined" : "skipped";
  }
  const periodEnd = addMonths(new Date(due.access_end), plan.months).toISOString();
  return db.transaction().execute(async (tx) => {
    const moved = await current(tx).set({ access_end: periodEnd }).executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) return "skipped";
    await recordInvoice(
      tx,
      {
        subscription_id: due.id,
        user_id: due.user_id,
        payment_key: key,
        kind: "renewal",
        plan_id: plan.id,
        amount_cents: plan.priceCents,
        tax_cents: 0,
        period_start: due.access_end,
        period_end: periodEnd,
        company: due.company,
        tax_id: due.tax_id,
        card_brand: due.card_brand,
        card_last4: due.card_last4,
      },
      at,
    );
    return "renewed";
  });
}

/** One line saying what a run did. */
export function describeRenewals(report: RenewalReport): string {
  return (
    `Renewals as of ${report.at.toISOString()}: renewed ${report.renewed} subscription(s), ${report.declined} declined (now past due), ` +
    `${report.ended} cancelled one(s) ended; sent ${report.receipts} receipt(s), ${report.failureNotices} payment-failed notice(s) ` +
    `and ${report.subscriptionNotices} cancelled/ended notice(s)`
  );
}

/** Whether the site runs the renewals of plans bought now: the provider charges on its schedule (the sandbox) and BILLING_RENEWALS is on. */
export const renewsThroughSite = (
  provider: PaymentProvider,
  config: Pick<Config, "BILLING_RENEWALS">,
): provider is PaymentProvider & { billing: RecurringBilling } => Boolean(provider.billing) && config.BILLING_RENEWALS === "on";

/**
 * Whether plans bought now renew at all, which their terms must say: through the site (the
 * sandbox) or by the provider itself (Stripe Billing, ADR 067), while BILLING_RENEWALS is on.
 */
export const plansRenewWith = (provider: PaymentProvider, config: Pick<Config, "BILLING_RENEWALS">): boolean =>
  renewsThroughSite(provider, config) || (Boolean(provider.subscriptions) && config.BILLING_RENEWALS === "on");
