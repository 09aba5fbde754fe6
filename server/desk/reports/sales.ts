import { sql } from "kysely";
import type { Database } from "~/server/db/connection";
import { daysOf, rangeBounds, type ReportRange } from "./range";

// Sales by day and product (ADR 090), from the orders and refunds tables (ADR 086):
// - a sale is an order's payment, on the UTC day of `paid_at` (an order cancelled or refunded since
//   was still sold that day; voucher orders are sales at no charge);
// - a line's gross is what the buyer paid for it: its price less its share of the order's discount,
//   plus its share of the tax, as a refund of that line would give back;
// - a refund counts once it has succeeded (its credit note is issued then), on that day, against
//   the products of the lines it refunded, each for its share as above;
// - what an order paid beyond its lines (shipping), and what a refund gave back beyond them (the
//   shipping the last refund of an order returns, and rounding), is the day's "Shipping and
//   adjustments" row, so that each day adds up to the orders' totals and the refunds' amounts.

/** The row that holds shipping and rounding: no product. */
export const SHIPPING_ROW = "Shipping and adjustments";

export interface SalesFigures {
  /** Orders paid (a row's: that had a line of the product); null for the shipping row. */
  orders: number | null;
  units: number;
  grossCents: number;
  refundedUnits: number;
  refundsCents: number;
  netCents: number;
}

export interface SalesRow extends SalesFigures {
  day: string;
  /** Null for the shipping row. */
  productId: number | null;
  product: string;
}

export interface ProductSales extends SalesFigures {
  productId: number | null;
  product: string;
}

export interface DaySales {
  day: string;
  orders: number;
  units: number;
  grossCents: number;
  /** Refunds that succeeded that day. */
  refunds: number;
  refundsCents: number;
  netCents: number;
}

export interface SalesReport {
  range: ReportRange;
  /** Every day and product with a sale or a refund, day by day, products by name, the shipping row last. */
  rows: SalesRow[];
  /** Every day of the range, those without sales too. */
  days: DaySales[];
  /** The range's products, the largest gross first, the shipping row last. */
  products: ProductSales[];
  total: DaySales;
}

const saleDay = sql<string>`substr(o.paid_at, 1, 10)`;
const refundDay = sql<string>`substr(r.succeeded_at, 1, 10)`;
/**
 * A line's share of what its order paid for goods (ADR 086's refund amounts), in thousandths of a
 * cent. Worked out in floating point on both databases (PostgreSQL's `1.0 *` would be its slower
 * numeric type), then made a whole number before it is summed. A sum of floating-point shares
 * depends on the order the database adds them in, and a day's share that is exactly half a cent
 * (a discount split in two) rounded one way in the day's roll-up and the other in a range's live
 * query. Whole numbers add up the same in any order.
 */
const lineGross = sql<number>`cast(case when o.subtotal_cents > 0 then cast(l.line_total_cents as double precision) * (o.total_cents - o.shipping_cents) / o.subtotal_cents else 0 end * 1000 as bigint)`;
/** The same share for the quantity a refund took of the line. */
const refundLineAmount = sql<number>`cast(case when o.subtotal_cents > 0 and l.quantity > 0 then cast(rl.quantity as double precision) * l.line_total_cents * (o.total_cents - o.shipping_cents) / (cast(l.quantity as double precision) * o.subtotal_cents) else 0 end * 1000 as bigint)`;
const fromThousandths = (sum: unknown) => Number(sum) / 1000;

const key = (day: string, productId: number | null) => `${day}|${productId ?? ""}`;

/** Products by their current title; for one no longer in the catalogue, a title its lines were sold under. */
async function productTitles(db: Database, ids: number[]): Promise<Map<number, string>> {
  const titles = new Map<number, string>();
  if (ids.length === 0) return titles;
  for (const p of await db.selectFrom("product").select(["id", "title"]).where("id", "in", ids).execute()) titles.set(p.id, p.title);
  const gone = ids.filter((id) => !titles.has(id));
  if (gone.length > 0)
    for (const l of await db
      .selectFrom("store_order_line")
      .select((eb) => ["product_id", eb.fn.max("title").as("title")])
      .where("product_id", "in", gone)
      .groupBy("product_id")
      .execute())
      titles.set(l.product_id, String(l.title));
  return titles;
}

/** What the sales add up from, by day: per product (sales and refunds, in cents not yet rounded), and per day (orders' totals and refunds' amounts). */
export interface SalesParts {
  lineSales: { day: string; productId: number; orders: unknown; units: unknown; gross: unknown }[];
  daySales: { day: string; orders: unknown; total: unknown }[];
  lineRefunds: { day: string; productId: number; units: unknown; amount: unknown }[];
  dayRefunds: { day: string; refunds: unknown; amount: unknown }[];
}

