import type { Database } from "~/server/db/connection";
import type { ProviderSubscriptions } from "~/server/payments/provider";
import type { CancelReason } from "~/shared/cancel-reasons";

export type CancelOutcome = "cancelled" | "unchanged";

// Every change below is one update conditional on the state it starts from, so a double submit,
// a replayed post or two instances at once change a subscription once (ADR 066, "Cancellation").

/**
 * Cancels the reader's renewing plan at the end of its paid period: it is no longer charged, and
 * access runs to `access_end`. "unchanged" when there is nothing to cancel (already cancelled,
 * not renewing, or its period over by `now`).
 */
export async function cancelAtPeriodEnd(
  db: Database,
  userId: string,
  reason: CancelReason | null,
  now: Date,
  provider?: ProviderSubscriptions,
): Promise<CancelOutcome> {
  await tellProvider(db, userId, "active", true, now, provider);
  const updated = await db
    .updateTable("subscription")
    .set({
      billing_status: "cancel_at_period_end",
      cancelled_at: now.toISOString(),
      cancel_reason: reason,
      notice_mailed_at: null,
      provider_state_at: now.toISOString(),
      // Nothing renews, so a downgrade set for the renewal goes too (Stripe's schedule is released).
      scheduled_plan_id: null,
    })
    .where("user_id", "=", userId)
    .where("source", "=", "web")
    .where("status", "=", "active")
    .where("billing_status", "=", "active")
    .where("access_end", ">", now.toISOString())
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1 ? "cancelled" : "unchanged";
}

/** Takes a cancellation back before the period ends: the plan renews again. */
export async function resumeSubscription(
  db: Database,
  userId: string,
  now: Date,
  provider?: ProviderSubscriptions,
): Promise<"resumed" | "unchanged"> {
  await tellProvider(db, userId, "cancel_at_period_end", false, now, provider);
  const updated = await db
    .updateTable("subscription")
    .set({
      billing_status: "active",
      cancelled_at: null,
      cancel_reason: null,
      notice_mailed_at: null,
      provider_state_at: now.toISOString(),
    })
    .where("user_id", "=", userId)
    .where("source", "=", "web")
    .where("status", "=", "active")
    .where("billing_status", "=", "cancel_at_period_end")
    .where("access_end", ">", now.toISOString())
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1 ? "resumed" : "unchanged";
}

/**
 * For a plan the provider renews (Stripe Billing), cancels it at period end there, or takes that
 * back, before our row changes: the provider must not charge a plan the reader sees cancelled.
 * The provider's event confirming it later finds the row changed already and changes nothing.
 * Setting the same value twice is harmless, so the key only needs to make one request's retry one
 * change.
 */
async function tellProvider(
  db: Database,
  userId: string,
  from: "active" | "cancel_at_period_end",
  cancel: boolean,
  now: Date,
  provider: ProviderSubscriptions | undefined,
): Promise<void> {
  const row = await db
    .selectFrom("subscription")
    .select("provider_subscription_id")
    .where("user_id", "=", userId)
    .where("source", "=", "web")
    .where("status", "=", "active")
    .where("billing_status", "=", from)
    .where("access_end", ">", now.toISOString())
    .where("provider_subscription_id", "is not", null)
    .executeTakeFirst();
  if (!row?.provider_subscription_id) return;
  if (!provider) throw new Error("a subscription the provider renews can only be changed through the provider");
  const key = `${cancel ? "cancel" : "resume"}:${row.provider_subscription_id}:${now.toISOString()}`;
  await provider.setCancelAtPeriodEnd(row.provider_subscription_id, cancel, key);
}

/** Ends every cancelled plan whose paid period is over by `at`; answers how many. */
export async function endCancelledSubscriptions(db: Database, at: Date): Promise<number> {
  const ended = await db
    .updateTable("subscription")
    .set({ billing_status: "ended", notice_mailed_at: null })
    .where("status", "=", "active")
    .where("billing_status", "=", "cancel_at_period_end")
    .where("access_end", "<=", at.toISOString())
    // The provider ends its own (customer.subscription.deleted).
    .where("provider_subscription_id", "is", null)
    .executeTakeFirst();
  return Number(ended.numUpdatedRows);
}

/**
 * Ends at the provider the renewing plans the reader's new plan replaced (ADR 022: its time left
 * carried over onto the new one), so that nothing more is charged for them, and marks them ended.
 * An active plan changes in Subscription and billing instead (ADR 071); a plan past due or
 * cancelled at period end can still be replaced by buying another, and must then stop renewing
 * (a past-due one would otherwise be charged again at Stripe's next retry). Safe to run again: an
 * ended one is not asked for twice, and the provider's deletion event then finds it ended.
 * Answers how many were ended.
 */
export async function endReplacedProviderPlans(db: Database, userId: string, provider: ProviderSubscriptions): Promise<number> {
  const replaced = await db
    .selectFrom("subscription")
    .select(["id", "provider_subscription_id"])
    .where("user_id", "=", userId)
    .where("status", "=", "cancelled")
    .where("provider_subscription_id", "is not", null)
    .where((eb) => eb.or([eb("billing_status", "is", null), eb("billing_status", "!=", "ended")]))
    .execute();
  for (const row of replaced) {
    await provider.cancelNow(row.provider_subscription_id!);
    await db.updateTable("subscription").set({ billing_status: "ended" }).where("id", "=", row.id).execute();
  }
  return replaced.length;
}
