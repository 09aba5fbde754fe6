import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { register } from "~/server/accounts/registration";
import type { Database } from "~/server/db/connection";
import type { BillingStatus, RefundStatus } from "~/server/db/schema";
import { funnelReport, salesReport, SHIPPING_ROW, subscriptionsReport } from "~/server/desk/reports";
import { recordArticleRead } from "~/server/paywall/article-reads";
import type { Offer, Reader } from "~/server/paywall/offers";
import { wallView } from "~/server/paywall/walls";
import { insertReader, insertPlanCheckout } from "~/tests/helpers/reader-records";
import { availabilities, insertOrder, insertRefund, priceOrder } from "~/tests/helpers/store-orders";
import { seededTestDatabase } from "~/tests/helpers/test-db";

// The desk's reports (ADR 090) on the database the run uses, against data made by hand: each
// figure of sales by day and product, subscriptions by tier, and the meter funnel by A/B tag.
// Each part uses days of its own, which no other part (nor the seed) writes into.

let db: Database;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ db, close } = await seededTestDatabase());
}, 60_000);
afterAll(() => close());

/** A reader made long before the reports' days, who counts in none of them by being made. */
const readerId = (name: string) => insertReader(db, name, "2025-01-01T00:00:00.000Z");

describe("sales by day and product", () => {
  /** Two products of the seed catalogue, and their lines' prices as these orders set them. */
  let a: { id: number; productId: number; title: string };
  let b: { id: number; productId: number; title: string };
  const PRICE_A = 2_000;
  const PRICE_B = 1_000;

  /** An order paid (or not) at `paidAt`, with its lines at the prices above and the order's money as given. */
  async function order(
    paidAt: string | null,
    lines: { of: typeof a; quantity: number }[],
    money: { discount?: number; tax?: number; shipping?: number } = {},
  ) {
    const made = await insertOrder(db, {
      userId: null,
      email: "sales@reports.example",
      status: paidAt ? "paid" : "pending_payment",
      createdAt: paidAt ?? "2030-03-01T08:00:00.000Z",
      paidAt,
      lines: lines.map((l) => ({ availabilityId: l.of.id, quantity: l.quantity })),
    });
    for (const [i, l] of lines.entries()) {
      const price = l.of === a ? PRICE_A : PRICE_B;
      await db
        .updateTable("store_order_line")
        .set({ unit_price_cents: price, line_total_cents: price * l.quantity })
        .where("order_id", "=", made.id)
        .where("position", "=", i + 1)
        .execute();
    }
    return { ...made, total: await priceOrder(db, made.id, money) };
  }

  /** A refund of some of an order's lines (positions and quantities), as ADR 086's refunds leave it. */
  const refund = (orderId: string, status: RefundStatus, at: string, amountCents: number, lines: [position: number, quantity: number][]) =>
    insertRefund(db, { orderId, status, at, amountCents, lines });

  let first: Awaited<ReturnType<typeof order>>;
  let second: Awaited<ReturnType<typeof order>>;
  let third: Awaited<ReturnType<typeof order>>;

  beforeAll(async () => {
    const pick = await availabilities(db);
    const titles = new Map((await db.selectFrom("product").select(["id", "title"]).execute()).map((p) => [p.id, p.title]));
    const withProduct = await db.selectFrom("product_availability").select(["id", "product_id"]).orderBy("id").execute();
    const productOf = (id: number) => withProduct.find((r) => r.id === id)!.product_id;
    a = { id: pick.hardcover.id, productId: productOf(pick.hardcover.id), title: titles.get(productOf(pick.hardcover.id))! };
    const other = withProduct.find((r) => r.product_id !== a.productId)!;
    b = { id: other.id, productId: other.product_id, title: titles.get(other.product_id)! };

    // 1 March: two of A and one of B, with shipping; the buyer later gets B's money back.
    first = await order(
      "2030-03-01T10:00:00.000Z",
      [
        { of: a, quantity: 2 },
        { of: b, quantity: 1 },
      ],
      { shipping: 500 },
    );
    // 1 March: one of B with shipping, later refunded in full (the last refund gives the shipping back).
    third = await order("2030-03-01T18:30:00.000Z", [{ of: b, quantity: 1 }], { shipping: 300 });
    // 2 March: one of A, with a discount and tax: its gross is what was paid for it.
    second = await order("2030-03-02T09:00:00.000Z", [{ of: a, quantity: 1 }], { discount: 200, tax: 90 });
    // Not sales of these days: unpaid, and paid the minute before.
    await order(null, [{ of: a, quantity: 5 }]);
    await order("2030-02-28T23:59:59.999Z", [{ of: a, quantity: 7 }]);

    // 2 March: B of the first order refunded; the third refunded whole; one refund still pending, one failed.
    await refund(first.id, "succeeded", "2030-03-02T12:00:00.000Z", PRICE_B, [[2, 1]]);
    await refund(third.id, "succeeded", "2030-03-02T13:00:00.000Z", PRICE_B + 300, [[1, 1]]);
    await refund(second.id, "pending", "2030-03-02T14:00:00.000Z", 500, [[1, 1]]);
    await refund(second.id, "failed", "2030-03-02T15:00:00.000Z", 500, [[1, 1]]);
    // A refund after the range.
    await refund(first.id, "succeeded", "2030-03-03T00:00:00.000Z", PRICE_A, [[1, 1]]);
  });

  const range = { from: "2030-03-01", to: "2030-03-02" };

  it("counts each day's orders paid, units, what they paid, the refunds that went through that day, and the net", async () => {
    const report = await salesReport(db, range);
    expect(report.days).toEqual([
      {
        day: "2030-03-01",
        orders: 2,
        units: 4,
        grossCents: first.total + third.total,
        refunds: 0,
        refundsCents: 0,
        netCents: first.total + third.total,
      },
      {
        day: "2030-03-02",
        orders: 1,
        units: 1,
        grossCents: PRICE_A - 200 + 90,
        refunds: 2,
        refundsCents: PRICE_B + PRICE_B + 300,
        netCents: PRICE_A - 110 - 2 * PRICE_B - 300,
      },
    ]);
    expect(first.total).toBe(2 * PRICE_A + PRICE_B + 500);
    expect(report.total).toEqual({
      day: "",
      orders: 3,
      units: 5,
      grossCents: first.total + third.total + second.total,
      refunds: 2,
      refundsCents: 2 * PRICE_B + 300,
      netCents: first.total + third.total + second.total - 2 * PRICE_B - 300,
    });
  });

  it("splits each day by product, refunds against the products they gave back, and shipping in a row of its own", async () => {
    const { rows } = await salesReport(db, range);
    const figures = (day: string, productId: number | null) => {
      const row = rows.find((r) => r.day === day && r.productId === productId);
      return row && [row.product, row.orders, row.units, row.grossCents, row.refundedUnits, row.refundsCents, row.netCents];
    };
    expect(rows).toHaveLength(6);
    expect(figures("2030-03-01", a.productId)).toEqual([a.title, 1, 2, 2 * PRICE_A, 0, 0, 2 * PRICE_A]);
    expect(figures("2030-03-01", b.productId)).toEqual([b.title, 2, 2, 2 * PRICE_B, 0, 0, 2 * PRICE_B]);
    expect(figures("2030-03-01", null)).toEqual([SHIPPING_ROW, null, 0, 800, 0, 0, 800]);
    // The discount and the tax are A's: what the buyer paid for it.
    expect(figures("2030-03-02", a.productId)).toEqual([a.title, 1, 1, PRICE_A - 110, 0, 0, PRICE_A - 110]);
    // B sold nothing on the 2nd, but two were refunded then, and the shipping of the order refunded whole.
    expect(figures("2030-03-02", b.productId)).toEqual([b.title, 0, 0, 0, 2, 2 * PRICE_B, -2 * PRICE_B]);
    expect(figures("2030-03-02", null)).toEqual([SHIPPING_ROW, null, 0, 0, 0, 300, -300]);
  });

  it("adds the days up by product, the largest gross first and shipping last", async () => {
    const { products } = await salesReport(db, range);
    expect(products.map((p) => [p.product, p.orders, p.units, p.grossCents, p.refundedUnits, p.refundsCents, p.netCents])).toEqual([
      [a.title, 2, 3, 3 * PRICE_A - 110, 0, 0, 3 * PRICE_A - 110],
      [b.title, 2, 2, 2 * PRICE_B, 2, 2 * PRICE_B, 0],
      [SHIPPING_ROW, null, 0, 800, 0, 300, 500],
    ]);
  });

  it("lists every day of the range, those without sales as zeros", async () => {
    const report = await salesReport(db, { from: "2030-03-02", to: "2030-03-04" });
    expect(report.days.map((d) => [d.day, d.orders, d.refundsCents])).toEqual([
      ["2030-03-02", 1, 2 * PRICE_B + 300],
      ["2030-03-03", 0, PRICE_A],
      ["2030-03-04", 0, 0],
    ]);
  });
});

