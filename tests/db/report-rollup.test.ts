import crypto from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/server/db/connection";
import type { RefundStatus } from "~/server/db/schema";
import { daysOf, funnelReport, rollUpDays, salesReport, type ReportRange } from "~/server/desk/reports";
import { insertPlanCheckout, insertReader } from "~/tests/helpers/reader-records";
import { availabilities, insertOrder, insertRefund, priceOrder } from "~/tests/helpers/store-orders";
import { dialectName, seededTestDatabase } from "~/tests/helpers/test-db";

// The reports' daily roll-up (ADR 090) on the database the run uses: on randomised orders,
// refunds, registrations and checkouts, a range read from the roll-up for its closed days and live
// for the others gives the same report as the live queries alone; days change only by events of
// their own, so a late refund is the day it succeeds; a day is rolled up once, and only once it
// has settled. The data lies in 2033, which no other test writes into; the clock is injected.

let db: Database;
let close: () => Promise<void>;

/** The randomised data's seed: set REPORTS_SEED to replay a failure. */
const SEED = Number(process.env.REPORTS_SEED ?? crypto.randomInt(2 ** 31));
const because = `seed ${SEED} (REPORTS_SEED)`;

function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
const rand = random(SEED);
const between = (low: number, high: number) => low + Math.floor(rand() * (high - low + 1));
const pick = <T>(items: readonly T[]) => items[Math.floor(rand() * items.length)]!;

const NOW = new Date("2033-06-15T12:00:00.000Z");
const TODAY = "2033-06-15";
const DAY_MS = 86_400_000;
const FIRST_DAY = "2033-05-01";
/** Every day with data: from FIRST_DAY to the day after today. */
const DATA_DAYS = daysOf({ from: FIRST_DAY, to: "2033-06-16" });
const WHOLE: ReportRange = { from: "2033-04-29", to: "2033-06-16" };
const TAGS = ["paywall-article", "paywall-cases", "paywall-video", "direct"] as const;

/** A random moment of a day. */
const momentOf = (day: string) => new Date(Date.parse(`${day}T00:00:00.000Z`) + between(0, DAY_MS - 1)).toISOString();

async function paidOrder(paidAt: string, availabilityIds: number[]) {
  const made = await insertOrder(db, {
    userId: null,
    email: "rollup@reports.example",
    status: "paid",
    createdAt: paidAt,
    paidAt,
    lines: Array.from({ length: between(1, 3) }, () => ({ availabilityId: pick(availabilityIds), quantity: between(1, 3) })),
  });
  const { subtotal_cents: subtotal } = await db
    .selectFrom("store_order")
    .select("subtotal_cents")
    .where("id", "=", made.id)
    .executeTakeFirstOrThrow();
  await priceOrder(db, made.id, {
    discount: rand() < 0.3 ? between(1, Math.floor(subtotal / 3)) : 0,
    tax: rand() < 0.5 ? between(1, 999) : 0,
    shipping: rand() < 0.4 ? between(100, 900) : 0,
  });
  return made.id;
}

/** A refund of some of the order's lines, picked at random, for a random amount. */
async function refund(orderId: string, status: RefundStatus, at: string) {
  const lines = await db.selectFrom("store_order_line").select(["position", "quantity"]).where("order_id", "=", orderId).execute();
  const taken = lines.filter(() => rand() < 0.6);
  const refunded = taken.length > 0 ? taken : lines.slice(0, 1);
  await insertRefund(db, {
    orderId,
    status,
    at,
    amountCents: between(100, 5_000),
    lines: refunded.map((l) => [l.position, between(1, l.quantity)]),
  });
}

const checkout = async (tag: string, activatedAt: string | null) =>
  insertPlanCheckout(db, {
    userId: await insertReader(db, "rollup", FIRST_DAY),
    tag,
    activatedAt,
    createdAt: `${FIRST_DAY}T00:00:00.000Z`,
  });

const reports = async (on: Database, range: ReportRange) => ({
  sales: await salesReport(on, range),
  funnel: await funnelReport(on, range),
});

class Undo extends Error {}
/** The reports as the live queries alone count them: with the roll-up emptied, in a transaction undone after. */
async function liveReports(range: ReportRange) {
  let live: Awaited<ReturnType<typeof reports>> | undefined;
  await db
    .transaction()
    .execute(async (tx) => {
      await tx.deleteFrom("report_sales_day").execute();
      await tx.deleteFrom("report_funnel_day").execute();
      await tx.deleteFrom("report_day").execute();
      live = await reports(tx, range);
      throw new Undo();
    })
    .catch((error: unknown) => {
      if (!(error instanceof Undo)) throw error;
    });
  return live!;
}

