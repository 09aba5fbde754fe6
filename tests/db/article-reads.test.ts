import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/server/db/connection";
import { readDay } from "~/server/content/popularity";
import { recordArticleRead } from "~/server/paywall/article-reads";
import { meterPeriod } from "~/server/paywall/meter";
import { decideOffer, recordRead, type Offer, type OfferRules, type Reader } from "~/server/paywall/offers";
import { wallView } from "~/server/paywall/walls";
import { userKey, visitorKey } from "~/server/readers/keys";
import { insertReader } from "~/tests/helpers/reader-records";
import { dialectName, seededTestDatabase } from "~/tests/helpers/test-db";

// Every article page records its reads in at most two statements outside the meter's transaction
// (ADR 094): a read-only look-up of the meter and one insert whose trigger writes popularity,
// history and the wall view. Hundreds of pages opened at once, re-reads racing their first reads,
// must leave exact counts: the meter's limits and the address ceiling held, each full read once on
// Most Popular, each signed-in reader's history holding what they opened, each walled reader once
// in the funnel.

const RULES: OfferRules = {
  guestLimit: 4,
  ascendLimit: 3,
  registeredLimit: 8,
  addressCeiling: 15,
  tags: { article: "tag-article", top50: "tag-top50", cases: "tag-cases", "visual-library": "tag-vl" },
};
const NOW = new Date("2027-03-10T09:30:00.000Z");
const NETWORK = "203.0.113.9";

let db: Database;
let close: () => Promise<void>;
let articles: { id: number; tier: "article" | "top50" | "cases" | "visual-library"; ascend: boolean }[];

beforeAll(async () => {
  ({ db, close } = await seededTestDatabase());
  const rows = await db.selectFrom("article").select(["id", "tier"]).where("tier", "=", "article").orderBy("id").limit(12).execute();
  articles = rows.map((r) => ({ id: r.id, tier: r.tier, ascend: false }));
});
afterAll(() => close());

/** An article page as `openArticle` serves it: the meter's answer, the offer, then the page's one write. */
async function openPage(reader: Reader, article: (typeof articles)[number]): Promise<Offer> {
  const request = { reader, article, readingList: false, gift: false };
  const offer = decideOffer(RULES, request, await recordRead(db, RULES, request, NOW));
  const userId = reader.kind === "registered" || reader.kind === "subscriber" ? reader.userId : null;
  await recordArticleRead(db, { articleId: article.id, popular: offer.fullContent, userId, wall: wallView(reader, offer) }, NOW);
  return offer;
}

const count = (n: unknown) => Number(n);

