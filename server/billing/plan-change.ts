import type { Database } from "~/server/db/connection";
import { log } from "~/server/log";
import type { Period, PaymentProvider, ProviderSubscriptions, RecurringBilling } from "~/server/payments/provider";
import { planPrice } from "~/server/subscriptions/checkout";
import { addMonths } from "~/server/subscriptions/entitlements";
import { findPlan, type Plan } from "~/server/subscriptions/plans";
import { byRank } from "~/server/subscriptions/tiers";
import { recordInvoice } from "./invoices";
import { applyPaidInvoice } from "./stripe-events";
import { billingAddressOf, invoiceTaxColumns, subscriptionTax, type SubscriptionTax } from "./tax";
import type { BillingAddress } from "~/shared/billing-address";

// Changing a renewing plan (ADR 066, "Changing plan"; ADR 071 for plans Stripe renews). An
// upgrade (a higher tier) starts at once: the reader pays the new plan's price for the rest of
// the period, less the unused part of what they paid, both to the second and rounded to the
// cent, as quoted. Moving from a monthly to a yearly plan starts a new year now. A downgrade
// starts at the next renewal, which charges the new plan. The site's billing charges a plan it
// renews; Stripe makes the same change, to the same cent, on a plan it renews.

/** How long a quote may be confirmed for: its figures are those of the moment it was made. */
const QUOTE_VALID_MS = 60 * 60 * 1000;

export interface PlanChangeQuote {
  kind: "upgrade" | "downgrade";
  from: Plan;
  to: Plan;
  /** The moment the figures are worked out for; confirming the upgrade sends it back. */
  quotedAt: string;
  /** The new plan for the rest of the period (upgrade). */
  newPlanCents: number;
  /** The unused part of the current period, credited (upgrade). */
  creditCents: number;
  /** What is charged now: newPlanCents − creditCents (0 for a downgrade), and the sales tax added to it. */
  amountCents: number;
  tax: SubscriptionTax;
  /** The sales tax on the new plan's price at each renewal. */
  renewalTax: SubscriptionTax;
  /** When the new plan starts (now, or the next renewal), and the end of the period it then runs to. */
  startsAt: string;
  periodEnd: string;
}

interface Renewing {
  id: string;
  user_id: string;
  plan_id: string | null;
  scheduled_plan_id: string | null;
  access_end: string;
  payment_method_id: string | null;
  card_brand: string | null;
  card_last4: string | null;
  pending_change: string | null;
  provider_subscription_id: string | null;
  company: string | null;
  tax_id: string | null;
  billing_country: string | null;
  billing_region: string | null;
}

/** What changes a plan: the site's billing for a plan it renews, the provider for one it renews itself. */
export type PlanChanger = Pick<PaymentProvider, "billing" | "subscriptions">;

const renewing = (db: Database) =>
  db
    .selectFrom("subscription")
    .leftJoin("subscription_checkout", "subscription_checkout.id", "subscription.reference")
    .select([
      "subscription.id",
      "subscription.user_id",
      "subscription.plan_id",
      "subscription.scheduled_plan_id",
      "subscription.access_end",
      "subscription.payment_method_id",
      "subscription.card_brand",
      "subscription.card_last4",
      "subscription.pending_change",
      "subscription.provider_subscription_id",
      "subscription_checkout.company",
      "subscription_checkout.tax_id",
      "subscription.billing_country",
      "subscription.billing_region",
    ])
    .where("subscription.source", "=", "web")
    .where("subscription.status", "=", "active")
    .where("subscription.billing_status", "=", "active")
    .where("subscription.user_id", "is not", null)
    .$narrowType<{ user_id: string }>();

/** The current period of a plan the site renews: it ends at access_end and began one interval before. */
const ownPeriod = (accessEnd: string, plan: Plan): Period => ({
  start: addMonths(new Date(accessEnd), -plan.months),
  end: new Date(accessEnd),
});

/** Quotes are to the second, as Stripe prorates: a moment with its milliseconds dropped. */
const toTheSecond = (at: Date) => new Date(Math.floor(at.getTime() / 1000) * 1000);