/** A stand-in for a process killed while writing: inserts into report_funnel_day fail while it is on. */
async function killFunnelWrites(on: boolean) {
  if (dialectName === "sqlite")
    await sql
      .raw(
        on
          ? "create trigger kill_funnel before insert on report_funnel_day begin select raise(abort, 'killed'); end"
          : "drop trigger kill_funnel",
      )
      .execute(db);
  else if (on) {
    await sql
      .raw("create function kill_funnel() returns trigger language plpgsql as $$ begin raise exception 'killed'; end $$")
      .execute(db);
    await sql.raw("create trigger kill_funnel before insert on report_funnel_day execute function kill_funnel()").execute(db);
  } else {
    await sql.raw("drop trigger kill_funnel on report_funnel_day").execute(db);
    await sql.raw("drop function kill_funnel()").execute(db);
  }
}

const rolledDays = async () => (await db.selectFrom("report_day").select("day").orderBy("day").execute()).map((d) => d.day);

/** The whole range, and random ranges within it (a single day, today alone, and some spanning today). */
const RANGES: ReportRange[] = [WHOLE, { from: TODAY, to: TODAY }, { from: "2033-05-20", to: "2033-05-20" }];

const orderIds: { id: string; day: string }[] = [];

beforeAll(async () => {
  ({ db, close } = await seededTestDatabase());
  const { all } = await availabilities(db);
  const products = [...new Map(all.filter((a) => a.status === "A").map((a) => [a.productId, a.id])).values()].slice(0, 6);
  for (const day of DATA_DAYS) for (let n = between(0, 4); n > 0; n--) orderIds.push({ id: await paidOrder(momentOf(day), products), day });
  for (const order of orderIds) {
    if (rand() > 0.35) continue;
    const day = pick(DATA_DAYS.filter((d) => d >= order.day));
    await refund(order.id, pick(["succeeded", "succeeded", "succeeded", "pending", "failed"] as const), momentOf(day));
  }
  for (const day of DATA_DAYS) {
    for (let n = between(0, 3); n > 0; n--)
      await db
        .insertInto("wall_registration")
        .values({ id: crypto.randomUUID(), ab_tag: pick(TAGS), registered_at: momentOf(day) })
        .execute();
    for (let n = between(0, 3); n > 0; n--) await checkout(pick(TAGS), rand() < 0.8 ? momentOf(day) : null);
    for (let n = between(0, 6); n > 0; n--)
      await db
        .insertInto("wall_view")
        .values({ day, wall: pick(["registration", "subscribe"] as const), ab_tag: pick(TAGS), viewer: `v:${between(1, 30)}` })
        .onConflict((oc) => oc.doNothing())
        .execute();
  }
  for (let n = 0; n < 4; n++) {
    const from = pick(daysOf(WHOLE));
    RANGES.push({ from, to: pick(daysOf(WHOLE).filter((d) => d >= from)) });
  }
}, 120_000);
afterAll(() => close());

