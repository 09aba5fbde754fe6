import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newToken } from "~/server/accounts/tokens";
import { insertUser, type User } from "~/server/accounts/users";
import type { Database } from "~/server/db/connection";
import { createGift, giftPeriod, giftsLeft, listGifts, resolveGift, revokeGift } from "~/server/share/gifts";
import { articlePath } from "~/shared/urls";
import { seededTestDatabase } from "~/tests/helpers/test-db";

let db: Database;
let close: () => Promise<void>;
let articles: { id: number; title: string; year: number; month: number; slug: string }[];

beforeAll(async () => {
  ({ db, close } = await seededTestDatabase());
  articles = await db.selectFrom("article").select(["id", "title", "year", "month", "slug"]).orderBy("id").limit(3).execute();
  expect(articles).toHaveLength(3);
});
afterAll(() => close());

async function newReader(email: string): Promise<User> {
  const user = await insertUser(db, { firstName: "Gift", lastName: "Giver", email, password: "Correct7horse!", optIn: false });
  if (!user) throw new Error("user not created");
  return user;
}

const article = (i: number) => articles[i]!;
/** Gift links open for 14 days (GIFT_LINK_DAYS' default). */
const VALID = { validDays: 14 };

async function giftFor(user: User, articleId: number, at = new Date()) {
  const result = await createGift(db, { userId: user.id, articleId, allowance: 10 }, at);
  if (!result.ok) throw new Error(result.reason);
  return result;
}

describe("gift allowance", () => {
  it("names the month in UTC", () => {
    expect(giftPeriod(new Date("2026-01-31T23:59:59.999Z"))).toBe("2026-01");
    expect(giftPeriod(new Date("2026-02-01T00:00:00Z"))).toBe("2026-02");
    expect(giftPeriod(new Date("2026-12-31T23:30:00-02:00"))).toBe("2027-01");
  });

  it("runs down with each gift and stops at zero", async () => {
    const user = await newReader("runs.down@example.org");
    const january = new Date("2026-01-15T12:00:00Z");
    expect(await giftsLeft(db, user.id, 3, january)).toBe(3);
    const left = [];
    for (let i = 0; i < 3; i++) {
      const result = await createGift(db, { userId: user.id, articleId: article(0).id, allowance: 3 }, january);
      left.push(result.ok ? result.giftsLeft : result.reason);
    }
    expect(left).toEqual([2, 1, 0]);
    expect(await createGift(db, { userId: user.id, articleId: article(0).id, allowance: 3 }, january)).toEqual({
      ok: false,
      reason: "allowance-used",
    });
    expect(await giftsLeft(db, user.id, 3, january)).toBe(0);
    expect(await listGifts(db, user.id)).toHaveLength(3);
  });

  it("starts each month with a fresh allowance", async () => {
    const user = await newReader("new.month@example.org");
    const lastDay = new Date("2026-03-31T23:59:00Z");
    for (let i = 0; i < 2; i++) await createGift(db, { userId: user.id, articleId: article(0).id, allowance: 2 }, lastDay);
    expect(await createGift(db, { userId: user.id, articleId: article(0).id, allowance: 2 }, lastDay)).toMatchObject({ ok: false });

    const nextMonth = new Date("2026-04-01T00:00:00Z");
    expect(await giftsLeft(db, user.id, 2, nextMonth)).toBe(2);
    expect(await createGift(db, { userId: user.id, articleId: article(0).id, allowance: 2 }, nextMonth)).toMatchObject({
      ok: true,
      giftsLeft: 1,
    });
    expect(await giftsLeft(db, user.id, 2, lastDay)).toBe(0);
  });

  it("gives exactly the allowance when many gifts are asked for at once", async () => {
    const user = await newReader("at.once@example.org");
    const results = await Promise.all(
      Array.from({ length: 10 }, () => createGift(db, { userId: user.id, articleId: article(1).id, allowance: 3 })),
    );
    const created = results.filter((r) => r.ok);
    expect(created).toHaveLength(3);
    expect(results.filter((r) => !r.ok)).toEqual(Array(7).fill({ ok: false, reason: "allowance-used" }));
    expect(created.map((r) => (r.ok ? r.giftsLeft : -1)).sort()).toEqual([0, 1, 2]);
    expect(await giftsLeft(db, user.id, 3)).toBe(0);
    const stored = await db.selectFrom("gift_link").select("id").where("user_id", "=", user.id).execute();
    expect(stored).toHaveLength(3);
  });
});

