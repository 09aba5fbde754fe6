import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertUser, type User } from "~/server/accounts/users";
import type { Database } from "~/server/db/connection";
import { HISTORY_PAGE_SIZE } from "~/server/library/history";
import { purchaseHistory } from "~/server/store/purchase-history";
import { activateCheckout } from "~/server/subscriptions/checkout";
import { availabilities, insertOrder } from "~/tests/helpers/store-orders";
import { seededTestDatabase } from "~/tests/helpers/test-db";

let db: Database;
let close: () => Promise<void>;
let pick: Awaited<ReturnType<typeof availabilities>>;

beforeAll(async () => {
  ({ db, close } = await seededTestDatabase());
  pick = await availabilities(db);
});
afterAll(() => close());

async function reader(): Promise<User> {
  const user = await insertUser(db, {
    firstName: "Odile",
    lastName: "Marchetti",
    email: `buyer-${crypto.randomUUID()}@example.org`,
    password: "Lantern5!quay",
    optIn: false,
  });
  if (!user) throw new Error("user not created");
  return user;
}

/** A subscription bought on /subscriptions: the checkout row, then its real activation. */
async function subscribe(userId: string, planId: string, amountCents: number, at: string): Promise<string> {
  const id = `chk_${crypto.randomBytes(16).toString("base64url")}`;
  await db
    .insertInto("subscription_checkout")
    .values({
      id,
      user_id: userId,
      plan_id: planId,
      ab_tag: "",
      amount_cents: amountCents,
      provider: "sandbox",
      provider_session_id: null,
      status: "created",
      created_at: at,
      activated_at: null,
    })
    .execute();
  expect(await activateCheckout(db, id, new Date(at))).toBe(true);
  return id;
}