describe("the reports' daily roll-up", () => {
  it("gives the live queries' figures, whether none, some or all of a range's closed days are rolled up", async () => {
    const live = await Promise.all(RANGES.map((range) => reports(db, range)));
    expect(await rolledDays()).toEqual([]);
    expect(live[0]!.sales.total.orders, because).toBe(orderIds.length);

    expect(await rollUpDays(db, { from: "2033-05-10", to: "2033-05-20" }, NOW)).toBe(11);
    for (const [i, range] of RANGES.entries()) expect(await reports(db, range), `${because}, ${range.from}–${range.to}`).toEqual(live[i]);

    // Closed days are those before today: today and tomorrow stay live.
    expect(await rollUpDays(db, WHOLE, NOW)).toBe(daysOf({ from: WHOLE.from, to: "2033-06-14" }).length - 11);
    expect((await rolledDays()).at(-1)).toBe("2033-06-14");
    for (const [i, range] of RANGES.entries()) expect(await reports(db, range), `${because}, ${range.from}–${range.to}`).toEqual(live[i]);
  });

  it("writes each day once, however many fill it at the same moment", async () => {
    const range = { from: "2033-04-01", to: "2033-04-30" };
    const before = (await rolledDays()).length;
    const written = await Promise.all([rollUpDays(db, range, NOW), rollUpDays(db, range, NOW), rollUpDays(db, range, NOW)]);
    expect(written.reduce((a, b) => a + b, 0)).toBe(30 - 2);
    expect((await rolledDays()).length).toBe(before + 28);
    expect(await rollUpDays(db, WHOLE, NOW)).toBe(0);
    expect(await reports(db, WHOLE), because).toEqual(await liveReports(WHOLE));
  });

  it("leaves no day of a write killed midway rolled up, and writes them whole on the next run", async () => {
    const march = { from: "2033-03-01", to: "2033-03-31" };
    const { all } = await availabilities(db);
    const product = all.find((a) => a.status === "A")!;
    await paidOrder("2033-03-10T08:00:00.000Z", [product.id]);
    await db
      .insertInto("wall_registration")
      .values({ id: crypto.randomUUID(), ab_tag: TAGS[0], registered_at: "2033-03-11T08:00:00.000Z" })
      .execute();
    const live = await liveReports(march);
    // The write dies after the days' claims and their sales, at their funnel counts.
    await killFunnelWrites(true);
    await expect(rollUpDays(db, march, NOW)).rejects.toThrow(/killed/);
    await killFunnelWrites(false);
    expect((await rolledDays()).filter((day) => day <= march.to && day >= march.from)).toEqual([]);
    expect(
      await db.selectFrom("report_sales_day").select("day").where("day", "<=", march.to).where("day", ">=", march.from).execute(),
    ).toEqual([]);
    expect(await reports(db, march)).toEqual(live);

    // A day whose claim is deleted (to roll it up again) is written anew in place of its rows.
    expect(await rollUpDays(db, march, NOW)).toBe(31);
    await db.deleteFrom("report_day").where("day", "=", "2033-03-10").execute();
    expect(await rollUpDays(db, march, NOW)).toBe(1);
    expect(await reports(db, march)).toEqual(live);
    expect([live.sales.total.orders, live.funnel.total.registrations]).toEqual([1, 1]);
  });

  it("counts a refund of an order of a rolled-up day on the day it succeeds, and that day once it is rolled up", async () => {
    const old = orderIds.find((o) => o.day === "2033-05-12") ?? orderIds.find((o) => o.day < "2033-06-01")!;
    const before = await salesReport(db, WHOLE);
    await refund(old.id, "succeeded", NOW.toISOString());
    const after = await salesReport(db, WHOLE);
    const { amount_cents: refundsCents } = await db
      .selectFrom("store_refund")
      .select("amount_cents")
      .where("order_id", "=", old.id)
      .where("succeeded_at", "=", NOW.toISOString())
      .executeTakeFirstOrThrow();
    const dayOf = (report: typeof before, day: string) => report.days.find((d) => d.day === day)!;
    expect(dayOf(after, old.day)).toEqual(dayOf(before, old.day));
    expect(dayOf(after, TODAY).refundsCents).toBe(dayOf(before, TODAY).refundsCents + refundsCents);
    expect(dayOf(after, TODAY).refunds).toBe(dayOf(before, TODAY).refunds + 1);
    expect(after, because).toEqual((await liveReports(WHOLE)).sales);

    // The next day, today is closed and rolled up with it.
    expect(await rollUpDays(db, WHOLE, new Date("2033-06-16T02:00:00.000Z"))).toBe(1);
    expect(await rolledDays()).toContain(TODAY);
    expect(await salesReport(db, WHOLE)).toEqual(after);
  });

  it("leaves a day live until an hour after its end, so that a payment committed just after midnight counts", async () => {
    const day = "2033-06-16";
    const before = await reports(db, { from: day, to: day });
    expect(await rollUpDays(db, WHOLE, new Date("2033-06-17T00:30:00.000Z"))).toBe(0);
    const { all } = await availabilities(db);
    await paidOrder("2033-06-16T23:59:59.900Z", [all.find((a) => a.status === "A")!.id]);
    expect(await rollUpDays(db, WHOLE, new Date("2033-06-17T01:30:00.000Z"))).toBe(1);
    const after = await reports(db, { from: day, to: day });
    expect(after.sales.total.orders).toBe(before.sales.total.orders + 1);
    expect(after, because).toEqual(await liveReports({ from: day, to: day }));
  });
});
