import { setImmediate as nextTurn } from "node:timers/promises";
import type { Database } from "~/server/db/connection";
import type { Config } from "~/server/config";
import type { BillingStatus } from "~/server/db/schema";
import type { PaymentProvider, RecurringBilling } from "~/server/payments/provider";
import { addMonths } from "~/server/subscriptions/entitlements";
import { findPlan, type Plan } from "~/server/subscriptions/plans";
import { endCancelledSubscriptions } from "./cancellation";
import { graceEnd, nextRetry } from "./dunning";
import { finishPlanChanges } from "./plan-change";
import { sendPaymentFailedNotices, sendPendingReceipts, sendReceipts, sendSubscriptionNotices, type BillingMail } from "./mail";
import { recordInvoices, type InvoiceInput } from "./invoices";
import { sendRenewalReminders } from "./reminders";
import { billingAddressOf, invoiceTaxColumns, subscriptionTax, type SubscriptionTax } from "./tax";

/** Subscriptions taken up per query: a run goes on until none is left due (a clock moved on by two periods renews twice). */
const BATCH = 100;
/** Charges in progress at once in one run: each of these workers also mails its receipts. */
export const RENEWAL_WORKERS = 4;
/**
 * Subscriptions one of those charges in turn before applying their outcomes in one transaction:
 * one commit, and one hold of the invoice counter's lock, for many renewals instead of each.
 */
const CHUNK = 25;

export interface RenewalReport {
  /** The provider's time the run renewed as of. */
  at: Date;
  renewed: number;
  declined: number;
  /** Past-due subscriptions paid by a retry. */
  recovered: number;
  /** Upgrades left half-made by a process that stopped, charged (once) and applied. */
  upgradesFinished: number;
  /** Cancelled subscriptions whose paid period ended, and past-due ones whose grace ran out. */
  ended: number;
  receipts: number;
  failureNotices: number;
  /** "Subscription cancelled" and "subscription ended" mails. */
  subscriptionNotices: number;
  /** Reminders of an annual plan's coming renewal. */
  reminders: number;
}

/** A subscription's period as a charge for it is made: the charge's outcome applies only while it still stands so. */
export interface ChargeableSubscription {
  id: string;
  user_id: string;
  plan_id: string | null;
  scheduled_plan_id: string | null;
  billing_status: BillingStatus | null;
  failed_attempts: number;
  past_due_since: string | null;
  grace_end: string | null;
  payment_method_id: string | null;
  card_brand: string | null;
  card_last4: string | null;
  access_end: string;
  company: string | null;
  tax_id: string | null;
  billing_country: string | null;
  billing_region: string | null;
}

export type ChargeResult = "renewed" | "declined" | "skipped";

/**
 * The key of one period's renewal: the same whoever tries it and however often, so the provider
 * charges it once and the invoice records it once. A retry after a decline, and a charge to a
 * card put on file while past due, are new attempts with keys of their own.
 */
export const renewalKey = (subscriptionId: string, periodEnd: string) => `renewal:${subscriptionId}:${periodEnd}`;

/**
 * Renews every renewing subscription whose period has ended by the provider's clock (`realNow`
 * moved as the provider's clock says): charges the card on file, extends the period by one
 * interval and writes the invoice, or marks it past_due when the card is declined; tries the
 * past-due ones again on their retry days and ends those whose grace is over; ends the
 * cancelled ones whose period is over; then mails the receipts, "payment failed", "cancelled" and
 * "ended" notices not yet sent, and the reminders of annual renewals coming within a week
 * (ADR 068). Safe to run in several instances at once and again after a crash at any step
 * (ADR 066): each charge is idempotent by its key, and its outcome is applied only to the state
 * it was made for.
 */