describe("subscriptions by tier", () => {
  const range = { from: "2031-03-01", to: "2031-03-31" };
  const NOW = new Date("2031-04-15T12:00:00.000Z");

  async function subscription(input: {
    planId: string | null;
    roleCode: string;
    source?: "web" | "print";
    reference?: string;
    status?: "active" | "cancelled";
    start: string;
    end: string;
    billing?: BillingStatus | null;
    cancelledAt?: string;
    graceEnd?: string;
  }) {
    const id = crypto.randomUUID();
    await db
      .insertInto("subscription")
      .values({
        id,
        user_id: await readerId("subscriber"),
        role_code: input.roleCode,
        source: input.source ?? "web",
        reference: input.reference ?? `chk_${id}`,
        status: input.status ?? "active",
        access_start: `${input.start}T00:00:00.000Z`,
        access_end: `${input.end}T00:00:00.000Z`,
        created_at: `${input.start}T00:00:00.000Z`,
        plan_id: input.planId,
        billing_status: input.billing === undefined ? "active" : input.billing,
        cancelled_at: input.cancelledAt ? `${input.cancelledAt}T09:00:00.000Z` : null,
        grace_end: input.graceEnd ? `${input.graceEnd}T00:00:00.000Z` : null,
        past_due_since: input.graceEnd ? `${input.end}T00:00:00.000Z` : null,
      })
      .execute();
  }

  beforeAll(async () => {
    const GOOD = "MRSUB_GOOD";
    // Digital ($12 a month): active all through; new in March; cancelled in March but running to its end.
    await subscription({ planId: "digital", roleCode: GOOD, start: "2031-02-10", end: "2031-04-10" });
    await subscription({ planId: "digital", roleCode: GOOD, start: "2031-03-05", end: "2031-04-05" });
    await subscription({
      planId: "digital",
      roleCode: GOOD,
      start: "2031-01-20",
      end: "2031-04-20",
      billing: "cancel_at_period_end",
      cancelledAt: "2031-03-10",
    });
    // Ended in March after failed renewals (its grace ran out on the 12th).
    await subscription({
      planId: "digital",
      roleCode: GOOD,
      start: "2031-02-05",
      end: "2031-03-05",
      billing: "ended",
      graceEnd: "2031-03-12",
    });
    // Over before March; replaced by another plan; not started until April.
    await subscription({ planId: "digital", roleCode: GOOD, start: "2031-01-05", end: "2031-02-20" });
    await subscription({ planId: "digital", roleCode: GOOD, status: "cancelled", start: "2031-02-01", end: "2031-05-01" });
    await subscription({ planId: "premium", roleCode: "MRSUB_BEST", start: "2031-04-02", end: "2031-05-02" });
    // Executive ($450 a year): one paid, and one complimentary, granted in March (ADR 087).
    await subscription({ planId: "executive", roleCode: "MRSUB_EXECUTIVE", start: "2030-06-01", end: "2031-06-01" });
    await subscription({
      planId: null,
      roleCode: "MRSUB_EXECUTIVE",
      reference: "comp:reports-test",
      billing: null,
      start: "2031-03-15",
      end: "2031-05-01",
    });
    // A print subscription linked to an account.
    await subscription({
      planId: null,
      roleCode: "MRSUB_BETTER",
      source: "print",
      reference: "print:R-1",
      billing: null,
      start: "2031-01-01",
      end: "2032-01-01",
    });
  });

  it("counts active, complimentary, print, new and cancelled subscriptions by tier, their churn and MRR", async () => {
    const report = await subscriptionsReport(db, range, NOW);
    expect(report.asOf).toBe("2031-03-31T23:59:59.999Z");
    expect(report.tiers).toEqual([
      {
        tier: "Digital",
        active: 3,
        comps: 0,
        print: 0,
        started: 1,
        cancelled: 2,
        payingAtStart: 3,
        churn: 2 / 3,
        mrrCents: 3 * 1_200,
      },
      { tier: "Digital + Print", active: 1, comps: 0, print: 1, started: 0, cancelled: 0, payingAtStart: 0, churn: null, mrrCents: 0 },
      // The comp counts as active and adds nothing; the yearly plan adds a twelfth of its price.
      { tier: "Executive", active: 2, comps: 1, print: 0, started: 1, cancelled: 0, payingAtStart: 1, churn: 0, mrrCents: 3_750 },
    ]);
    expect(report.total).toEqual({
      tier: "All tiers",
      active: 6,
      comps: 1,
      print: 1,
      started: 2,
      cancelled: 2,
      payingAtStart: 4,
      churn: 0.5,
      mrrCents: 3 * 1_200 + 3_750,
    });
  });

  it("takes active and MRR at the moment asked when the range ends later, and the days' own changes only", async () => {
    const midMarch = await subscriptionsReport(db, { from: "2031-03-01", to: "2031-03-31" }, new Date("2031-03-08T00:00:00.000Z"));
    expect(midMarch.asOf).toBe("2031-03-08T00:00:00.000Z");
    // The plan that ended unpaid is still in its grace on the 8th.
    expect(midMarch.tiers.find((t) => t.tier === "Digital")).toMatchObject({ active: 4, mrrCents: 4 * 1_200 });
    const april = await subscriptionsReport(db, { from: "2031-04-01", to: "2031-04-03" }, NOW);
    expect(april.tiers.map((t) => [t.tier, t.active, t.started, t.cancelled])).toEqual([
      ["Digital", 3, 0, 0],
      ["Digital + Print", 1, 0, 0],
      ["Premium", 1, 1, 0],
      ["Executive", 2, 0, 0],
    ]);
  });
});

