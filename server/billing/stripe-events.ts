import { sql } from "kysely";
import type { Database } from "~/server/db/connection";
import type {
  BillingEvent,
  InvoicePaid,
  InvoicePaymentFailed,
  PaidInvoice,
  PaymentEvent,
  SubscriptionDeleted,
  SubscriptionUpdated,
} from "~/server/payments/provider";
import { log } from "~/server/log";
import { findPlan } from "~/server/subscriptions/plans";
import { graceEnd } from "./dunning";
import { recordInvoice } from "./invoices";
import { billingAddressColumns, billingAddressOf, subscriptionTax } from "./tax";
import { sendPaymentFailedNotices, sendPendingReceipts, sendSubscriptionNotices, type BillingMail } from "./mail";

export type BillingEventOutcome = "applied" | "duplicate" | "ignored";

const BILLING_EVENTS = new Set<string>(["invoice.paid", "invoice.payment_failed", "subscription.updated", "subscription.deleted"]);

export const isBillingEvent = (event: PaymentEvent): event is BillingEvent => BILLING_EVENTS.has(event.type);

// A provider that renews (Stripe Billing) tells the site what happened by webhooks, which may
// come twice, late, or out of order (ADR 067). Each event is applied once: its id is recorded in
// the transaction that applies it, so a replay finds it and changes nothing. Each change is one
// update conditional on what the event may change: the paid period only moves forward, and a
// state change applies only if no later event (or call of ours) changed the state first.

/**
 * Applies one billing event. "duplicate" when it was applied before; "ignored" when it is about
 * a subscription the site does not know, or a first invoice (recorded with its checkout).
 */
export async function applyBillingEvent(db: Database, event: BillingEvent, now: Date, graceDays: number): Promise<BillingEventOutcome> {
  return db.transaction().execute(async (tx) => {
    const recorded = await tx
      .insertInto("payment_event")
      .values({ id: event.eventId, type: event.type, received_at: now.toISOString() })
      .onConflict((oc) => oc.column("id").doNothing())
      .executeTakeFirst();
    if (Number(recorded.numInsertedOrUpdatedRows ?? 0) !== 1) return "duplicate";
    const subscription = await known(tx, event.subscriptionId);
    if (!subscription) return "ignored";
    switch (event.type) {
      case "invoice.paid":
        // The first invoice is recorded with its checkout.
        if (event.kind !== "renewal" && event.kind !== "change") return "ignored";
        await invoicePaid(tx, subscription, event, now);
        if (event.kind === "renewal") await renewalRecovered(tx, subscription.id, event);
        return "applied";
      case "invoice.payment_failed":
        return paymentFailed(tx, subscription.id, event, graceDays);
      case "subscription.updated":
        return subscriptionUpdated(tx, subscription.id, event);
      case "subscription.deleted":
        return subscriptionDeleted(tx, subscription.id, event);
    }
  });
}

/**
 * Applies a billing event, then sends the mails it calls for (a renewal's receipt, "payment
 * failed", "cancelled", "ended"), each claimed once. A mail that fails is logged: the event
 * stands, and the next one (or the next renewal run) sends it.
 */
export async function followBillingEvent(
  db: Database,
  event: BillingEvent,
  mail: BillingMail,
  now: Date,
  graceDays: number,
): Promise<BillingEventOutcome> {
  const outcome = await applyBillingEvent(db, event, now, graceDays);
  for (const send of [sendPendingReceipts, sendPaymentFailedNotices, sendSubscriptionNotices]) {
    try {
      await send(db, mail, now);
    } catch (error) {
      log.error("billing mail failed", { error });
    }
  }
  return outcome;
}

/**
 * Applies an invoice the provider answered with as paid (an upgrade charged at once) as its
 * invoice.paid event does; whichever comes first applies it, and the other changes nothing.
 * False when the subscription is not ours.
 */
export async function applyPaidInvoice(db: Database, subscriptionId: string, invoice: PaidInvoice, now: Date): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    const subscription = await known(tx, subscriptionId);
    if (!subscription) return false;
    await invoicePaid(tx, subscription, invoice, now);
    return true;
  });
}