export async function runRenewals(
  db: Database,
  billing: RecurringBilling,
  mail: BillingMail,
  realNow: Date,
  graceDays: number,
): Promise<RenewalReport> {
  const at = await billing.now(realNow);
  const report: RenewalReport = {
    at,
    renewed: 0,
    declined: 0,
    recovered: 0,
    upgradesFinished: await finishPlanChanges(db, billing, at),
    ended: 0,
    receipts: 0,
    failureNotices: 0,
    subscriptionNotices: 0,
    reminders: 0,
  };
  for (const status of ["active", "past_due"] as const) {
    for (;;) {
      const due = await dueSubscriptions(db, status, at);
      // Instances running at once take the same batch. Each goes through it in an order of its
      // own and passes over what another has charged for meanwhile, so they share it out instead
      // of each asking the provider for every charge (answered once by its key, but a call each time).
      const queue = shuffled(due);
      // A few at once: a charge mostly waits on the provider and the database (PostgreSQL's round
      // trips), and the invoice counter's lock keeps their numbers in order.
      await Promise.all(
        Array.from({ length: RENEWAL_WORKERS }, async () => {
          for (let chunk = queue.splice(0, CHUNK); chunk.length > 0; chunk = queue.splice(0, CHUNK)) {
            const charges: Charge[] = [];
            for (const subscription of await stillAsSelected(db, chunk)) charges.push(await charge(billing, subscription, false));
            const { outcomes, invoiceIds } = await applyCharges(db, charges, at, graceDays, false);
            for (const outcome of outcomes) {
              if (outcome === "renewed") report[status === "active" ? "renewed" : "recovered"]++;
              if (outcome === "declined") report.declined++;
            }
            // Each receipt goes as soon as its payment is applied. If mail cannot be sent now,
            // the renewals go on: the sweep below tries the receipts again (and reports the failure).
            // Awaited first: `report.receipts += await …` would read the count before the wait and
            // lose what the other workers added meanwhile.
            const sent = await sendReceipts(db, mail, invoiceIds, at).catch(() => 0);
            report.receipts += sent;
            // On SQLite every query answers without waiting for I/O: a turn between chunks lets the
            // process's other work (its signals, its IPC) in.
            await nextTurn();
          }
        }),
      );
      if (due.length === 0) break;
    }
  }
  report.ended = (await endCancelledSubscriptions(db, at)) + (await endUnpaidSubscriptions(db, at));
  report.receipts += await sendPendingReceipts(db, mail, at);
  report.failureNotices = await sendPaymentFailedNotices(db, mail, at);
  report.subscriptionNotices = await sendSubscriptionNotices(db, mail, at);
  report.reminders = await sendRenewalReminders(db, mail, at);
  return report;
}

const chargeable = (db: Database) =>
  db
    .selectFrom("subscription")
    .leftJoin("subscription_checkout", "subscription_checkout.id", "subscription.reference")
    .select([
      "subscription.id",
      "subscription.user_id",
      "subscription.plan_id",
      "subscription.scheduled_plan_id",
      "subscription.billing_status",
      "subscription.failed_attempts",
      "subscription.past_due_since",
      "subscription.grace_end",
      "subscription.payment_method_id",
      "subscription.card_brand",
      "subscription.card_last4",
      "subscription.access_end",
      "subscription_checkout.company",
      "subscription_checkout.tax_id",
      "subscription.billing_country",
      "subscription.billing_region",
    ])
    .where("subscription.status", "=", "active")
    .where("subscription.pending_change", "is", null)
    // A subscription the provider renews (Stripe Billing) is charged there, never here.
    .where("subscription.provider_subscription_id", "is", null)
    // A subscription whose reader deleted their account is ended and unlinked (ADR 089): never charged.
    .where("subscription.user_id", "is not", null)
    .$narrowType<{ user_id: string }>();

/** Active subscriptions whose period is over, or past-due ones whose retry day has come. */
function dueSubscriptions(db: Database, status: "active" | "past_due", at: Date): Promise<ChargeableSubscription[]> {
  const query = chargeable(db).where("subscription.billing_status", "=", status);
  return (
    status === "active"
      ? query.where("subscription.access_end", "<=", at.toISOString()).orderBy("subscription.access_end")
      : query.where("subscription.next_retry_at", "<=", at.toISOString()).orderBy("subscription.next_retry_at")
  )
    .limit(BATCH)
    .execute();
}