describe("the meter funnel by A/B tag", () => {
  const range = { from: "2032-05-01", to: "2032-05-02" };
  const at = (day: string, time = "10:00:00") => new Date(`${day}T${time}.000Z`);
  const ARTICLE = "paywall-article";
  const CASES = "paywall-cases";

  const registrationWall = (tag: string) => ({ wall: "registration" as const, abTag: tag });
  const guest = (visitorId: string) => ({ kind: "guest" as const, visitorId, network: null });
  /** A reader shown an article page with this offer, as the page records it (no one signed in, nothing read in full). */
  const recordWallView = async (reader: Reader, offer: Pick<Offer, "wall" | "abTag">, when: Date) => {
    const article = await db.selectFrom("article").select("id").orderBy("id").executeTakeFirstOrThrow();
    await recordArticleRead(db, { articleId: article.id, popular: false, userId: null, wall: wallView(reader, offer) }, when);
  };

  const checkout = async (tag: string, activatedAt: string | null) =>
    insertPlanCheckout(db, { userId: await readerId("buyer"), tag, activatedAt, createdAt: "2032-05-01T00:00:00.000Z" });

  async function registration(name: string, wallTag: string | null, when: Date) {
    const made = await register(
      db,
      {
        firstName: name,
        lastName: "Funnel",
        email: `${name}.${crypto.randomUUID()}@funnel.example`,
        password: "Correct7horse!",
        optIn: false,
        wallTag,
      },
      when,
    );
    expect(made.ok).toBe(true);
  }

  beforeAll(async () => {
    // Guest 1 meets the article wall three times over two days, and the cases wall once.
    await recordWallView(guest("g1"), registrationWall(ARTICLE), at("2032-05-01"));
    await recordWallView(guest("g1"), registrationWall(ARTICLE), at("2032-05-01", "11:00:00"));
    await recordWallView(guest("g1"), registrationWall(ARTICLE), at("2032-05-02"));
    await recordWallView(guest("g1"), registrationWall(CASES), at("2032-05-02"));
    await recordWallView(guest("g2"), registrationWall(ARTICLE), at("2032-05-02"));
    await recordWallView(guest("g3"), registrationWall(CASES), at("2032-05-01"));
    // Outside the days; a client without a cookie (not told apart); an offer without a wall.
    await recordWallView(guest("g4"), registrationWall(ARTICLE), at("2032-04-30", "23:59:59"));
    await recordWallView({ kind: "unmetered" }, registrationWall(ARTICLE), at("2032-05-01"));
    await recordWallView(guest("g5"), { wall: null, abTag: ARTICLE }, at("2032-05-01"));
    // A registered reader out of free articles, twice.
    const reader = { kind: "registered" as const, userId: "reader-1" };
    await recordWallView(reader, { wall: "subscribe", abTag: ARTICLE }, at("2032-05-01"));
    await recordWallView(reader, { wall: "subscribe", abTag: ARTICLE }, at("2032-05-02"));

    await registration("walled", ARTICLE, at("2032-05-01", "10:05:00"));
    await registration("cases", CASES, at("2032-05-02"));
    await registration("plain", null, at("2032-05-02"));
    await registration("later", ARTICLE, at("2032-05-03"));

    await checkout(ARTICLE, "2032-05-02T08:00:00.000Z");
    await checkout("paywall-video", "2032-05-01T08:00:00.000Z");
    await checkout("direct", "2032-05-01T09:00:00.000Z");
    // Opened, never paid.
    await checkout(ARTICLE, null);
    await checkout(ARTICLE, "2032-05-03T00:00:00.000Z");
  });

  it("counts guests walled once each, registrations from the wall and subscriptions from it, by tag", async () => {
    const report = await funnelReport(db, range);
    expect(report.rows).toEqual([
      {
        tag: ARTICLE,
        guestsWalled: 2,
        registrations: 1,
        registrationRate: 0.5,
        subscribeWalled: 1,
        subscriptions: 1,
        subscriptionRate: 1,
      },
      {
        tag: CASES,
        guestsWalled: 2,
        registrations: 1,
        registrationRate: 0.5,
        subscribeWalled: 0,
        subscriptions: 0,
        subscriptionRate: null,
      },
      {
        tag: "paywall-video",
        guestsWalled: 0,
        registrations: 0,
        registrationRate: null,
        subscribeWalled: 0,
        subscriptions: 1,
        subscriptionRate: null,
      },
    ]);
    // A guest walled under two tags is one guest of all of them.
    expect(report.total).toEqual({
      tag: "All tags",
      guestsWalled: 3,
      registrations: 2,
      registrationRate: 2 / 3,
      subscribeWalled: 1,
      subscriptions: 2,
      subscriptionRate: 2,
    });
    expect(report.direct).toBe(1);
  });

  it("answers zeros for days with nothing", async () => {
    const report = await funnelReport(db, { from: "2032-06-01", to: "2032-06-30" });
    expect(report.rows).toEqual([]);
    expect(report.total).toMatchObject({ guestsWalled: 0, registrations: 0, registrationRate: null, subscriptions: 0 });
    expect(report.direct).toBe(0);
  });
});
