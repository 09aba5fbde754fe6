import type { Database } from "~/server/db/connection";
import type { ProviderSubscriptions } from "~/server/payments/provider";
import { billingAddressProblems, type BillingAddress, type BillingAddressField } from "~/shared/billing-address";
import { billingAddressColumns, billingAddressOf, subscriptionTax } from "./tax";

// A subscriber's billing address, which the sales tax on their charges follows (ADR 070).

/** The reader's billing address as last given: their renewing web plan's, else their latest checkout's; null when none. */
export async function latestBillingAddress(db: Database, userId: string): Promise<BillingAddress | null> {
  const [subscription, checkout] = await Promise.all([
    db
      .selectFrom("subscription")
      .select(["billing_country", "billing_region"])
      .where("user_id", "=", userId)
      .where("source", "=", "web")
      .where("status", "=", "active")
      .where("billing_country", "is not", null)
      .orderBy("access_end", "desc")
      .executeTakeFirst(),
    db
      .selectFrom("subscription_checkout")
      .select(["billing_country", "billing_region"])
      .where("user_id", "=", userId)
      .where("billing_country", "is not", null)
      .orderBy("created_at", "desc")
      .executeTakeFirst(),
  ]);
  return billingAddressOf(subscription ?? checkout ?? { billing_country: null, billing_region: null });
}

export type AddressChangeOutcome =
  "changed" | "no-renewing-plan" | { problem: "bad-address"; fields: Partial<Record<BillingAddressField, string>> };

/**
 * Puts a new billing address on the reader's renewing web plan (active, past due, or cancelled
 * but still running). It applies to the charges made from now on: the next renewal, a retry, an
 * upgrade; invoices already written keep the address and tax they were charged with. For a plan
 * the provider renews (Stripe Billing), the subscription's default tax rate is set there first,
 * so that the provider never taxes a renewal for an address the subscriber has left.
 */
export async function changeBillingAddress(
  db: Database,
  userId: string,
  address: BillingAddress,
  now: Date,
  provider?: ProviderSubscriptions,
): Promise<AddressChangeOutcome> {
  const problems = billingAddressProblems(address);
  if (Object.keys(problems).length > 0) return { problem: "bad-address", fields: problems };
  const row = await db
    .selectFrom("subscription")
    .select(["id", "provider_subscription_id"])
    .where("user_id", "=", userId)
    .where("source", "=", "web")
    .where("status", "=", "active")
    .where("billing_status", "in", ["active", "past_due", "cancel_at_period_end"])
    .executeTakeFirst();
  if (!row) return "no-renewing-plan";
  if (row.provider_subscription_id) {
    if (!provider) throw new Error("a subscription the provider renews can only be changed through the provider");
    const rate = subscriptionTax(0, address).rate;
    // Setting the same rates twice is harmless; the key makes one request's retry one change.
    const key = `tax-rate:${row.provider_subscription_id}:${rate?.key ?? "none"}:${now.toISOString()}`;
    await provider.setTaxRate(row.provider_subscription_id, rate, key);
  }
  await db.updateTable("subscription").set(billingAddressColumns(address)).where("id", "=", row.id).execute();
  return "changed";
}
