/**
 * Dunning (ADR 066, "Dunning"): a declined renewal makes the subscription past_due; access stays
 * until `grace_end`, BILLING_GRACE_DAYS after the first failure; the card is tried again on
 * days 1, 3 and 5 after it, and the plan ends when grace runs out unpaid.
 */
export const RETRY_DAYS = [1, 3, 5] as const;

const DAY_MS = 86_400_000;

/** When access ends for a subscription whose renewal first failed at `failedAt`. */
export const graceEnd = (failedAt: Date, graceDays: number) => new Date(failedAt.getTime() + graceDays * DAY_MS);

/**
 * When to try the card again after `failedAttempts` declines (the renewal's is the first), the
 * first of them at `pastDueSince`: null once the retries are spent or the next would fall after
 * grace ends.
 */
export function nextRetry(pastDueSince: Date, failedAttempts: number, graceEndsAt: Date): Date | null {
  const days = RETRY_DAYS[failedAttempts - 1];
  if (days === undefined) return null;
  const at = new Date(pastDueSince.getTime() + days * DAY_MS);
  return at < graceEndsAt ? at : null;
}
