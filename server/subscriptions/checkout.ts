import crypto from "node:crypto";
import type { Database } from "~/server/db/connection";
import type { CheckoutStatus } from "~/server/db/schema";
import { endReplacedProviderPlans } from "~/server/billing/cancellation";
import { recordInvoice } from "~/server/billing/invoices";
import { billingAddressColumns, billingAddressOf, subscriptionTax, taxLabel } from "~/server/billing/tax";
import { billingAddressProblems, type BillingAddress, type BillingAddressField } from "~/shared/billing-address";
import type { PaymentEvent, PaymentProvider, PlanPrice, ProviderSubscriptionRef, SavedCard } from "~/server/payments/provider";
import { log } from "~/server/log";
import { grantSubscription } from "./entitlements";
import { findPlan, type Plan } from "./plans";

export interface SubscriptionCheckout {
  id: string;
  userId: string;
  plan: Plan;
  abTag: string;
  amountCents: number;
  /** The sales tax charged with the price, and how its line reads. */
  tax: { cents: number; label: string };
  status: CheckoutStatus;
  createdAt: string;
  activatedAt: string | null;
}

const ID = /^chk_[A-Za-z0-9_-]{22}$/;
/** The key the checkout form carries (see issueCheckoutKey). */
const CHECKOUT_KEY = /^[A-Za-z0-9_-]{22,64}$/;

/** A fresh key for each showing of the checkout form: posting that form again reuses its checkout. */
export const issueCheckoutKey = () => crypto.randomBytes(18).toString("base64url");

export type StartOutcome =
  | { ok: true; checkoutId: string; url: string }
  | { ok: false; problem: "bad-key" }
  | { ok: false; problem: "bad-address"; fields: Partial<Record<BillingAddressField, string>> };

/**
 * Starts paying for a plan: records the checkout with the billing address and the sales tax it
 * calls for (ADR 070), then opens the provider's hosted checkout for the price and that tax.
 * Returns where to send the reader. Once per form key: the same form posted again (a double
 * click, three at once) gets the same checkout and the same payment page. An address the rules
 * do not allow is refused, field by field.
 */
export async function startCheckout(
  db: Database,
  provider: PaymentProvider,
  input: {
    userId: string;
    email: string;
    plan: Plan;
    abTag: string;
    siteUrl: string;
    idempotencyKey: string;
    /** Whether plans renew (renewsThroughProvider): a provider that renews itself then starts a subscription. */
    renews?: boolean;
    billing: BillingAddress;
    /** Printed on the invoices when given. */
    company?: string | null;
    taxId?: string | null;
  },
  now = new Date(),
): Promise<StartOutcome> {
  if (!CHECKOUT_KEY.test(input.idempotencyKey)) return { ok: false, problem: "bad-key" };
  const problems = billingAddressProblems(input.billing);
  if (Object.keys(problems).length > 0) return { ok: false, problem: "bad-address", fields: problems };
  const tax = subscriptionTax(input.plan.priceCents, input.billing);
  const id = `chk_${crypto.randomBytes(16).toString("base64url")}`;
  const inserted = await db
    .insertInto("subscription_checkout")
    .values({
      id,
      user_id: input.userId,
      plan_id: input.plan.id,
      ab_tag: input.abTag,
      amount_cents: input.plan.priceCents,
      provider: provider.name,
      provider_session_id: null,
      status: "created",
      created_at: now.toISOString(),
      activated_at: null,
      idempotency_key: input.idempotencyKey,
      provider_checkout_url: null,
      company: input.company?.trim() || null,
      tax_id: input.taxId?.trim() || null,
      ...billingAddressColumns(input.billing),
      tax_cents: tax.cents,
      tax_rate_bp: tax.basisPoints,
    })
    .onConflict((oc) => oc.column("idempotency_key").doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) !== 1) return checkoutForKey(db, input.idempotencyKey, input.userId);
  try {
    const session = await provider.createCheckout({
      reference: id,
      description: `${input.plan.name} subscription, ${input.plan.period === "year" ? "yearly" : "monthly"}`,
      amountCents: input.plan.priceCents,
      ...(tax.rate ? { tax: { rate: tax.rate, cents: tax.cents } } : {}),
      currency: "usd",
      customerEmail: input.email,
      successUrl: `${input.siteUrl}/subscriptions/complete?checkout=${id}`,
      // Kept for the renewals the site charges itself; Stripe keeps its own (recurring).
      saveCard: provider.billing !== undefined,
      ...(input.renews ? { recurring: planPrice(input.plan) } : {}),
      cancelUrl: `${input.siteUrl}/subscriptions/checkout?plan=${input.plan.id}&ab=${encodeURIComponent(input.abTag)}`,
    });
    await db
      .updateTable("subscription_checkout")
      .set({ provider_session_id: session.id, provider_checkout_url: session.url })
      .where("id", "=", id)
      .execute();
    return { ok: true, checkoutId: id, url: session.url };
  } catch (error) {
    // The same form posted again is not left waiting for a page that will never open.
    await db.updateTable("subscription_checkout").set({ status: "failed" }).where("id", "=", id).execute();
    throw error;
  }
}

