import type { Database } from "~/server/db/connection";
import type { CancelReason } from "~/shared/cancel-reasons";

export type CancelOutcome = "cancelled" | "unchanged";

// Every change below is one update conditional on the state it starts from, so a double submit,
// a replayed post or two instances at once change a subscription once (ADR 066, "Cancellation").

/**
 * Cancels the reader's renewing plan at the end of its paid period: it is no longer charged, and
 * access runs to `access_end`. "unchanged" when there is nothing to cancel (already cancelled,
 * not renewing, or its period over by `now`).
 */
export async function cancelAtPeriodEnd(db: Database, userId: string, reason: CancelReason | null, now: Date): Promise<CancelOutcome> {
  const updated = await db
    .updateTable("subscription")
    .set({ billing_status: "cancel_at_period_end", cancelled_at: now.toISOString(), cancel_reason: reason, notice_mailed_at: null })
    .where("user_id", "=", userId)
    .where("source", "=", "web")
    .where("status", "=", "active")
    .where("billing_status", "=", "active")
    .where("access_end", ">", now.toISOString())
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1 ? "cancelled" : "unchanged";
}

/** Takes a cancellation back before the period ends: the plan renews again. */
export async function resumeSubscription(db: Database, userId: string, now: Date): Promise<"resumed" | "unchanged"> {
  const updated = await db
    .updateTable("subscription")
    .set({ billing_status: "active", cancelled_at: null, cancel_reason: null, notice_mailed_at: null })
    .where("user_id", "=", userId)
    .where("source", "=", "web")
    .where("status", "=", "active")
    .where("billing_status", "=", "cancel_at_period_end")
    .where("access_end", ">", now.toISOString())
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1 ? "resumed" : "unchanged";
}

/** Ends every cancelled plan whose paid period is over by `at`; answers how many. */
export async function endCancelledSubscriptions(db: Database, at: Date): Promise<number> {
  const ended = await db
    .updateTable("subscription")
    .set({ billing_status: "ended", notice_mailed_at: null })
    .where("status", "=", "active")
    .where("billing_status", "=", "cancel_at_period_end")
    .where("access_end", "<=", at.toISOString())
    .executeTakeFirst();
  return Number(ended.numUpdatedRows);
}