describe(`article pages opened all at once (${dialectName})`, () => {
  it("hold the meter's limits and the address ceiling exactly, and lose no read on Most Popular, in history or in the funnel", async () => {
    const sharedNetwork = Array.from({ length: 6 }, (_, i) => ({
      kind: "guest" as const,
      visitorId: `reads-guest-net-${i}`,
      network: NETWORK,
    }));
    const unplaced = { kind: "guest" as const, visitorId: "reads-guest-nowhere", network: null };
    const registered = await Promise.all(
      [0, 1, 2, 3].map(async (i) => ({
        kind: "registered" as const,
        userId: await insertReader(db, `reads-registered-${i}`, NOW.toISOString()),
      })),
    );
    const subscribers = await Promise.all(
      [0, 1].map(async (i) => ({
        kind: "subscriber" as const,
        userId: await insertReader(db, `reads-subscriber-${i}`, NOW.toISOString()),
      })),
    );
    const readers: Reader[] = [...sharedNetwork, unplaced, ...registered, ...subscribers];
    const popularBefore = new Map(
      (await db.selectFrom("article_read_day").select(["article_id", "reads"]).where("day", "=", readDay(NOW)).execute()).map((r) => [
        r.article_id,
        r.reads,
      ]),
    );

    // Each reader opens each of the 12 articles twice: 264 pages, 32 at a time (three times the
    // pool's connections), so a page never waits for a connection past the pool's time-out on a
    // loaded machine.
    const pages = readers.flatMap((reader) => [...articles, ...articles].map((article) => ({ reader, article })));
    const offers: Offer[] = [];
    let next = 0;
    const opener = async () => {
      for (let i = next++; i < pages.length; i = next++) offers[i] = await openPage(pages[i]!.reader, pages[i]!.article);
    };
    await Promise.all(Array.from({ length: 32 }, opener));
    const served = pages.map((page, i) => ({ ...page, offer: offers[i]! }));

    const opened = (reader: Reader) => served.filter((s) => s.reader === reader && s.offer.fullContent).map((s) => s.article.id);
    const meterRows = await db
      .selectFrom("meter_read")
      .select(["meter_key", "article_id", "client_address"])
      .where("period", "=", meterPeriod(NOW))
      .execute();
    const onMeter = (key: string) => meterRows.filter((r) => r.meter_key === key).map((r) => r.article_id);

    // The meter: each reader's limit, and the address's ceiling across its visitors, exactly.
    for (const reader of registered) expect(onMeter(userKey(reader.userId))).toHaveLength(RULES.registeredLimit);
    expect(onMeter(visitorKey(unplaced.visitorId))).toHaveLength(RULES.guestLimit);
    for (const guest of sharedNetwork) expect(onMeter(visitorKey(guest.visitorId)).length).toBeLessThanOrEqual(RULES.guestLimit);
    expect(meterRows.filter((r) => r.client_address === NETWORK)).toHaveLength(RULES.addressCeiling);
    for (const reader of subscribers) expect(onMeter(userKey(reader.userId))).toEqual([]);
    // Exactly the articles on a reader's meter opened in full for them, each as often as it was asked for.
    for (const reader of [...sharedNetwork, unplaced, ...registered]) {
      const key = reader.kind === "guest" ? visitorKey(reader.visitorId) : userKey(reader.userId);
      const meter = onMeter(key).sort((a, b) => a - b);
      expect(new Set(opened(reader))).toEqual(new Set(meter));
      expect(opened(reader)).toHaveLength(2 * meter.length);
    }
    for (const reader of subscribers) expect(opened(reader)).toHaveLength(24);

    // Most Popular: one read per page served in full, none lost and none twice.
    const popularAfter = await db.selectFrom("article_read_day").select(["article_id", "reads"]).where("day", "=", readDay(NOW)).execute();
    for (const article of articles) {
      const full = served.filter((s) => s.article === article && s.offer.fullContent).length;
      const after = count(popularAfter.find((r) => r.article_id === article.id)?.reads ?? 0);
      expect(after - count(popularBefore.get(article.id) ?? 0), `article ${article.id}`).toBe(full);
    }

    // History: every article a signed-in reader opened, walled or not, at the time they opened it.
    const history = await db
      .selectFrom("view_history")
      .select(["user_id", "content_id", "viewed_at"])
      .where("content_type", "=", "article")
      .where(
        "user_id",
        "in",
        [...registered, ...subscribers].map((r) => r.userId),
      )
      .execute();
    for (const reader of [...registered, ...subscribers]) {
      const mine = history.filter((h) => h.user_id === reader.userId);
      expect(mine.map((h) => h.content_id).sort((a, b) => a - b)).toEqual(articles.map((a) => a.id).sort((a, b) => a - b));
      expect(new Set(mine.map((h) => h.viewed_at))).toEqual(new Set([NOW.toISOString()]));
    }

    // The funnel: each reader who met a wall, once for the day.
    const walls = await db.selectFrom("wall_view").select(["viewer", "wall"]).where("day", "=", readDay(NOW)).execute();
    const walled = readers.filter((reader) => served.some((s) => s.reader === reader && !s.offer.fullContent));
    expect(walls.map((w) => `${w.viewer} ${w.wall}`).sort()).toEqual(
      walled
        .map((r) =>
          r.kind === "guest" ? `${visitorKey(r.visitorId)} registration` : r.kind === "registered" ? `${userKey(r.userId)} subscribe` : "",
        )
        .sort(),
    );
  });
});