/** Those of the subscriptions that still stand as they were selected: no other run has applied their charge. */
async function stillAsSelected(db: Database, selected: ChargeableSubscription[]): Promise<ChargeableSubscription[]> {
  const rows = await db
    .selectFrom("subscription")
    .select(["id", "access_end", "billing_status", "failed_attempts"])
    .where(
      "id",
      "in",
      selected.map((due) => due.id),
    )
    .where("status", "=", "active")
    .where("pending_change", "is", null)
    .execute();
  const now = new Map(rows.map((row) => [row.id, row]));
  return selected.filter((due) => {
    const row = now.get(due.id);
    return (
      row && row.access_end === due.access_end && row.billing_status === due.billing_status && row.failed_attempts === due.failed_attempts
    );
  });
}

/** The reader's renewing subscription, as a charge for it would be made. */
export function chargeableSubscription(db: Database, userId: string, subscriptionId: string): Promise<ChargeableSubscription | undefined> {
  return chargeable(db).where("subscription.id", "=", subscriptionId).where("subscription.user_id", "=", userId).executeTakeFirst();
}

/** A charge made for a subscription's next period, its outcome not yet applied. */
interface Charge {
  due: ChargeableSubscription;
  plan: Plan;
  /** The sales tax charged with the plan's price, for the billing address on file when charged. */
  tax: SubscriptionTax;
  key: string;
  status: "succeeded" | "declined";
}

/**
 * Charges the period after `access_end`: the renewal itself, a retry on a retry day, or (given
 * `cardChange`) the card a past-due subscriber has just put on file. The key names the attempt, so a
 * repeat of it is answered by the provider's first outcome.
 */
async function charge(billing: RecurringBilling, due: ChargeableSubscription, cardChange: boolean): Promise<Charge> {
  const plan = findPlan(due.scheduled_plan_id ?? due.plan_id ?? "");
  if (!plan || !due.payment_method_id) throw new Error(`subscription ${due.id} renews without a plan or a card on file`);
  const base = renewalKey(due.id, due.access_end);
  const key = cardChange
    ? `${base}:card:${due.payment_method_id}`
    : due.failed_attempts === 0
      ? base
      : `${base}:retry:${due.failed_attempts}`;
  const tax = subscriptionTax(plan.priceCents, billingAddressOf(due));
  const { status } = await billing.charge({ cardId: due.payment_method_id, amountCents: plan.priceCents + tax.cents, idempotencyKey: key });
  return { due, plan, tax, key, status };
}

/**
 * Applies charges' outcomes, each by one update conditional on the state its charge was made
 * for, so of two runs (or a run and its retry after a crash) only one applies it, and only that
 * one invoices. The paid ones move on a period and are invoiced in one transaction. A declined
 * renewal or retry makes the subscription past_due with its next retry; a declined new card
 * changes nothing (the reader is told on the page).
 */