/** The sales and refunds of a range's days, by day, from the orders and refunds themselves. */
export async function liveSales(db: Database, range: ReportRange): Promise<SalesParts> {
  const { start, end } = rangeBounds(range);
  const [lineSales, daySales, lineRefunds, dayRefunds] = await Promise.all([
    db
      .selectFrom("store_order as o")
      .innerJoin("store_order_line as l", "l.order_id", "o.id")
      .select((eb) => [
        saleDay.as("day"),
        "l.product_id as productId",
        eb.fn.count("o.id").distinct().as("orders"),
        eb.fn.sum("l.quantity").as("units"),
        eb.fn.sum(lineGross).as("gross"),
      ])
      .where("o.paid_at", ">=", start)
      .where("o.paid_at", "<", end)
      .groupBy([saleDay, "l.product_id"])
      .execute(),
    db
      .selectFrom("store_order as o")
      .select((eb) => [saleDay.as("day"), eb.fn.countAll().as("orders"), eb.fn.sum("o.total_cents").as("total")])
      .where("o.paid_at", ">=", start)
      .where("o.paid_at", "<", end)
      .groupBy(saleDay)
      .execute(),
    db
      .selectFrom("store_refund as r")
      .innerJoin("store_refund_line as rl", "rl.refund_id", "r.id")
      .innerJoin("store_order_line as l", (join) => join.onRef("l.order_id", "=", "r.order_id").onRef("l.position", "=", "rl.position"))
      .innerJoin("store_order as o", "o.id", "r.order_id")
      .select((eb) => [
        refundDay.as("day"),
        "l.product_id as productId",
        eb.fn.sum("rl.quantity").as("units"),
        eb.fn.sum(refundLineAmount).as("amount"),
      ])
      .where("r.status", "=", "succeeded")
      .where("r.succeeded_at", ">=", start)
      .where("r.succeeded_at", "<", end)
      .groupBy([refundDay, "l.product_id"])
      .execute(),
    db
      .selectFrom("store_refund as r")
      .select((eb) => [refundDay.as("day"), eb.fn.countAll().as("refunds"), eb.fn.sum("r.amount_cents").as("amount")])
      .where("r.status", "=", "succeeded")
      .where("r.succeeded_at", ">=", start)
      .where("r.succeeded_at", "<", end)
      .groupBy(refundDay)
      .execute(),
  ]);
  return {
    lineSales: lineSales.map((r) => ({ ...r, gross: fromThousandths(r.gross) })),
    daySales,
    lineRefunds: lineRefunds.map((r) => ({ ...r, amount: fromThousandths(r.amount) })),
    dayRefunds,
  };
}

/** The days' parts that are one of `days`. */
function salesOfDays(parts: SalesParts, days: Set<string>): SalesParts {
  return {
    lineSales: parts.lineSales.filter((r) => days.has(r.day)),
    daySales: parts.daySales.filter((r) => days.has(r.day)),
    lineRefunds: parts.lineRefunds.filter((r) => days.has(r.day)),
    dayRefunds: parts.dayRefunds.filter((r) => days.has(r.day)),
  };
}

const mergeSales = (a: SalesParts, b: SalesParts): SalesParts => ({
  lineSales: [...a.lineSales, ...b.lineSales],
  daySales: [...a.daySales, ...b.daySales],
  lineRefunds: [...a.lineRefunds, ...b.lineRefunds],
  dayRefunds: [...a.dayRefunds, ...b.dayRefunds],
});

/**
 * The range's days that are rolled up, and their parts as the roll-up keeps them. The days are
 * read first: product rows of a day rolled up in between are left for the live part to count.
 */
async function rolledUpSales(db: Database, range: ReportRange): Promise<{ rolled: Set<string>; parts: SalesParts }> {
  const days = await db
    .selectFrom("report_day")
    .select(["day", "orders", "total_cents", "refunds", "refunds_cents"])
    .where("day", ">=", range.from)
    .where("day", "<=", range.to)
    .execute();
  const rolled = new Set(days.map((d) => d.day));
  const products = (
    await db
      .selectFrom("report_sales_day")
      .select(["day", "product_id", "orders", "units", "gross_cents", "refunded_units", "refunds_cents"])
      .where("day", ">=", range.from)
      .where("day", "<=", range.to)
      .execute()
  ).filter((p) => rolled.has(p.day));
  return {
    rolled,
    parts: {
      lineSales: products.map((p) => ({ day: p.day, productId: p.product_id, orders: p.orders, units: p.units, gross: p.gross_cents })),
      daySales: days.map((d) => ({ day: d.day, orders: d.orders, total: d.total_cents })),
      lineRefunds: products.map((p) => ({ day: p.day, productId: p.product_id, units: p.refunded_units, amount: p.refunds_cents })),
      dayRefunds: days.map((d) => ({ day: d.day, refunds: d.refunds, amount: d.refunds_cents })),
    },
  };
}