/** The figures of moving from plan `from`, in its current `period`, to `to` as of `at` (a whole second), taxed for the billing `address`. */
export function quoteFor(from: Plan, to: Plan, period: Period, at: Date, address: BillingAddress | null): PlanChangeQuote {
  const kind = byRank(to.roleCode, from.roleCode) < 0 ? "upgrade" : "downgrade";
  const quotedAt = at.toISOString();
  const renewalTax = subscriptionTax(to.priceCents, address);
  if (kind === "downgrade")
    return {
      kind,
      from,
      to,
      quotedAt,
      newPlanCents: 0,
      creditCents: 0,
      amountCents: 0,
      tax: subscriptionTax(0, address),
      renewalTax,
      startsAt: period.end.toISOString(),
      periodEnd: addMonths(period.end, to.months).toISOString(),
    };
  const end = period.end.getTime();
  const start = period.start.getTime();
  // Each figure rounded on its own, as Stripe rounds each line of its invoice.
  const unused = Math.max(0, Math.min(end - at.getTime(), end - start)) / (end - start);
  const creditCents = Math.round(from.priceCents * unused);
  const sameInterval = from.months === to.months;
  const newPlanCents = sameInterval ? Math.round(to.priceCents * unused) : to.priceCents;
  const amountCents = Math.max(0, newPlanCents - creditCents);
  const lineTax = (cents: number) => subscriptionTax(cents, address).cents;
  return {
    kind,
    from,
    to,
    quotedAt,
    newPlanCents,
    creditCents,
    amountCents,
    // Taxed line by line, as Stripe taxes the two lines of its proration invoice.
    tax: { ...subscriptionTax(amountCents, address), cents: Math.max(0, lineTax(newPlanCents) - lineTax(creditCents)) },
    renewalTax,
    startsAt: quotedAt,
    periodEnd: sameInterval ? period.end.toISOString() : addMonths(at, to.months).toISOString(),
  };
}

export type QuoteOutcome = PlanChangeQuote | "no-renewing-plan" | "same-plan" | "unknown-plan";

/** The reader's renewing plan, active and not over by `at`, and the plan it is on. */
async function renewingPlanOf(db: Database, userId: string, at: Date) {
  const current = await renewing(db).where("subscription.user_id", "=", userId).executeTakeFirst();
  const from = current && findPlan(current.plan_id ?? "");
  return current && from && current.access_end > at.toISOString() ? { current, from } : undefined;
}

/**
 * Whether choosing `toPlanId` is a change of the reader's renewing plan, made in Subscription
 * and billing rather than by buying another: "same-plan" when it is the plan they have, null
 * when they have no renewing plan (or no such plan exists).
 */
export async function renewingPlanChoice(db: Database, userId: string, toPlanId: string, at: Date): Promise<"change" | "same-plan" | null> {
  const renewingPlan = findPlan(toPlanId) && (await renewingPlanOf(db, userId, at));
  if (!renewingPlan) return null;
  return renewingPlan.from.id === toPlanId ? "same-plan" : "change";
}

/**
 * What changing the reader's renewing plan to `toPlanId` would mean now (the provider's time).
 * A plan the provider renews is quoted on the period the provider bills, which it is asked for.
 */
export async function quotePlanChange(
  db: Database,
  userId: string,
  toPlanId: string,
  now: Date,
  subscriptions?: ProviderSubscriptions,
): Promise<QuoteOutcome> {
  const to = findPlan(toPlanId);
  if (!to) return "unknown-plan";
  const renewingPlan = await renewingPlanOf(db, userId, now);
  if (!renewingPlan) return "no-renewing-plan";
  const { current, from } = renewingPlan;
  if (from.id === to.id) return "same-plan";
  const period = current.provider_subscription_id
    ? (await atProvider(subscriptions).retrievePlan(current.provider_subscription_id)).period
    : ownPeriod(current.access_end, from);
  return quoteFor(from, to, period, toTheSecond(now), billingAddressOf(current));
}

function atProvider(subscriptions: ProviderSubscriptions | undefined): ProviderSubscriptions {
  if (!subscriptions) throw new Error("a plan the provider renews changes only through the provider");
  return subscriptions;
}

export type ChangeOutcome = "upgraded" | "scheduled" | "declined" | "stale" | "unchanged";

