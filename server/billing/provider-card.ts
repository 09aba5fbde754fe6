import type { Database } from "~/server/db/connection";
import type { CheckoutSession, PaymentProvider } from "~/server/payments/provider";

// Changing the card of a plan the provider renews (Stripe Billing, ADR 067): the reader saves a
// card on the provider's hosted page (a setup checkout: nothing charged), and the site makes it
// the one the provider's subscription renews with, then shows it.

interface RenewingPlan {
  id: string;
  provider_subscription_id: string;
  provider_customer_id: string;
}

async function renewingPlan(db: Database, userId: string): Promise<RenewingPlan | undefined> {
  const row = await db
    .selectFrom("subscription")
    .select(["id", "provider_subscription_id", "provider_customer_id"])
    .where("user_id", "=", userId)
    .where("source", "=", "web")
    .where("status", "=", "active")
    .where("billing_status", "in", ["active", "past_due", "cancel_at_period_end"])
    .where("provider_subscription_id", "is not", null)
    .where("provider_customer_id", "is not", null)
    .executeTakeFirst();
  return row as RenewingPlan | undefined;
}

/** Our reference for one card change of a plan: finishCardChange accepts only the reader's own. */
const changeReference = (subscriptionId: string, key: string) => `card:${subscriptionId}:${key}`;

/**
 * Opens the provider's page where the reader saves a new card for their renewing plan; undefined
 * when they have no plan the provider renews. `key` is one per showing of the form (the same key
 * opens the same page again). The provider appends the session id to `successUrl` (`session_id`),
 * for finishCardChange.
 */
export async function startCardChange(
  db: Database,
  provider: PaymentProvider,
  input: { userId: string; email: string; key: string; successUrl: string; cancelUrl: string },
): Promise<CheckoutSession | undefined> {
  const plan = await renewingPlan(db, input.userId);
  if (!plan) return undefined;
  return provider.createCheckout({
    reference: changeReference(plan.id, input.key),
    description: "Update the card your subscription renews with",
    amountCents: 0,
    currency: "usd",
    customerEmail: input.email,
    successUrl: input.successUrl,
    cancelUrl: input.cancelUrl,
    setup: true,
    customerId: plan.provider_customer_id,
  });
}

/**
 * Finishes a card change the reader came back from: asks the provider for the card the setup
 * session saved, makes it the subscription's default at the provider (keyed by the session, so
 * a reload changes it once), and shows it on our row. "pending" when the session saved no card.
 */
export async function finishCardChange(
  db: Database,
  provider: PaymentProvider,
  userId: string,
  sessionId: string,
): Promise<"changed" | "pending" | "no-plan"> {
  const plan = await renewingPlan(db, userId);
  if (!plan || !provider.subscriptions) return "no-plan";
  const { card, reference } = await provider.retrieveCheckout(sessionId);
  // Another reader's session (or another plan's) saved no card for this plan.
  if (!reference.startsWith(changeReference(plan.id, ""))) return "pending";
  if (!card) return "pending";
  await provider.subscriptions.setDefaultPaymentMethod(plan.provider_subscription_id, card.id, `card:${sessionId}`);
  await db
    .updateTable("subscription")
    .set({ payment_method_id: card.id, card_brand: card.brand, card_last4: card.last4 })
    .where("id", "=", plan.id)
    .where("user_id", "=", userId)
    .execute();
  return "changed";
}
