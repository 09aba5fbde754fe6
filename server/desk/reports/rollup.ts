import type { Database } from "~/server/db/connection";
import type { ReportDayTable, ReportFunnelDayTable, ReportSalesDayTable } from "~/server/db/schema";
import { log } from "~/server/log";
import { liveFunnelCounts, type FunnelDayCounts } from "./funnel";
import { daysOf, lastDays, MAX_DAYS, type ReportRange } from "./range";
import { liveSales, type SalesParts } from "./sales";

// The reports' daily roll-up (ADR 090): a closed day's sales by product and its funnel counts by
// tag, as the live queries count them, kept so that a long range reads a row per day and product
// in place of the orders behind them. Every event the roll-up counts is dated by the moment it was
// written (a payment, a refund's success, a registration, a checkout's activation), so a closed
// day never changes afterwards: a refund today of last month's order is today's. The distinct
// readers at the walls and the subscriptions by tier are not sums of days, and stay live.

/**
 * A day is closed, and may be rolled up, this long after it ends: an event dated just before
 * midnight may commit just after it, and instances' clocks differ a little.
 */
const SETTLE_MS = 60 * 60_000;
/** Days written per transaction: each a claim of those days, undone whole if the process dies in it. */
const DAYS_PER_TRANSACTION = 31;
/** Rows per insert, well under SQLite's bound parameters. */
const ROWS_PER_INSERT = 500;

const DAY_MS = 86_400_000;

/** The first day not closed at `now`. */
const firstOpenDay = (now: Date) => new Date(now.getTime() - SETTLE_MS).toISOString().slice(0, 10);

interface DayRollUp {
  day: Omit<ReportDayTable, "rolled_at">;
  products: ReportSalesDayTable[];
  funnel: ReportFunnelDayTable[];
}

/** Each day's rows to write, from a span's sales and funnel counts. */
function dayRollUps(days: string[], sales: SalesParts, funnel: FunnelDayCounts[]): Map<string, DayRollUp> {
  const byDay = new Map<string, DayRollUp>(
    days.map((day) => [day, { day: { day, orders: 0, total_cents: 0, refunds: 0, refunds_cents: 0 }, products: [], funnel: [] }]),
  );
  for (const d of sales.daySales) Object.assign(byDay.get(d.day)!.day, { orders: Number(d.orders), total_cents: Number(d.total) });
  for (const d of sales.dayRefunds) Object.assign(byDay.get(d.day)!.day, { refunds: Number(d.refunds), refunds_cents: Number(d.amount) });
  const products = new Map<string, DayRollUp["products"][number]>();
  const product = (day: string, productId: number) => {
    const key = `${day}|${productId}`;
    let found = products.get(key);
    if (!found) {
      found = { day, product_id: productId, orders: 0, units: 0, gross_cents: 0, refunded_units: 0, refunds_cents: 0 };
      products.set(key, found);
      byDay.get(day)!.products.push(found);
    }
    return found;
  };
  // Rounded per day and product, as the report rounds them.
  for (const s of sales.lineSales)
    Object.assign(product(s.day, s.productId), {
      orders: Number(s.orders),
      units: Number(s.units),
      gross_cents: Math.round(Number(s.gross)),
    });
  for (const r of sales.lineRefunds)
    Object.assign(product(r.day, r.productId), { refunded_units: Number(r.units), refunds_cents: Math.round(Number(r.amount)) });
  for (const c of funnel)
    byDay.get(c.day)!.funnel.push({ day: c.day, ab_tag: c.tag, registrations: c.registrations, subscriptions: c.subscriptions });
  return byDay;
}

async function insertRows<T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) await insert(rows.slice(i, i + ROWS_PER_INSERT));
}

/**
 * Writes days' roll-ups in one transaction, so that a process killed in it leaves none of them
 * half-written or claimed. Each day's `report_day` row is its claim: a day another instance has
 * already written (or is writing, on PostgreSQL: the insert waits for it) is left as it is, so
 * each day is written once. Returns how many days this call wrote.
 */
async function writeDays(db: Database, rollUps: DayRollUp[], now: Date): Promise<number> {
  return db.transaction().execute(async (tx) => {
    const claimed = new Set(
      (
        await tx
          .insertInto("report_day")
          .values(rollUps.map((r) => ({ ...r.day, rolled_at: now.toISOString() })))
          .onConflict((oc) => oc.column("day").doNothing())
          .returning("day")
          .execute()
      ).map((r) => r.day),
    );
    const mine = rollUps.filter((r) => claimed.has(r.day.day));
    if (mine.length === 0) return 0;
    // Rows a day kept without its claim (its report_day row deleted, to have it rolled up again) give way to its new ones.
    const days = mine.map((r) => r.day.day);
    await tx.deleteFrom("report_sales_day").where("day", "in", days).execute();
    await tx.deleteFrom("report_funnel_day").where("day", "in", days).execute();
    await insertRows(
      mine.flatMap((r) => r.products),
      (chunk) => tx.insertInto("report_sales_day").values(chunk).execute(),
    );
    await insertRows(
      mine.flatMap((r) => r.funnel),
      (chunk) => tx.insertInto("report_funnel_day").values(chunk).execute(),
    );
    return claimed.size;
  });
}

/** Runs of consecutive days. */
function spans(days: string[]): string[][] {
  const runs: string[][] = [];
  for (const day of days) {
    const run = runs.at(-1);
    if (run && Date.parse(day) - Date.parse(run.at(-1)!) === DAY_MS) run.push(day);
    else runs.push([day]);
  }
  return runs;
}

/**
 * Rolls up the range's closed days that are not yet: each run of them read with the live queries
 * at once, then written a month at a time. Safe to run anywhere at any moment, by any number of
 * instances at once. Returns how many days this call wrote.
 */
export async function rollUpDays(db: Database, range: ReportRange, now: Date): Promise<number> {
  const open = firstOpenDay(now);
  if (range.from >= open) return 0;
  const closed: ReportRange = {
    from: range.from,
    to: range.to < open ? range.to : new Date(Date.parse(open) - DAY_MS).toISOString().slice(0, 10),
  };
  const done = new Set(
    (await db.selectFrom("report_day").select("day").where("day", ">=", closed.from).where("day", "<=", closed.to).execute()).map(
      (d) => d.day,
    ),
  );
  let written = 0;
  for (const run of spans(daysOf(closed).filter((day) => !done.has(day)))) {
    const span = { from: run[0]!, to: run.at(-1)! };
    const [sales, funnel] = await Promise.all([liveSales(db, span), liveFunnelCounts(db, span)]);
    const byDay = dayRollUps(run, sales, funnel);
    for (let i = 0; i < run.length; i += DAYS_PER_TRANSACTION)
      written += await writeDays(
        db,
        run.slice(i, i + DAYS_PER_TRANSACTION).map((day) => byDay.get(day)!),
        now,
      );
  }
  return written;
}

/** The scheduled jobs' step: the closed days of the longest range a report covers, up to the last closed day. */
export const rollUpRecentDays = (db: Database, now: Date) =>
  rollUpDays(db, lastDays(new Date(Date.parse(firstOpenDay(now)) - DAY_MS), MAX_DAYS), now);

/**
 * What the desk's page and exports do first: roll up the range's closed days that are not yet
 * (the scheduled jobs keep the last year's), so that the next request for them reads the roll-up.
 * A failure is logged and leaves the report to count those days live.
 */
export async function rollUpForReport(db: Database, range: ReportRange, now: Date): Promise<void> {
  try {
    await rollUpDays(db, range, now);
  } catch (error) {
    log.error("Rolling up the reports' days failed; the report counts them live", { error });
  }
}