async function applyCharges(
  db: Database,
  charges: Charge[],
  at: Date,
  graceDays: number,
  cardChange: boolean,
): Promise<{ outcomes: ChargeResult[]; invoiceIds: string[] }> {
  const asCharged = (eb: Database, due: ChargeableSubscription) =>
    eb
      .updateTable("subscription")
      .where("id", "=", due.id)
      .where("status", "=", "active")
      .where("access_end", "=", due.access_end)
      .where("billing_status", "=", due.billing_status)
      .where("failed_attempts", "=", due.failed_attempts)
      .where("payment_method_id", "=", due.payment_method_id)
      .where("pending_change", "is", null);
  const outcomes = new Map<Charge, ChargeResult>();
  for (const declined of charges.filter((c) => c.status === "declined")) {
    if (cardChange) {
      outcomes.set(declined, "declined");
      continue;
    }
    const { due } = declined;
    const failures = due.failed_attempts + 1;
    const since = due.past_due_since ? new Date(due.past_due_since) : at;
    const graceEndsAt = due.grace_end ? new Date(due.grace_end) : graceEnd(at, graceDays);
    const marked = await asCharged(db, due)
      .set({
        billing_status: "past_due",
        failed_attempts: failures,
        past_due_since: since.toISOString(),
        grace_end: graceEndsAt.toISOString(),
        next_retry_at: nextRetry(since, failures, graceEndsAt)?.toISOString() ?? null,
        failure_mailed_at: null,
      })
      .executeTakeFirst();
    outcomes.set(declined, Number(marked.numUpdatedRows) === 1 ? "declined" : "skipped");
  }
  // Rows are locked in the order of their ids, the same in every transaction, so that two runs
  // applying overlapping chunks wait for each other instead of deadlocking.
  const paid = charges.filter((c) => c.status === "succeeded").sort((a, b) => (a.due.id < b.due.id ? -1 : a.due.id > b.due.id ? 1 : 0));
  const invoiceIds: string[] = [];
  if (paid.length > 0) {
    await db.transaction().execute(async (tx) => {
      const invoices: InvoiceInput[] = [];
      for (const charged of paid) {
        const { due, plan, tax, key } = charged;
        const periodEnd = addMonths(new Date(due.access_end), plan.months).toISOString();
        const moved = await asCharged(tx, due)
          .set({
            access_end: periodEnd,
            billing_status: "active",
            plan_id: plan.id,
            role_code: plan.roleCode,
            scheduled_plan_id: null,
            failed_attempts: 0,
            past_due_since: null,
            grace_end: null,
            next_retry_at: null,
          })
          .executeTakeFirst();
        if (Number(moved.numUpdatedRows) !== 1) {
          outcomes.set(charged, "skipped");
          continue;
        }
        outcomes.set(charged, "renewed");
        invoices.push({
          subscription_id: due.id,
          user_id: due.user_id,
          payment_key: key,
          kind: "renewal",
          plan_id: plan.id,
          amount_cents: plan.priceCents,
          ...invoiceTaxColumns(tax, billingAddressOf(due)),
          period_start: due.access_end,
          period_end: periodEnd,
          company: due.company,
          tax_id: due.tax_id,
          card_brand: due.card_brand,
          card_last4: due.card_last4,
        });
      }
      for (const { id } of await recordInvoices(tx, invoices, at)) invoiceIds.push(id);
    });
  }
  return { outcomes: charges.map((c) => outcomes.get(c)!), invoiceIds };
}

/**
 * Charges the period after `access_end` and applies the outcome (`charge`, `applyCharges`): for a
 * card a past-due subscriber has just put on file (`cardChange`), or one subscription alone.
 */
export async function chargePeriod(
  db: Database,
  billing: RecurringBilling,
  due: ChargeableSubscription,
  at: Date,
  graceDays: number,
  cardChange = false,
): Promise<ChargeResult> {
  const { outcomes } = await applyCharges(db, [await charge(billing, due, cardChange)], at, graceDays, cardChange);
  return outcomes[0]!;
}

/** Ends every past-due subscription whose grace is over by `at`; answers how many. */
async function endUnpaidSubscriptions(db: Database, at: Date): Promise<number> {
  const ended = await db
    .updateTable("subscription")
    .set({ billing_status: "ended", next_retry_at: null, notice_mailed_at: null })
    .where("status", "=", "active")
    .where("billing_status", "=", "past_due")
    .where("grace_end", "<=", at.toISOString())
    .where("pending_change", "is", null)
    // The provider ends its own, after its retries (customer.subscription.deleted).
    .where("provider_subscription_id", "is", null)
    .executeTakeFirst();
  return Number(ended.numUpdatedRows);
}

/** One line saying what a run did. */
export function describeRenewals(report: RenewalReport): string {
  return (
    `Renewals as of ${report.at.toISOString()}: renewed ${report.renewed} subscription(s), ${report.declined} declined (now past due), ` +
    `${report.recovered} past-due one(s) paid on retry, ${report.upgradesFinished} interrupted upgrade(s) finished, ` +
    `${report.ended} ended (cancelled or unpaid after grace); ` +
    `sent ${report.receipts} receipt(s), ${report.failureNotices} payment-failed notice(s), ` +
    `${report.subscriptionNotices} cancelled/ended notice(s) and ${report.reminders} annual renewal reminder(s)`
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

/**
 * The items in a random order. Processes working through the same list (the jobs of several
 * instances) each take it in their own order, so they seldom reach for the same item at once.
 */
function shuffled<T>(items: T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}
