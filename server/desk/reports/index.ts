// The desk's reports for the publisher (ADR 090): sales by day and product, subscriptions by tier,
// and the meter funnel by A/B tag, over a range of UTC days, each also as CSV; closed days from a
// daily roll-up.
export { DEFAULT_DAYS, MAX_DAYS, lastDays, readRange, rangeBounds, daysOf, type ReportRange } from "./range";
export { salesReport, SHIPPING_ROW, type SalesReport, type SalesRow, type SalesFigures, type DaySales, type ProductSales } from "./sales";
export { subscriptionsReport, tierName, type SubscriptionsReport, type TierFigures } from "./subscriptions";
export { funnelReport, DIRECT_TAG, type FunnelReport, type FunnelRow } from "./funnel";
export { rollUpDays, rollUpRecentDays, rollUpForReport } from "./rollup";
export { salesCsv, subscriptionsCsv, funnelCsv, reportFileName, REPORT_NAMES, type ReportName } from "./csv";