/** The plan's recurring price at a provider that renews: a new price is a new key. */
export const planPrice = (plan: Plan): PlanPrice => ({
  key: `plan:${plan.id}:${plan.priceCents}`,
  productName: `Meridian Review ${plan.name}`,
  interval: plan.period,
  planId: plan.id,
  amountCents: plan.priceCents,
});

/** The checkout an earlier post of the same form started: its payment page, once it is open. */
async function checkoutForKey(db: Database, key: string, userId: string): Promise<StartOutcome> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const row = await db
      .selectFrom("subscription_checkout")
      .select(["id", "user_id", "status", "provider_checkout_url"])
      .where("idempotency_key", "=", key)
      .executeTakeFirstOrThrow();
    if (row.user_id !== userId) return { ok: false, problem: "bad-key" };
    if (row.provider_checkout_url) return { ok: true, checkoutId: row.id, url: row.provider_checkout_url };
    if (row.status === "failed") throw new Error(`checkout ${row.id}: the payment page could not be opened`);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("timed out waiting for the checkout's payment page");
}

/** The reader's own checkout by id (someone else's, or an unknown id, is undefined). */
export async function findCheckout(db: Database, id: string, userId: string): Promise<SubscriptionCheckout | undefined> {
  if (!ID.test(id)) return undefined;
  const row = await db
    .selectFrom("subscription_checkout")
    .selectAll()
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  const plan = row && findPlan(row.plan_id);
  if (!row || !plan) return undefined;
  return {
    id: row.id,
    userId,
    plan,
    abTag: row.ab_tag,
    amountCents: row.amount_cents,
    tax: { cents: row.tax_cents, label: taxLabel(billingAddressOf(row), row.tax_rate_bp) },
    status: row.status,
    createdAt: row.created_at,
    activatedAt: row.activated_at,
  };
}

/**
 * Grants the subscription a paid checkout bought. Safe to call any number of times, at once
 * from several places (the completion cookie, the receipt, a replayed webhook): only the call
 * that moves the checkout to "activated" grants, and the grant itself is unique per checkout.
 * The new plan replaces the reader's current web plan; the time left on that one carries over.
 * With the card the provider saved, the plan renews by itself. The payment's invoice is written
 * in the same transaction (its receipt goes with the next sendPendingReceipts).
 */
export async function activateCheckout(
  db: Database,
  id: string,
  now = new Date(),
  card: SavedCard | null = null,
  providerSubscription: ProviderSubscriptionRef | null = null,
): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute((tx) => activateInTransaction(tx, id, now, card, providerSubscription));
    } catch (error) {
      // Two of the reader's checkouts activating at the same moment on PostgreSQL: the second
      // new plan met the first at the one-active-plan index. Run again, it replaces that one.
      if (attempt >= 3 || !isUniqueViolation(error)) throw error;
    }
  }
}