const known = (tx: Database, providerSubscriptionId: string) =>
  tx
    .selectFrom("subscription")
    .leftJoin("subscription_checkout", "subscription_checkout.id", "subscription.reference")
    .select([
      "subscription.id",
      "subscription.user_id",
      "subscription.plan_id",
      "subscription.card_brand",
      "subscription.card_last4",
      "subscription_checkout.company",
      "subscription_checkout.tax_id",
      "subscription.billing_country",
      "subscription.billing_region",
    ])
    .where("subscription.provider_subscription_id", "=", providerSubscriptionId)
    .executeTakeFirst();

type Known = NonNullable<Awaited<ReturnType<typeof known>>>;

const iso = (date: Date) => date.toISOString();

/** Only the latest state counts: an event older than the last change applied changes no state. */
const notOlderThan = (created: Date) => sql<boolean>`(provider_state_at is null or provider_state_at <= ${iso(created)})`;

/**
 * A renewal or a change of plan paid: its invoice is written (the receipt goes with
 * sendPendingReceipts), the paid period moves to the invoice's end if that is later, and the
 * plan becomes the one the invoice bills: a change's, or at a renewal the one set for it
 * (ADR 071). Applied once by invoice, whether its event or the provider's answer to the change
 * comes first; only the newest invoice (by the start of what it bills) decides the plan, so an
 * older one arriving late never undoes a later change.
 */
async function invoicePaid(tx: Database, subscription: Known, invoice: PaidInvoice, now: Date): Promise<void> {
  const end = iso(invoice.periodEnd);
  // Always a write, so the row is locked (PostgreSQL): the upgrade's answer and its event,
  // applying the same invoice at once, take turns, and the second finds it written.
  await tx
    .updateTable("subscription")
    .set({ access_end: sql`case when access_end < ${end} then ${end} else access_end end` })
    .where("id", "=", subscription.id)
    .execute();
  const invoiced = await tx.selectFrom("invoice").select("id").where("payment_key", "=", invoice.invoiceId).executeTakeFirst();
  if (invoiced) return;
  const plan = invoice.planId ? findPlan(invoice.planId) : undefined;
  // Of the provider's invoices (the purchase's, written at activation, comes before any of them).
  const later = await tx
    .selectFrom("invoice")
    .select("id")
    .where("subscription_id", "=", subscription.id)
    .where("kind", "in", ["renewal", "upgrade"])
    .where("period_start", ">", iso(invoice.periodStart))
    .executeTakeFirst();
  if (plan && !later) {
    await tx
      .updateTable("subscription")
      .set({
        plan_id: plan.id,
        role_code: plan.roleCode,
        // A change made now replaces a downgrade set for the renewal (its schedule was taken back
        // first); a renewal onto the plan set for it completes it.
        scheduled_plan_id:
          invoice.kind === "change"
            ? null
            : sql<string | null>`case when scheduled_plan_id = ${plan.id} then null else scheduled_plan_id end`,
      })
      .where("id", "=", subscription.id)
      .execute();
  }
  // The amount of tax is what the provider charged, at the rate set for the billing address on
  // file (the subscription's default tax rate, ADR 070); the rate printed is that address's.
  const address = billingAddressOf(subscription);
  await recordInvoice(
    tx,
    {
      subscription_id: subscription.id,
      user_id: subscription.user_id,
      payment_key: invoice.invoiceId,
      kind: invoice.kind === "change" ? "upgrade" : "renewal",
      plan_id: plan?.id ?? subscription.plan_id ?? "",
      amount_cents: invoice.amountCents,
      tax_cents: invoice.taxCents,
      tax_rate_bp: invoice.taxCents > 0 ? subscriptionTax(invoice.amountCents, address).basisPoints : 0,
      ...billingAddressColumns(address),
      period_start: iso(invoice.periodStart),
      period_end: end,
      company: subscription.company,
      tax_id: subscription.tax_id,
      card_brand: subscription.card_brand,
      card_last4: subscription.card_last4,
    },
    now,
  );
}

