import { addMonths } from "~/server/subscriptions/entitlements";
import { roleCodeFor } from "~/server/subscriptions/tiers";
import type { CompTier, DurationUnit } from "~/shared/reader-service";

export { COMP_TIERS, COMP_MAX_YEARS, MAX_DAYS, MAX_MONTHS, REQUEST_KEY, type CompTier, type DurationUnit } from "~/shared/reader-service";

// Customer service's rules on time (ADR 087).

/** A complimentary subscription's `subscription.reference`: a web grant with no plan and no charge. */
export const COMP_REFERENCE_PREFIX = "comp:";

export const compRoleCode = (tier: CompTier) => roleCodeFor(tier);

export interface Duration {
  amount: number;
  unit: DurationUnit;
}

export function addDuration(from: Date, duration: Duration): Date {
  return duration.unit === "months" ? addMonths(from, duration.amount) : new Date(from.getTime() + duration.amount * 86_400_000);
}

/** An extension starts from the current end, or from now when that end has passed. */
export const extendFrom = (end: string, now: Date) => (end > now.toISOString() ? new Date(end) : now);