async function activateInTransaction(
  tx: Database,
  id: string,
  now: Date,
  card: SavedCard | null,
  providerSubscription: ProviderSubscriptionRef | null,
): Promise<boolean> {
  const row = await tx
    .selectFrom("subscription_checkout")
    .select(["user_id", "plan_id", "amount_cents", "company", "tax_id", "billing_country", "billing_region", "tax_cents", "tax_rate_bp"])
    .where("id", "=", id)
    .executeTakeFirst();
  const plan = row && findPlan(row.plan_id);
  // A checkout whose reader deleted their account is unlinked (ADR 089): nothing to activate.
  if (!row?.user_id || !plan) return false;
  const moved = await tx
    .updateTable("subscription_checkout")
    .set({ status: "activated", activated_at: now.toISOString() })
    .where("id", "=", id)
    .where("status", "!=", "activated")
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) !== 1) return false;
  const granted = await grantSubscription(
    tx,
    {
      userId: row.user_id,
      roleCode: plan.roleCode,
      source: "web",
      reference: id,
      accessStart: now,
      months: plan.months,
      planId: plan.id,
      card,
      providerSubscription,
    },
    now,
  );
  if (!granted) return false;
  // The subscription's later charges are taxed for the address given at checkout.
  const subscription = await tx
    .updateTable("subscription")
    .set(billingAddressColumns(billingAddressOf(row)))
    .where("reference", "=", id)
    .returning(["id", "access_start", "access_end"])
    .executeTakeFirstOrThrow();
  await recordInvoice(
    tx,
    {
      subscription_id: subscription.id,
      user_id: row.user_id,
      payment_key: id,
      kind: "purchase",
      plan_id: plan.id,
      amount_cents: row.amount_cents,
      tax_cents: row.tax_cents,
      tax_rate_bp: row.tax_rate_bp,
      billing_country: row.billing_country,
      billing_region: row.billing_region,
      period_start: subscription.access_start,
      period_end: subscription.access_end,
      company: row.company,
      tax_id: row.tax_id,
      card_brand: card?.brand ?? null,
      card_last4: card?.last4 ?? null,
    },
    now,
  );
  return true;
}

const isUniqueViolation = (error: unknown) => {
  const code = (error as { code?: string }).code;
  return code === "23505" || code === "SQLITE_CONSTRAINT_UNIQUE";
};

export type Settlement = "activated" | "pending" | "unknown";

/**
 * Completes a checkout the reader has come back from: asks the provider whether it was paid
 * and, if so, activates it. "pending" means the provider does not report it paid (yet).
 */
export async function settleCheckout(
  db: Database,
  provider: PaymentProvider,
  id: string,
  userId: string,
  now = new Date(),
): Promise<Settlement> {
  const checkout = await findCheckout(db, id, userId);
  if (!checkout) return "unknown";
  if (checkout.status === "activated") return "activated";
  const row = await db.selectFrom("subscription_checkout").select("provider_session_id").where("id", "=", id).executeTakeFirstOrThrow();
  if (!row.provider_session_id) return "pending";
  const state = await provider.retrieveCheckout(row.provider_session_id);
  if (!state.paid || state.reference !== id) return "pending";
  await activateCheckout(db, id, now, state.card ?? null, state.subscription ?? null);
  await endReplaced(db, provider, userId);
  return "activated";
}

/** After a plan is granted: the plan it replaced must not go on renewing at the provider. */
async function endReplaced(db: Database, provider: PaymentProvider, userId: string): Promise<void> {
  if (provider.subscriptions) await endReplacedProviderPlans(db, userId, provider.subscriptions);
}

/**
 * A provider's signed callback: activates the checkout a completed payment was for. A
 * subscription the provider renews names its card only when asked (Stripe's events carry ids),
 * so the provider is asked for it.
 */
export async function handlePaymentEvent(
  db: Database,
  event: PaymentEvent,
  now = new Date(),
  provider?: PaymentProvider,
): Promise<"activated" | "ignored"> {
  if (event.type !== "checkout.completed" || !event.paid || !ID.test(event.reference)) return "ignored";
  let card = event.card ?? null;
  if (event.subscription && !card && provider) card = (await provider.retrieveCheckout(event.sessionId)).card ?? null;
  const activated = await activateCheckout(db, event.reference, now, card, event.subscription ?? null);
  // Also when a return trip activated it first: the plan replaced may not have been ended then.
  if (provider) {
    const checkout = await db.selectFrom("subscription_checkout").select("user_id").where("id", "=", event.reference).executeTakeFirst();
    // None, or unlinked: its reader deleted their account before the payment came (ADR 089).
    if (checkout?.user_id) await endReplaced(db, provider, checkout.user_id);
    else log.warn("a payment came for a checkout whose account was deleted: refund it at the provider", { checkout: event.reference });
  }
  return activated ? "activated" : "ignored";
}
