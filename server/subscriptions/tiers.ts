/**
 * Subscriber tiers (spec "Subscriber tier"): the tier is read from the end of a role code. Our
 * role codes share the prefix MRSUB_.
 */
export const ROLE_PREFIX = "MRSUB_";

export type TierName = "Good" | "Better" | "Best" | "Executive" | "All Access";

export interface Tier {
  name: TierName;
  /** Shown in the user menu; Executive has none. */
  caption: string | null;
}

// Longest suffix first, so that nothing ends-with-matches a shorter code by accident.
const TIERS: [suffix: string, tier: Tier][] = [
  ["ALLACCESS", { name: "All Access", caption: "All Access" }],
  ["EXECUTIVE", { name: "Executive", caption: null }],
  ["BETTER", { name: "Better", caption: "Digital + Print" }],
  ["GOOD", { name: "Good", caption: "Digital" }],
  ["BEST", { name: "Best", caption: "Premium" }],
];

export function tierOf(roleCode: string): Tier | undefined {
  const code = roleCode.toUpperCase();
  return TIERS.find(([suffix]) => code.endsWith(suffix))?.[1];
}

/** The role codes a tier name stands for (the print records say PRINT-GOOD and so on). */
export function roleCodeFor(suffix: "GOOD" | "BETTER" | "BEST" | "EXECUTIVE" | "ALLACCESS"): string {
  return `${ROLE_PREFIX}${suffix}`;
}

/** Print subscription codes end in the tier's suffix, e.g. PRINT-BETTER. */
export function roleCodeForPrintCode(subscriptionCode: string): string | undefined {
  const suffix = TIERS.find(([s]) => subscriptionCode.toUpperCase().endsWith(s))?.[0];
  return suffix ? `${ROLE_PREFIX}${suffix}` : undefined;
}

/** Highest first: the first of a reader's role codes in this order decides their tier. */
const RANK = ["ALLACCESS", "EXECUTIVE", "BEST", "BETTER", "GOOD"];

export function byRank(a: string, b: string): number {
  const rank = (code: string) => {
    const i = RANK.findIndex((suffix) => code.toUpperCase().endsWith(suffix));
    return i === -1 ? RANK.length : i;
  };
  return rank(a) - rank(b);
}
