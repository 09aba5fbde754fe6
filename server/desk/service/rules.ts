import { addMonths } from "~/server/subscriptions/entitlements";
import { roleCodeFor } from "~/server/subscriptions/tiers";

// Customer service's fixed rules (ADR 087), shared by the domain and the desk's forms.

/** A complimentary subscription's `subscription.reference`: a web grant with no plan and no charge. */
export const COMP_REFERENCE_PREFIX = "comp:";

/** The tiers a comp may give, as the desk offers them. */
export const COMP_TIERS = {
  GOOD: "Good (Digital)",
  BETTER: "Better (Digital + Print)",
  BEST: "Best (Premium)",
  EXECUTIVE: "Executive",
  ALLACCESS: "All Access",
} as const;
export type CompTier = keyof typeof COMP_TIERS;
export const compRoleCode = (tier: CompTier) => roleCodeFor(tier);

/** How far one extension may go, and how far ahead a comp may end. */
export const MAX_DAYS = 366;
export const MAX_MONTHS = 36;
export const COMP_MAX_YEARS = 5;

export type DurationUnit = "days" | "months";
export interface Duration {
  amount: number;
  unit: DurationUnit;
}

export function addDuration(from: Date, duration: Duration): Date {
  return duration.unit === "months" ? addMonths(from, duration.amount) : new Date(from.getTime() + duration.amount * 86_400_000);
}

/** An extension starts from the current end, or from now when that end has passed. */
export const extendFrom = (end: string, now: Date) => (end > now.toISOString() ? new Date(end) : now);

/** A form's key: what makes a replayed post harmless. */
export const REQUEST_KEY = /^[A-Za-z0-9_-]{16,64}$/;