/** A renewal paid while past due: the plan is active again, unless a failure came after this payment. */
async function renewalRecovered(tx: Database, id: string, event: InvoicePaid): Promise<void> {
  await tx
    .updateTable("subscription")
    .set({
      billing_status: "active",
      past_due_since: null,
      failure_mailed_at: null,
      failed_attempts: 0,
      grace_end: null,
      next_retry_at: null,
      provider_state_at: iso(event.created),
    })
    .where("id", "=", id)
    .where("billing_status", "=", "past_due")
    .where("access_end", ">=", iso(event.periodEnd))
    .where(notOlderThan(event.created))
    .execute();
}

/**
 * A renewal's payment failed: the plan is past due from the first failure, and each failed
 * attempt clears the "payment failed" mark so that sendPaymentFailedNotices mails once for it.
 * A failure for a period already paid (arriving late) changes nothing.
 */
async function paymentFailed(tx: Database, id: string, event: InvoicePaymentFailed, graceDays: number): Promise<BillingEventOutcome> {
  // A change of plan the card refused was not made (ADR 071): the plan is as it was.
  if (!event.renewal) return "ignored";
  await tx
    .updateTable("subscription")
    .set({
      billing_status: "past_due",
      past_due_since: sql`coalesce(past_due_since, ${iso(event.created)})`,
      // Access through the grace period (ADR 066, "Dunning"), from the first failure; the
      // provider retries on its own schedule and ends the subscription after its last try.
      grace_end: sql`coalesce(grace_end, ${iso(graceEnd(event.created, graceDays))})`,
      failed_attempts: event.attempt,
      next_retry_at: event.nextAttempt ? iso(event.nextAttempt) : null,
      failure_mailed_at: null,
      provider_state_at: iso(event.created),
    })
    .where("id", "=", id)
    .where("billing_status", "in", ["active", "past_due"])
    .where("access_end", "<", iso(event.periodEnd))
    .where(notOlderThan(event.created))
    .execute();
  return "applied";
}

/**
 * Mirrors a change made at the provider: cancelled at period end (or taken back), and its
 * status. The paid period moves only with a paid invoice, never here.
 */
async function subscriptionUpdated(tx: Database, id: string, event: SubscriptionUpdated): Promise<BillingEventOutcome> {
  if (event.status === "ended") return subscriptionDeleted(tx, id, { ...event, type: "subscription.deleted", endedAt: event.created });
  const current = () => tx.updateTable("subscription").where("id", "=", id).where(notOlderThan(event.created));
  if (event.cancelAtPeriodEnd) {
    await current()
      .set({
        billing_status: "cancel_at_period_end",
        cancelled_at: iso(event.created),
        notice_mailed_at: null,
        provider_state_at: iso(event.created),
      })
      .where("billing_status", "in", ["active", "past_due"])
      .execute();
  } else {
    await current()
      .set({
        billing_status: "active",
        cancelled_at: null,
        cancel_reason: null,
        notice_mailed_at: null,
        provider_state_at: iso(event.created),
      })
      .where("billing_status", "=", "cancel_at_period_end")
      .execute();
  }
  if (event.status === "past_due") {
    await current()
      .set({
        billing_status: "past_due",
        past_due_since: sql`coalesce(past_due_since, ${iso(event.created)})`,
        provider_state_at: iso(event.created),
      })
      .where("billing_status", "=", "active")
      .execute();
  }
  // Seen, even when it changed nothing: an older event arriving after it must change nothing either.
  await current()
    .set({ provider_state_at: iso(event.created) })
    .execute();
  return "applied";
}

/**
 * The subscription ended at the provider (at its period's end, or after its retries failed):
 * ended, once, with access to no later than its end; sendSubscriptionNotices mails it.
 */
async function subscriptionDeleted(tx: Database, id: string, event: SubscriptionDeleted): Promise<BillingEventOutcome> {
  await tx
    .updateTable("subscription")
    .set({
      billing_status: "ended",
      next_retry_at: null,
      notice_mailed_at: null,
      provider_state_at: iso(event.created),
      access_end: sql`case when access_end > ${iso(event.endedAt)} then ${iso(event.endedAt)} else access_end end`,
    })
    .where("id", "=", id)
    .where("billing_status", "!=", "ended")
    .execute();
  return "applied";
}
