import type { SubscriptionTax } from "~/server/billing/tax";
import { formatUsd } from "~/shared/money";
import { roleCodeFor } from "./tiers";

/** The subscription offers on /subscriptions. Prices in cents; terms are what the reader agrees to. */
export interface Plan {
  id: string;
  name: string;
  roleCode: string;
  priceCents: number;
  period: "month" | "year";
  /** How long one payment gives access, in months. */
  months: number;
  summary: string;
  benefits: string[];
  /** What the plan's terms add to how it is paid for (planTerms). */
  note?: string;
}

export const PLANS: readonly Plan[] = [
  {
    id: "digital",
    name: "Digital",
    roleCode: roleCodeFor("GOOD"),
    priceCents: 1200,
    period: "month",
    months: 1,
    summary: "Unlimited articles on the web and in the app.",
    benefits: [
      "Unlimited articles, videos and podcasts",
      "The full magazine archive since 1956",
      "Gift articles to anyone who does not subscribe",
      "PDF reprints, visual library downloads and notes on articles",
    ],
  },
  {
    id: "digital-print",
    name: "Digital + Print",
    roleCode: roleCodeFor("BETTER"),
    priceCents: 1500,
    period: "month",
    months: 1,
    summary: "Everything in Digital, plus six print issues a year.",
    benefits: ["Everything in Digital", "Six print issues a year, delivered", "Subscriber-only newsletters"],
    note: "Print delivery starts with the next issue to close after your order.",
  },
  {
    id: "premium",
    name: "Premium",
    roleCode: roleCodeFor("BEST"),
    priceCents: 2000,
    period: "month",
    months: 1,
    summary: "Everything in Digital + Print, with the special issues and priority service.",
    benefits: ["Everything in Digital + Print", "Special issues and collections in print", "Priority customer service"],
    note: "Reprints are for your own use; sharing them needs a copyright permission.",
  },
  {
    id: "executive",
    name: "Executive",
    roleCode: roleCodeFor("EXECUTIVE"),
    priceCents: 45000,
    period: "year",
    months: 12,
    summary: "Premium for leaders, with executive-only topics and briefings.",
    benefits: ["Everything in Premium", "Executive-only topics and briefings"],
  },
  {
    id: "all-access",
    name: "All Access",
    roleCode: roleCodeFor("ALLACCESS"),
    priceCents: 59900,
    period: "year",
    months: 12,
    summary: "Every publication, course and case study we make, for a year.",
    benefits: ["Everything in Executive", "All case studies and courses", "Course certificates for your team of up to five"],
  },
];

/**
 * The terms the reader agrees to. `renews` says whether a plan bought now renews through the
 * site (renewsThroughSite): only then do the terms speak of renewal and cancelling. With the
 * reader's sales tax (for their billing address, ADR 070) the amounts are what is charged;
 * without it, the terms say tax is added.
 */
export function planTerms(plan: Plan, renews: boolean, tax: SubscriptionTax | null = null): string {
  const price = formatUsd(plan.priceCents + (tax?.cents ?? 0));
  const taxed = tax ? ` (${formatUsd(plan.priceCents)} plus ${tax.label} ${formatUsd(tax.cents)})` : ", plus sales tax where it applies";
  const payment = renews
    ? `${price} now, then ${price} every ${plan.period}${taxed}, charged to the card you pay with, until you cancel. ` +
      "You can cancel at any time from Subscription and billing in My account; your access continues to the end of the period you have paid for."
    : `One payment of ${price}${taxed} gives a ${plan.period} of access. It does not renew: subscribe again to go on.`;
  return plan.note ? `${payment} ${plan.note}` : payment;
}

export function findPlan(id: string): Plan | undefined {
  return PLANS.find((p) => p.id === id);
}

/** The plan a web subscription's role code was bought as. */
export function planForRole(roleCode: string): Plan | undefined {
  return PLANS.find((p) => p.roleCode === roleCode);
}