describe("gift links", () => {
  it("opens the article it was made for, and stores only a hash of the token", async () => {
    const user = await newReader("opens@example.org");
    const gift = await giftFor(user, article(0).id);
    expect(gift.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await resolveGift(db, gift.token, article(0).id, VALID)).toEqual({ giftId: gift.giftId, giverId: user.id });
    const row = await db.selectFrom("gift_link").selectAll().where("id", "=", gift.giftId).executeTakeFirstOrThrow();
    expect(row.token_hash).not.toContain(gift.token);
  });

  it("does not open another article", async () => {
    const user = await newReader("other.article@example.org");
    const gift = await giftFor(user, article(0).id);
    expect(await resolveGift(db, gift.token, article(1).id, VALID)).toBeUndefined();
  });

  it("does not open with a tampered or malformed token", async () => {
    const user = await newReader("tampered@example.org");
    const gift = await giftFor(user, article(0).id);
    const last = gift.token.at(-1) === "A" ? "B" : "A";
    expect(await resolveGift(db, gift.token.slice(0, -1) + last, article(0).id, VALID)).toBeUndefined();
    expect(await resolveGift(db, newToken(), article(0).id, VALID)).toBeUndefined();

    // Wrong shapes are refused before any query: this database fails on first use.
    const noDatabase = new Proxy({} as Database, {
      get() {
        throw new Error("queried the database");
      },
    });
    for (const token of [
      "",
      gift.token.slice(0, -1),
      `${gift.token}A`,
      `${gift.token.slice(0, -1)}=`,
      `${gift.token.slice(0, -1)}/`,
      "x".repeat(5000),
    ]) {
      expect(await resolveGift(noDatabase, token, article(0).id, VALID)).toBeUndefined();
    }
  });

  it("stops opening once the giver revokes it, without giving the allowance back", async () => {
    const user = await newReader("revoker@example.org");
    const at = new Date("2026-05-10T09:00:00Z");
    const gift = await createGift(db, { userId: user.id, articleId: article(0).id, allowance: 1 }, at);
    if (!gift.ok) throw new Error(gift.reason);
    expect(await revokeGift(db, user.id, gift.giftId)).toBe(true);
    expect(await resolveGift(db, gift.token, article(0).id, VALID)).toBeUndefined();
    expect(await giftsLeft(db, user.id, 1, at)).toBe(0);
    expect(await createGift(db, { userId: user.id, articleId: article(0).id, allowance: 1 }, at)).toMatchObject({ ok: false });
    expect((await listGifts(db, user.id))[0]).toMatchObject({ id: gift.giftId, revoked: true });
  });

  it("expires GIFT_LINK_DAYS days after it was made", async () => {
    const user = await newReader("expiring@example.org");
    const made = new Date("2026-03-01T10:00:00Z");
    const gift = await giftFor(user, article(0).id, made);
    const valid = { giftId: gift.giftId, giverId: user.id };
    expect(await resolveGift(db, gift.token, article(0).id, { validDays: 14, now: new Date("2026-03-15T09:59:59Z") })).toEqual(valid);
    expect(await resolveGift(db, gift.token, article(0).id, { validDays: 14, now: new Date("2026-03-15T10:00:00Z") })).toBe("expired");
    expect(await resolveGift(db, gift.token, article(0).id, { validDays: 30, now: new Date("2026-03-15T10:00:00Z") })).toEqual(valid);
    // An expired link still opens nothing for another article or with a wrong token.
    expect(await resolveGift(db, gift.token, article(1).id, { validDays: 14, now: new Date("2026-04-01T00:00:00Z") })).toBeUndefined();
  });

  it("cannot be revoked by anyone but the giver", async () => {
    const giver = await newReader("giver@example.org");
    const stranger = await newReader("stranger@example.org");
    const gift = await giftFor(giver, article(0).id);
    expect(await revokeGift(db, stranger.id, gift.giftId)).toBe(false);
    expect(await revokeGift(db, giver.id, "no-such-gift")).toBe(false);
    expect(await resolveGift(db, gift.token, article(0).id, VALID)).toEqual({ giftId: gift.giftId, giverId: giver.id });
    expect((await listGifts(db, giver.id))[0]).toMatchObject({ id: gift.giftId, revoked: false });
  });

  it("lists the giver's own gifts, newest first, with the article's title and address", async () => {
    const user = await newReader("lister@example.org");
    const other = await newReader("someone.else@example.org");
    await giftFor(other, article(0).id);
    const first = await giftFor(user, article(0).id, new Date("2026-06-01T10:00:00Z"));
    const second = await giftFor(user, article(1).id, new Date("2026-06-02T10:00:00Z"));
    const third = await giftFor(user, article(2).id, new Date("2026-06-03T10:00:00Z"));
    await revokeGift(db, user.id, second.giftId);

    const gifts = await listGifts(db, user.id);
    expect(gifts).toEqual([
      {
        id: third.giftId,
        articleId: article(2).id,
        articleTitle: article(2).title,
        articleUrl: articlePath(article(2)),
        createdAt: "2026-06-03T10:00:00.000Z",
        revoked: false,
      },
      {
        id: second.giftId,
        articleId: article(1).id,
        articleTitle: article(1).title,
        articleUrl: articlePath(article(1)),
        createdAt: "2026-06-02T10:00:00.000Z",
        revoked: true,
      },
      {
        id: first.giftId,
        articleId: article(0).id,
        articleTitle: article(0).title,
        articleUrl: articlePath(article(0)),
        createdAt: "2026-06-01T10:00:00.000Z",
        revoked: false,
      },
    ]);
    expect((await listGifts(db, user.id, 2)).map((g) => g.id)).toEqual([third.giftId, second.giftId]);
  });
});
