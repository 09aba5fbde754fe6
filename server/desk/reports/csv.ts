import { csvDocument } from "~/server/text/csv";
import type { FunnelReport, FunnelRow } from "./funnel";
import type { ReportRange } from "./range";
import type { SalesReport } from "./sales";
import type { SubscriptionsReport, TierFigures } from "./subscriptions";

// The reports as CSV (ADR 090), one file per section, cells made safe as every desk export's are
// (server/text/csv.ts). Amounts are plain numbers of dollars and rates plain percentages, so a
// spreadsheet adds them up; the page shows them formatted.

export const REPORT_NAMES = ["sales", "subscriptions", "funnel"] as const;
export type ReportName = (typeof REPORT_NAMES)[number];

/** The file's name: the report and its days. */
export const reportFileName = (name: ReportName, range: ReportRange) => `${name}-${range.from}-to-${range.to}.csv`;

const dollars = (cents: number) => cents / 100;
/** A share as a percentage with one decimal; empty when there is none. */
const percent = (share: number | null) => (share === null ? null : Math.round(share * 1000) / 10);

export function salesCsv(report: SalesReport): string {
  return csvDocument([
    ["Day (UTC)", "Product", "Product id", "Orders paid", "Units sold", "Gross (USD)", "Units refunded", "Refunds (USD)", "Net (USD)"],
    ...report.rows.map((r) => [
      r.day,
      r.product,
      r.productId,
      r.orders,
      r.units,
      dollars(r.grossCents),
      r.refundedUnits,
      dollars(r.refundsCents),
      dollars(r.netCents),
    ]),
  ]);
}

const tierCells = (t: TierFigures) => [
  t.tier,
  t.active,
  t.comps,
  t.print,
  t.started,
  t.cancelled,
  t.payingAtStart,
  percent(t.churn),
  dollars(t.mrrCents),
];

export function subscriptionsCsv(report: SubscriptionsReport): string {
  return csvDocument([
    ["Tier", "Active", "Of which complimentary", "Of which print", "New", "Cancelled", "Paying at start", "Churn (%)", "MRR (USD)"],
    ...report.tiers.map(tierCells),
    tierCells(report.total),
  ]);
}

const funnelCells = (r: FunnelRow) => [
  r.tag,
  r.guestsWalled,
  r.registrations,
  percent(r.registrationRate),
  r.subscribeWalled,
  r.subscriptions,
  percent(r.subscriptionRate),
];

export function funnelCsv(report: FunnelReport): string {
  return csvDocument([
    [
      "A/B tag",
      "Guests walled",
      "Registrations from the wall",
      "Registration rate (%)",
      "Readers shown the subscribe wall",
      "Subscriptions from the wall",
      "Subscription rate (%)",
    ],
    ...report.rows.map(funnelCells),
    funnelCells(report.total),
    ["No tag (not from a wall)", null, null, null, null, report.direct, null],
  ]);
}
