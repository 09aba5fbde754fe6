import { sql } from "kysely";
import type { Database } from "~/server/db/connection";
import { findPlan, PLANS, type Plan } from "~/server/subscriptions/plans";
import { byRank, tierOf } from "~/server/subscriptions/tiers";
import { rangeBounds, type ReportRange } from "./range";

// Subscriptions by tier (ADR 090), from the subscription rows as they stand:
// - active: giving access at the end of the range (or now, for a range that ends today): active
//   (not replaced by another plan, not restricted), started, and before the end of its access,
//   a past-due plan's grace included. Complimentary plans (`comp:` references, ADR 087) and print
//   subscriptions linked to an account count as active and add no revenue;
// - new: started in the range (bought, granted or linked; a plan change starts a plan in its tier);
// - cancelled: cancelled by the subscriber in the range, or ended in it after failed renewals;
// - churn: cancelled ÷ the paying plans active at the start of the range;
// - MRR: the paying plans active at the end, each at its plan's price a month (a year's ÷ 12).

export interface TierFigures {
  /** The plan's name readers know the tier by (Digital, Premium…), or the role code of one no plan sells. */
  tier: string;
  active: number;
  /** Of the active: complimentary plans, and print subscriptions. */
  comps: number;
  print: number;
  started: number;
  cancelled: number;
  /** Paying plans active at the start of the range, churn's denominator. */
  payingAtStart: number;
  /** cancelled ÷ payingAtStart; null when none were. */
  churn: number | null;
  /** Monthly recurring revenue, in cents (rounded). */
  mrrCents: number;
}

export interface SubscriptionsReport {
  range: ReportRange;
  /** The moment "active" and the MRR are taken at: the end of the range, or now if sooner. */
  asOf: string;
  tiers: TierFigures[];
  total: TierFigures;
}

const kind = sql<
  "print" | "comp" | "paid"
>`case when source = 'print' then 'print' when reference like 'comp:%' then 'comp' else 'paid' end`;
/** When access ends: the grace's end for a plan past due (or ended after it), else the paid period's. */
const accessEnds = sql<string>`case when billing_status in ('past_due', 'ended') and grace_end is not null and grace_end > access_end then grace_end else access_end end`;

const givesAccessAt = (at: string) =>
  sql<number>`case when status = 'active' and access_start <= ${at} and ${accessEnds} > ${at} then 1 else 0 end`;

const monthlyCents = (plan: Plan) => (plan.period === "year" ? plan.priceCents / 12 : plan.priceCents);

/** The name a role code's tier goes by at the desk: its plan's, else the tier's. */
export function tierName(roleCode: string): string {
  return PLANS.find((p) => p.roleCode === roleCode)?.name ?? tierOf(roleCode)?.caption ?? tierOf(roleCode)?.name ?? roleCode;
}

const churnOf = (cancelled: number, base: number) => (base > 0 ? cancelled / base : null);

export async function subscriptionsReport(db: Database, range: ReportRange, now = new Date()): Promise<SubscriptionsReport> {
  const { start, end } = rangeBounds(range);
  const lastMoment = new Date(Date.parse(end) - 1).toISOString();
  const asOf = now.toISOString() < lastMoment ? now.toISOString() : lastMoment;
  const inRange = (column: string) => sql`${sql.ref(column)} >= ${start} and ${sql.ref(column)} < ${end}`;
  const endedUnpaid = sql`billing_status = 'ended' and cancelled_at is null and coalesce(grace_end, access_end) >= ${start} and coalesce(grace_end, access_end) < ${end}`;
  const groups = await db
    .selectFrom("subscription")
    .select((eb) => [
      "role_code as roleCode",
      "plan_id as planId",
      kind.as("kind"),
      eb.fn.sum(givesAccessAt(asOf)).as("active"),
      eb.fn.sum(givesAccessAt(start)).as("activeAtStart"),
      eb.fn.sum(sql<number>`case when ${inRange("created_at")} then 1 else 0 end`).as("started"),
      eb.fn.sum(sql<number>`case when (${inRange("cancelled_at")}) or (${endedUnpaid}) then 1 else 0 end`).as("cancelled"),
    ])
    .groupBy(["role_code", "plan_id", kind])
    .execute();

  const tiers = new Map<string, TierFigures & { roleCode: string; mrr: number }>();
  for (const g of groups) {
    const name = tierName(g.roleCode);
    const t = tiers.get(name) ?? {
      roleCode: g.roleCode,
      tier: name,
      active: 0,
      comps: 0,
      print: 0,
      started: 0,
      cancelled: 0,
      payingAtStart: 0,
      churn: null,
      mrrCents: 0,
      mrr: 0,
    };
    const active = Number(g.active ?? 0);
    t.active += active;
    t.started += Number(g.started ?? 0);
    t.cancelled += Number(g.cancelled ?? 0);
    if (g.kind === "comp") t.comps += active;
    else if (g.kind === "print") t.print += active;
    else {
      t.payingAtStart += Number(g.activeAtStart ?? 0);
      // A plan bought before plans were recorded on the row is its tier's plan.
      const plan = (g.planId && findPlan(g.planId)) || PLANS.find((p) => p.roleCode === g.roleCode);
      if (plan) t.mrr += active * monthlyCents(plan);
    }
    tiers.set(name, t);
  }
  const list = [...tiers.values()]
    .filter((t) => t.active + t.started + t.cancelled + t.payingAtStart > 0)
    // Cheapest first, as the plans page lists them.
    .sort((a, b) => byRank(b.roleCode, a.roleCode) || a.tier.localeCompare(b.tier))
    .map(({ roleCode: _code, mrr, ...t }) => ({ ...t, mrrCents: Math.round(mrr), churn: churnOf(t.cancelled, t.payingAtStart) }));
  const total = list.reduce(
    (sum, t) => ({
      ...sum,
      active: sum.active + t.active,
      comps: sum.comps + t.comps,
      print: sum.print + t.print,
      started: sum.started + t.started,
      cancelled: sum.cancelled + t.cancelled,
      payingAtStart: sum.payingAtStart + t.payingAtStart,
      mrrCents: sum.mrrCents + t.mrrCents,
    }),
    {
      tier: "All tiers",
      active: 0,
      comps: 0,
      print: 0,
      started: 0,
      cancelled: 0,
      payingAtStart: 0,
      churn: null as number | null,
      mrrCents: 0,
    },
  );
  return { range, asOf, tiers: list, total: { ...total, churn: churnOf(total.cancelled, total.payingAtStart) } };
}
