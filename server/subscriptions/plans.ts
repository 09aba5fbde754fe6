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
  terms: string;
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
    terms: "One payment of $12.00 gives a month of access. Nothing renews by itself: subscribe again to go on.",
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
    terms: "One payment of $15.00 gives a month of access. Print delivery starts with the next issue to close after your order.",
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
    terms: "One payment of $20.00 gives a month of access. Reprints are for your own use; sharing them needs a copyright permission.",
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
    terms: "One payment of $450.00 gives a year of access. Nothing renews by itself.",
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
    terms: "One payment of $599.00 gives a year of access. Nothing renews by itself.",
  },
];

export function findPlan(id: string): Plan | undefined {
  return PLANS.find((p) => p.id === id);
}

/** The plan a web subscription's role code was bought as. */
export function planForRole(roleCode: string): Plan | undefined {
  return PLANS.find((p) => p.roleCode === roleCode);
}