/**
 * The report of a range: its closed days as rolled up (rollup.ts), the others (today, and any day
 * not rolled up yet) from the orders and refunds. Each day's figures are the same either way.
 */
export async function salesReport(db: Database, range: ReportRange): Promise<SalesReport> {
  const { rolled, parts: rolledParts } = await rolledUpSales(db, range);
  const open = daysOf(range).filter((day) => !rolled.has(day));
  const { lineSales, daySales, lineRefunds, dayRefunds } =
    open.length === 0
      ? rolledParts
      : mergeSales(rolledParts, salesOfDays(await liveSales(db, { from: open[0]!, to: open.at(-1)! }), new Set(open)));

  const titles = await productTitles(db, [...new Set([...lineSales, ...lineRefunds].map((r) => r.productId))]);

  const rows = new Map<string, SalesRow>();
  const row = (day: string, productId: number | null) => {
    let found = rows.get(key(day, productId));
    if (!found) {
      const product = productId === null ? SHIPPING_ROW : (titles.get(productId) ?? `Product ${productId}`);
      found = {
        day,
        productId,
        product,
        orders: productId === null ? null : 0,
        units: 0,
        grossCents: 0,
        refundedUnits: 0,
        refundsCents: 0,
        netCents: 0,
      };
      rows.set(key(day, productId), found);
    }
    return found;
  };
  for (const s of lineSales) {
    const r = row(s.day, s.productId);
    r.orders = Number(s.orders);
    r.units = Number(s.units);
    r.grossCents = Math.round(Number(s.gross));
  }
  for (const s of lineRefunds) {
    const r = row(s.day, s.productId);
    r.refundedUnits = Number(s.units);
    r.refundsCents = Math.round(Number(s.amount));
  }

  const days = new Map<string, DaySales>(
    daysOf(range).map((day) => [day, { day, orders: 0, units: 0, grossCents: 0, refunds: 0, refundsCents: 0, netCents: 0 }]),
  );
  for (const d of daySales) Object.assign(days.get(d.day)!, { orders: Number(d.orders), grossCents: Number(d.total) });
  for (const d of dayRefunds) Object.assign(days.get(d.day)!, { refunds: Number(d.refunds), refundsCents: Number(d.amount) });
  // What the days took beyond their products' lines is their shipping row.
  const ofProducts = new Map<string, { units: number; grossCents: number; refundsCents: number }>();
  for (const r of rows.values()) {
    const d = ofProducts.get(r.day) ?? { units: 0, grossCents: 0, refundsCents: 0 };
    d.units += r.units;
    d.grossCents += r.grossCents;
    d.refundsCents += r.refundsCents;
    ofProducts.set(r.day, d);
  }
  for (const d of days.values()) {
    const products = ofProducts.get(d.day) ?? { units: 0, grossCents: 0, refundsCents: 0 };
    d.units = products.units;
    const gross = d.grossCents - products.grossCents;
    const refunds = d.refundsCents - products.refundsCents;
    if (gross !== 0 || refunds !== 0) Object.assign(row(d.day, null), { grossCents: gross, refundsCents: refunds });
    d.netCents = d.grossCents - d.refundsCents;
  }
  for (const r of rows.values()) r.netCents = r.grossCents - r.refundsCents;

  const products = new Map<string, ProductSales>();
  for (const r of rows.values()) {
    const id = String(r.productId ?? "");
    const p = products.get(id) ?? {
      productId: r.productId,
      product: r.product,
      orders: r.productId === null ? null : 0,
      units: 0,
      grossCents: 0,
      refundedUnits: 0,
      refundsCents: 0,
      netCents: 0,
    };
    if (p.orders !== null) p.orders += r.orders ?? 0;
    p.units += r.units;
    p.grossCents += r.grossCents;
    p.refundedUnits += r.refundedUnits;
    p.refundsCents += r.refundsCents;
    p.netCents += r.netCents;
    products.set(id, p);
  }

  const dayList = [...days.values()];
  const sum = (pick: (d: DaySales) => number) => dayList.reduce((n, d) => n + pick(d), 0);
  const shippingLast = (a: { productId: number | null }, b: { productId: number | null }) =>
    Number(a.productId === null) - Number(b.productId === null);
  return {
    range,
    rows: [...rows.values()].sort((a, b) => a.day.localeCompare(b.day) || shippingLast(a, b) || a.product.localeCompare(b.product)),
    days: dayList,
    products: [...products.values()].sort(
      (a, b) => shippingLast(a, b) || b.grossCents - a.grossCents || a.product.localeCompare(b.product),
    ),
    total: {
      day: "",
      orders: sum((d) => d.orders),
      units: sum((d) => d.units),
      grossCents: sum((d) => d.grossCents),
      refunds: sum((d) => d.refunds),
      refundsCents: sum((d) => d.refundsCents),
      netCents: sum((d) => d.netCents),
    },
  };
}
