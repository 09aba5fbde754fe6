import type { Database } from "~/server/db/connection";
import type { RecurringBilling } from "~/server/payments/provider";
import { addMonths } from "~/server/subscriptions/entitlements";
import { findPlan, type Plan } from "~/server/subscriptions/plans";
import { byRank } from "~/server/subscriptions/tiers";
import { recordInvoice } from "./invoices";
import { billingAddressOf, invoiceTaxColumns, subscriptionTax, type SubscriptionTax } from "./tax";
import type { BillingAddress } from "~/shared/billing-address";

// Changing a renewing plan (ADR 066, "Changing plan"). An upgrade (a higher tier) starts at
// once: the reader pays the new plan's price for the rest of the period, less the unused part
// of what they paid, both to the second and rounded to the cent, as quoted. Moving from a
// monthly to a yearly plan starts a new year now. A downgrade starts at the next renewal, which
// charges the new plan.

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
  company: string | null;
  tax_id: string | null;
  billing_country: string | null;
  billing_region: string | null;
}

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
      "subscription_checkout.company",
      "subscription_checkout.tax_id",
      "subscription.billing_country",
      "subscription.billing_region",
    ])
    .where("subscription.source", "=", "web")
    .where("subscription.status", "=", "active")
    .where("subscription.billing_status", "=", "active")
    // A plan Stripe renews changes by buying the other (its Stripe subscription then ends, ADR 067):
    // the prorated change charges through the site's own billing, which Stripe plans do not use.
    .where("subscription.provider_subscription_id", "is", null);

/** The figures of moving `subscription` from its plan to `to` as of `at`, taxed for its billing address. */
export function quoteFor(from: Plan, to: Plan, accessEnd: string, at: Date, address: BillingAddress | null): PlanChangeQuote {
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
      startsAt: accessEnd,
      periodEnd: addMonths(new Date(accessEnd), to.months).toISOString(),
    };
  const end = new Date(accessEnd).getTime();
  const start = addMonths(new Date(accessEnd), -from.months).getTime();
  const unused = Math.max(0, Math.min(end - at.getTime(), end - start)) / (end - start);
  const creditCents = Math.round(from.priceCents * unused);
  const sameInterval = from.months === to.months;
  const newPlanCents = sameInterval ? Math.round(to.priceCents * unused) : to.priceCents;
  const amountCents = Math.max(0, newPlanCents - creditCents);
  return {
    kind,
    from,
    to,
    quotedAt,
    newPlanCents,
    creditCents,
    amountCents,
    tax: subscriptionTax(amountCents, address),
    renewalTax,
    startsAt: quotedAt,
    periodEnd: sameInterval ? accessEnd : addMonths(at, to.months).toISOString(),
  };
}

export type QuoteOutcome = PlanChangeQuote | "no-renewing-plan" | "same-plan" | "unknown-plan";

/** What changing the reader's renewing plan to `toPlanId` would mean now (the provider's time). */
export async function quotePlanChange(db: Database, userId: string, toPlanId: string, at: Date): Promise<QuoteOutcome> {
  const to = findPlan(toPlanId);
  if (!to) return "unknown-plan";
  const current = await renewing(db).where("subscription.user_id", "=", userId).executeTakeFirst();
  const from = current && findPlan(current.plan_id ?? "");
  if (!current || !from || current.access_end <= at.toISOString()) return "no-renewing-plan";
  if (from.id === to.id) return "same-plan";
  return quoteFor(from, to, current.access_end, at, billingAddressOf(current));
}

export type ChangeOutcome = "upgraded" | "scheduled" | "declined" | "stale" | "unchanged";

/**
 * Makes the change quoted at `quotedAt`: an upgrade charges the quoted amount to the card on
 * file with a key naming the quote, and then moves the plan and writes the invoice; a downgrade
 * is set for the next renewal. "stale": the quote is too old, from the future, or the plan has
 * changed since (the reader is shown a new one); "unchanged": nothing to change, or the same
 * change is already being made (a double submit).
 */
export async function changePlan(
  db: Database,
  billing: RecurringBilling,
  userId: string,
  toPlanId: string,
  quotedAt: string,
  at: Date,
): Promise<ChangeOutcome> {
  const quoted = new Date(quotedAt);
  if (Number.isNaN(quoted.getTime()) || quoted.getTime() > at.getTime() || at.getTime() - quoted.getTime() > QUOTE_VALID_MS) return "stale";
  const to = findPlan(toPlanId);
  const current = await renewing(db).where("subscription.user_id", "=", userId).executeTakeFirst();
  const from = current && findPlan(current.plan_id ?? "");
  if (!to || !current || !from || from.id === to.id) return "unchanged";
  if (current.access_end <= quoted.toISOString()) return "stale";
  const quote = quoteFor(from, to, current.access_end, quoted, billingAddressOf(current));
  if (quote.kind === "downgrade") {
    const set = await db
      .updateTable("subscription")
      .set({ scheduled_plan_id: to.id })
      .where("id", "=", current.id)
      .where("billing_status", "=", "active")
      .where("plan_id", "=", from.id)
      .executeTakeFirst();
    return Number(set.numUpdatedRows) === 1 ? "scheduled" : "unchanged";
  }
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
  return completeUpgrade(db, billing, { ...current, pending_change: key }, at);
}

/** Takes back a downgrade set for the next renewal. */
export async function keepCurrentPlan(db: Database, userId: string): Promise<boolean> {
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
  const quote = quoteFor(from, to, row.access_end, new Date(quotedAtParts.join(":")), billingAddressOf(row));
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