/**
 * Makes the change quoted at `quotedAt`: an upgrade charges the quoted amount to the card on
 * file with a key naming the quote, and then moves the plan and writes the invoice; a downgrade
 * is set for the next renewal. A plan the provider renews is changed there (changeAtProvider).
 * "stale": the quote is too old, from the future, or the plan or its period has changed since
 * (the reader is shown a new one); "unchanged": nothing to change, or the same change is
 * already being made (a double submit).
 */
export async function changePlan(
  db: Database,
  provider: PlanChanger,
  userId: string,
  toPlanId: string,
  quotedAt: string,
  now: Date,
): Promise<ChangeOutcome> {
  const asSent = new Date(quotedAt);
  if (Number.isNaN(asSent.getTime()) || asSent.getTime() > now.getTime() || now.getTime() - asSent.getTime() > QUOTE_VALID_MS)
    return "stale";
  const quoted = toTheSecond(asSent);
  const to = findPlan(toPlanId);
  const current = await renewing(db).where("subscription.user_id", "=", userId).executeTakeFirst();
  const from = current && findPlan(current.plan_id ?? "");
  if (!to || !current || !from || from.id === to.id) return "unchanged";
  if (current.access_end <= quoted.toISOString()) return "stale";
  if (current.provider_subscription_id)
    return changeAtProvider(
      db,
      atProvider(provider.subscriptions),
      { ...current, provider_subscription_id: current.provider_subscription_id },
      from,
      to,
      quoted,
      now,
    );
  const quote = quoteFor(from, to, ownPeriod(current.access_end, from), quoted, billingAddressOf(current));
  if (quote.kind === "downgrade") return scheduleDowngrade(db, current, from, to);
  if (!provider.billing) throw new Error("a plan the site renews changes only through the site's billing");
  const key = `upgrade:${current.id}:${to.id}:${quote.quotedAt}`;
  // Claimed before the charge: a second submit, another change or the renewal run leave it alone
  // until it is applied, and a run after a crash here finishes it (finishPlanChanges).
  const claimed = await db
    .updateTable("subscription")
    .set({ pending_change: key })
    .where("id", "=", current.id)
    .where("billing_status", "=", "active")
    .where("plan_id", "=", from.id)
    .where("access_end", "=", current.access_end)
    .where("pending_change", "is", null)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return "unchanged";
  return completeUpgrade(db, provider.billing, { ...current, pending_change: key }, now);
}

/** The downgrade is set for the next renewal, while the plan is still the one it was chosen from. */
async function scheduleDowngrade(db: Database, current: Renewing, from: Plan, to: Plan): Promise<"scheduled" | "unchanged"> {
  const set = await db
    .updateTable("subscription")
    .set({ scheduled_plan_id: to.id })
    .where("id", "=", current.id)
    .where("billing_status", "=", "active")
    .where("plan_id", "=", from.id)
    .executeTakeFirst();
  return Number(set.numUpdatedRows) === 1 ? "scheduled" : "unchanged";
}

/**
 * The change on a plan the provider renews (ADR 071), quoted on the period the provider bills.
 * An upgrade asks the provider to change the plan now, prorated as of the quote's moment, and
 * is applied from the paid invoice it answers (the invoice's event, arriving too, changes nothing
 * more); a decline changes nothing. A downgrade is set at the provider for the renewal, which
 * then switches the plan. Keys derived from the subscription and the quote make a confirmation
 * sent twice one change at the provider.
 */
