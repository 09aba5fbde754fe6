import crypto from "node:crypto";
import type { Database } from "~/server/db/connection";
import type { PaymentProvider } from "~/server/payments/provider";
import { findPlan } from "~/server/subscriptions/plans";
import { chargePeriod, chargeableSubscription } from "./renewals";

/** A card change's checkout reference: the subscription it is for, and a nonce of its own. */
export const CARD_CHANGE = /^card:([0-9a-f-]{36}):[A-Za-z0-9_-]{16}$/;

/** The reader's renewing web plan whose card can be changed: active, past due, or cancelled but still running. */
const changeable = (db: Database, userId: string) =>
  db
    .selectFrom("subscription")
    .select(["id", "plan_id", "provider_subscription_id", "provider_customer_id"])
    .where("user_id", "=", userId)
    .where("source", "=", "web")
    .where("status", "=", "active")
    .where("billing_status", "in", ["active", "past_due", "cancel_at_period_end"])
    .executeTakeFirst();

/**
 * Opens the provider's hosted page where the reader puts a new card on file for their renewing
 * plan, charging nothing there; null when they have no such plan. The reader comes back to
 * /my-account/billing/card with the session's id.
 */
export async function startCardChange(
  db: Database,
  provider: PaymentProvider,
  reader: { userId: string; email: string },
  siteUrl: string,
): Promise<{ url: string } | null> {
  const subscription = await changeable(db, reader.userId);
  if (!subscription) return null;
  const plan = findPlan(subscription.plan_id ?? "");
  const session = await provider.createCheckout({
    reference: `card:${subscription.id}:${crypto.randomBytes(12).toString("base64url")}`,
    description: `New card for your ${plan?.name ?? "Meridian Review"} subscription`,
    amountCents: 0,
    currency: "usd",
    customerEmail: reader.email,
    successUrl: `${siteUrl}/my-account/billing/card`,
    cancelUrl: `${siteUrl}/my-account/billing`,
    setup: true,
    // A plan the provider renews (Stripe Billing): the card is saved for its customer.
    ...(subscription.provider_customer_id ? { customerId: subscription.provider_customer_id } : {}),
  });
  return { url: session.url };
}

/**
 * "updated": the new card is on file; "paid": and the overdue renewal it was charged at once
 * went through, so the plan is active again; "declined": the card is on file but refused the
 * overdue payment (the retries go on); "unknown": no saved card for this reader in that session.
 */
export type CardChangeOutcome = "updated" | "paid" | "declined" | "unknown";

/**
 * Puts the card saved in the provider's session on file for its subscription, and when that
 * subscription is past due charges the overdue renewal to it at once. `userId` is the signed-in
 * reader coming back from the provider (their own subscription only), or null for the provider's
 * signed callback. Both may arrive, in either order, and again: each session puts its card on file
 * once (so replaying an older one cannot bring its card back), and the charge's key names the
 * card, so it is charged once.
 */
export async function finishCardChange(
  db: Database,
  provider: PaymentProvider,
  sessionId: string,
  userId: string | null,
  realNow: Date,
  graceDays: number,
): Promise<CardChangeOutcome> {
  const session = await provider.retrieveCheckout(sessionId);
  const subscriptionId = CARD_CHANGE.exec(session.reference)?.[1];
  if (!session.paid || !session.card || !subscriptionId) return "unknown";
  const owner = await db
    .selectFrom("subscription")
    .select(["user_id", "provider_subscription_id"])
    .where("id", "=", subscriptionId)
    .executeTakeFirst();
  if (!owner?.user_id || (userId !== null && owner.user_id !== userId)) return "unknown";
  const card = session.card;
  // A plan the provider renews (Stripe Billing, ADR 067): the provider charges the new card from
  // now on; keyed by the session, so the return and the callback set it once.
  if (owner.provider_subscription_id && provider.subscriptions)
    await provider.subscriptions.setDefaultPaymentMethod(owner.provider_subscription_id, card.id, `card:${session.id}`);
  await db.transaction().execute(async (tx) => {
    const first = await tx
      .insertInto("card_change")
      .values({ session_id: session.id, subscription_id: subscriptionId, payment_method_id: card.id, applied_at: realNow.toISOString() })
      .onConflict((oc) => oc.column("session_id").doNothing())
      .executeTakeFirst();
    if (Number(first.numInsertedOrUpdatedRows ?? 0) !== 1) return;
    await tx
      .updateTable("subscription")
      .set({ payment_method_id: card.id, card_brand: card.brand, card_last4: card.last4 })
      .where("id", "=", subscriptionId)
      .where("status", "=", "active")
      .execute();
  });
  if (owner.provider_subscription_id && provider.subscriptions) {
    // The provider tries its unpaid invoice again at once; its invoice.paid event then renews the plan here.
    const overdue = await provider.subscriptions.payOverdue(owner.provider_subscription_id, `pay-overdue:${session.id}`);
    return overdue === "none" ? "updated" : overdue;
  }
  const due = await chargeableSubscription(db, owner.user_id, subscriptionId);
  if (!provider.billing || due?.billing_status !== "past_due" || due.payment_method_id !== card.id)
    return (await paidWith(db, subscriptionId, card.id)) ? "paid" : "updated";
  const at = await provider.billing.now(realNow);
  const outcome = await chargePeriod(db, provider.billing, due, at, graceDays, true);
  return outcome === "declined" ? "declined" : "paid";
}

/** Whether an overdue renewal was charged to this card when it was put on file (the return and the callback each answer so). */
async function paidWith(db: Database, subscriptionId: string, cardId: string): Promise<boolean> {
  const invoice = await db
    .selectFrom("invoice")
    .select("id")
    .where("subscription_id", "=", subscriptionId)
    .where("payment_key", "like", `renewal:${subscriptionId}:%:card:${cardId}`)
    .executeTakeFirst();
  return Boolean(invoice);
}