describe("purchase history", () => {
  it("is empty for a reader who has bought nothing", async () => {
    const user = await reader();
    expect(await purchaseHistory(db, user.id, 1)).toEqual({ entries: [], total: 0 });
  });

  it("lists paid orders as Purchased and cancelled ones as Cancelled, newest first, leaving out orders awaiting payment", async () => {
    const user = await reader();
    const paid = await insertOrder(db, {
      userId: user.id,
      email: user.email,
      status: "paid",
      createdAt: "2026-03-01T10:00:00.000Z",
      lines: [{ availabilityId: pick.hardcover.id, quantity: 2 }],
    });
    const cancelled = await insertOrder(db, {
      userId: user.id,
      email: user.email,
      status: "cancelled",
      createdAt: "2026-04-01T10:00:00.000Z",
      lines: [{ availabilityId: pick.kindle.id }],
    });
    await insertOrder(db, {
      userId: user.id,
      email: user.email,
      status: "pending_payment",
      createdAt: "2026-05-01T10:00:00.000Z",
      lines: [{ availabilityId: pick.epub.id }],
    });

    const { entries, total } = await purchaseHistory(db, user.id, 1);
    expect(total).toBe(2);
    expect(entries.map((e) => [e.id, e.status, e.title, e.href])).toEqual([
      [cancelled.id, "Cancelled", `Order ${cancelled.number}`, `/order/${cancelled.id}`],
      [paid.id, "Purchased", `Order ${paid.number}`, `/order/${paid.id}`],
    ]);
    const hardcover = await db
      .selectFrom("product_availability")
      .select("list_price_cents")
      .where("id", "=", pick.hardcover.id)
      .executeTakeFirstOrThrow();
    expect(entries[1]!.totalCents).toBe(hardcover.list_price_cents * 2);
    expect(entries[1]!.lines).toEqual([
      { title: pick.hardcover.title, contentType: pick.hardcover.product_type, authors: pick.hardcover.authors, availableDate: null },
    ]);
  });

  it("shows at most five line items with how many more there are, copyright permissions and coming-soon dates", async () => {
    const user = await reader();
    const seven = [pick.hardcover, pick.kindle, pick.epub, pick.pdfBook, pick.html, pick.spreadsheet, pick.caseStudy];
    await insertOrder(db, {
      userId: user.id,
      email: user.email,
      status: "paid",
      createdAt: "2026-06-01T10:00:00.000Z",
      lines: seven.map((a) => ({ availabilityId: a.id })),
    });
    await insertOrder(db, {
      userId: user.id,
      email: user.email,
      status: "paid",
      createdAt: "2026-06-02T10:00:00.000Z",
      lines: [
        { availabilityId: pick.comingSoon.id },
        { availabilityId: pick.withPermissions.id, kind: "perm", quantity: 40 },
        { availabilityId: pick.bundle.id },
      ],
    });
    const [later, earlier] = (await purchaseHistory(db, user.id, 1)).entries;
    expect(earlier!.lines.map((l) => l.title)).toEqual(seven.slice(0, 5).map((a) => a.title));
    expect(earlier!.moreLines).toBe(2);
    expect(later!.moreLines).toBe(0);
    expect(later!.lines[0]!.availableDate).toMatch(/^\d{4}-\d{2}-\d{2}/);
    expect(later!.lines[1]!.title).toBe(`Copyright permissions: ${pick.withPermissions.title}`);
    expect(later!.lines[2]).toMatchObject({ title: pick.bundle.title, contentType: "Bundle", availableDate: null });
  });

  it("lists only the reader's own orders: not another reader's, nor a guest order under the same address", async () => {
    const user = await reader();
    const other = await reader();
    await insertOrder(db, {
      userId: other.id,
      email: other.email,
      status: "paid",
      createdAt: "2026-07-01T10:00:00.000Z",
      lines: [{ availabilityId: pick.kindle.id }],
    });
    await insertOrder(db, {
      userId: null,
      email: user.email,
      status: "paid",
      createdAt: "2026-07-02T10:00:00.000Z",
      lines: [{ availabilityId: pick.kindle.id }],
    });
    const own = await insertOrder(db, {
      userId: user.id,
      email: user.email,
      status: "paid",
      createdAt: "2026-07-03T10:00:00.000Z",
      lines: [{ availabilityId: pick.kindle.id }],
    });
    const { entries, total } = await purchaseHistory(db, user.id, 1);
    expect(total).toBe(1);
    expect(entries.map((e) => e.id)).toEqual([own.id]);
  });

  it("shows bought subscriptions as #S entries with their account number, among the orders by date", async () => {
    const user = await reader();
    const first = await subscribe(user.id, "digital", 1200, "2026-01-05T09:00:00.000Z");
    const order = await insertOrder(db, {
      userId: user.id,
      email: user.email,
      status: "paid",
      createdAt: "2026-02-01T10:00:00.000Z",
      lines: [{ availabilityId: pick.kindle.id }],
    });
    const second = await subscribe(user.id, "premium", 2000, "2026-03-05T09:00:00.000Z");
    // A checkout the provider never confirmed is not a purchase.
    await db
      .insertInto("subscription_checkout")
      .values({
        id: `chk_${crypto.randomBytes(16).toString("base64url")}`,
        user_id: user.id,
        plan_id: "executive",
        ab_tag: "",
        amount_cents: 45000,
        provider: "sandbox",
        provider_session_id: null,
        status: "created",
        created_at: "2026-04-01T00:00:00.000Z",
        activated_at: null,
      })
      .execute();
    // Another reader's subscription stays theirs.
    await subscribe((await reader()).id, "digital", 1200, "2026-03-06T09:00:00.000Z");

    const { entries, total } = await purchaseHistory(db, user.id, 1);
    expect(total).toBe(3);
    expect(entries.map((e) => [e.kind, e.id, e.title, e.accountNumber])).toEqual([
      ["subscription", second, "Premium subscription #S2", second],
      ["order", order.id, `Order ${order.number}`, null],
      ["subscription", first, "Digital subscription #S1", first],
    ]);
    expect(entries[0]).toMatchObject({
      status: "Purchased",
      totalCents: 2000,
      href: `/subscriptions/receipt?checkout=${second}`,
      accessEnd: "2026-04-05T09:00:00.000Z",
    });
    expect(entries[0]!.title).toContain("#S");
  });

  it("pages like the other histories", async () => {
    const user = await reader();
    for (let i = 0; i < HISTORY_PAGE_SIZE + 2; i++) {
      await insertOrder(db, {
        userId: user.id,
        email: user.email,
        status: "paid",
        createdAt: `2026-08-${String(i + 1).padStart(2, "0")}T10:00:00.000Z`,
        lines: [{ availabilityId: pick.hardcover.id }],
      });
    }
    const one = await purchaseHistory(db, user.id, 1);
    const two = await purchaseHistory(db, user.id, 2);
    expect(one.total).toBe(HISTORY_PAGE_SIZE + 2);
    expect(one.entries).toHaveLength(HISTORY_PAGE_SIZE);
    expect(two.entries.map((e) => e.at)).toEqual(["2026-08-02T10:00:00.000Z", "2026-08-01T10:00:00.000Z"]);
  });
});