async function changeAtProvider(
  db: Database,
  subscriptions: ProviderSubscriptions,
  current: Renewing & { provider_subscription_id: string },
  from: Plan,
  to: Plan,
  quoted: Date,
  now: Date,
): Promise<ChangeOutcome> {
  const subscriptionId = current.provider_subscription_id;
  const plan = await subscriptions.retrievePlan(subscriptionId);
  // Quoted in a period that has since renewed (or, on a test clock, not begun): quote again.
  if (quoted < plan.period.start || quoted >= plan.period.end) return "stale";
  const quote = quoteFor(from, to, plan.period, quoted, billingAddressOf(current));
  const idempotencyKey = `${quote.kind}:${subscriptionId}:${to.id}:${quote.quotedAt}`;
  if (quote.kind === "downgrade") {
    await subscriptions.changePlanAtRenewal({ subscriptionId, current: plan, from: planPrice(from), to: planPrice(to), idempotencyKey });
    return scheduleDowngrade(db, current, from, to);
  }
  const change = await subscriptions.changePlanNow({
    subscriptionId,
    current: plan,
    to: planPrice(to),
    prorationDate: quoted,
    newPeriod: from.months !== to.months,
    idempotencyKey,
  });
  if (change.status === "declined") return "declined";
  if (change.invoice.amountCents !== quote.amountCents)
    log.warn("the provider charged a plan change otherwise than quoted", {
      subscription: current.id,
      quotedCents: quote.amountCents,
      chargedCents: change.invoice.amountCents,
    });
  await applyPaidInvoice(db, subscriptionId, change.invoice, now);
  return "upgraded";
}

/** Takes back a downgrade set for the next renewal (at the provider first, for a plan it renews). */
export async function keepCurrentPlan(db: Database, userId: string, subscriptions?: ProviderSubscriptions): Promise<boolean> {
  const scheduled = await db
    .selectFrom("subscription")
    .select("provider_subscription_id")
    .where("user_id", "=", userId)
    .where("status", "=", "active")
    .where("scheduled_plan_id", "is not", null)
    .executeTakeFirst();
  if (!scheduled) return false;
  if (scheduled.provider_subscription_id) await atProvider(subscriptions).keepPlan(scheduled.provider_subscription_id);
  const kept = await db
    .updateTable("subscription")
    .set({ scheduled_plan_id: null })
    .where("user_id", "=", userId)
    .where("status", "=", "active")
    .where("scheduled_plan_id", "is not", null)
    .executeTakeFirst();
  return Number(kept.numUpdatedRows) === 1;
}

/** Charges and applies a claimed upgrade, from what its key names; the same key charges once. */
async function completeUpgrade(
  db: Database,
  billing: RecurringBilling,
  row: Renewing,
  at: Date,
): Promise<"upgraded" | "declined" | "unchanged"> {
  const key = row.pending_change!;
  const [, , toId, ...quotedAtParts] = key.split(":");
  const from = findPlan(row.plan_id ?? "");
  const to = findPlan(toId ?? "");
  if (!from || !to || !row.payment_method_id) throw new Error(`upgrade ${key} names no plan or card`);
  const quote = quoteFor(from, to, ownPeriod(row.access_end, from), new Date(quotedAtParts.join(":")), billingAddressOf(row));
  const charge =
    quote.amountCents > 0
      ? await billing.charge({ cardId: row.payment_method_id, amountCents: quote.amountCents + quote.tax.cents, idempotencyKey: key })
      : { status: "succeeded" as const };
  const claimedBy = (eb: Database) => eb.updateTable("subscription").where("id", "=", row.id).where("pending_change", "=", key);
  if (charge.status === "declined") {
    await claimedBy(db).set({ pending_change: null }).execute();
    return "declined";
  }
  return db.transaction().execute(async (tx) => {
    const moved = await claimedBy(tx)
      .set({ plan_id: to.id, role_code: to.roleCode, access_end: quote.periodEnd, scheduled_plan_id: null, pending_change: null })
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) return "unchanged";
    await recordInvoice(
      tx,
      {
        subscription_id: row.id,
        user_id: row.user_id,
        payment_key: key,
        kind: "upgrade",
        plan_id: to.id,
        amount_cents: quote.amountCents,
        ...invoiceTaxColumns(quote.tax, billingAddressOf(row)),
        period_start: quote.startsAt,
        period_end: quote.periodEnd,
        company: row.company,
        tax_id: row.tax_id,
        card_brand: row.card_brand,
        card_last4: row.card_last4,
      },
      at,
    );
    return "upgraded";
  });
}

/** Finishes upgrades claimed by a process that stopped before applying them; answers how many were applied. */
export async function finishPlanChanges(db: Database, billing: RecurringBilling, at: Date): Promise<number> {
  const pending = await renewing(db).where("subscription.pending_change", "is not", null).execute();
  let applied = 0;
  for (const row of pending) if ((await completeUpgrade(db, billing, row, at)) === "upgraded") applied++;
  return applied;
}
