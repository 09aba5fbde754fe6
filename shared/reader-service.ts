// Customer service's fixed limits (ADR 087), for the desk's forms and the domain alike.

/** The tiers a complimentary subscription may give, as the desk offers them. */
export const COMP_TIERS = {
  GOOD: "Good (Digital)",
  BETTER: "Better (Digital + Print)",
  BEST: "Best (Premium)",
  EXECUTIVE: "Executive",
  ALLACCESS: "All Access",
} as const;
export type CompTier = keyof typeof COMP_TIERS;

/** How far one extension may go, and how far ahead a comp may end. */
export const MAX_DAYS = 366;
export const MAX_MONTHS = 36;
export const COMP_MAX_YEARS = 5;

/** The longest reason an agent may give for an action. */
export const REASON_MAX = 500;

export type DurationUnit = "days" | "months";

/** A service action's key: what makes a replayed post harmless. */
export const REQUEST_KEY = /^[A-Za-z0-9_-]{16,64}$/;
