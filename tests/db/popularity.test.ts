import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/server/db/connection";
import { HOME_COUNTS, homePage } from "~/server/content/home";
import { mostReadArticleIds } from "~/server/content/popularity";
import { recordArticleRead } from "~/server/paywall/article-reads";
import { seededTestDatabase } from "~/tests/helpers/test-db";

let db: Database;
let close: () => Promise<void>;
beforeAll(async () => ({ db, close } = await seededTestDatabase()));
afterAll(() => close());

const NOW = new Date("2026-11-15T12:00:00Z");
const daysBefore = (days: number) => new Date(NOW.getTime() - days * 86_400_000);
/** A guest opened the article in full. */
const countRead = (articleId: number, at: Date) => recordArticleRead(db, { articleId, popular: true, userId: null, wall: null }, at);

async function articleIds(tier: "article" | "top50"): Promise<number[]> {
  const rows = await db.selectFrom("article").select("id").where("tier", "=", tier).orderBy("published", "desc").execute();
  return rows.map((r) => r.id);
}

describe("Most Popular", () => {
  it("ranks the articles read most over the last seven days, today included, and fills up from the Top 50", async () => {
    const [a, b, c] = await articleIds("article");
    // a: 3 reads this week; b: 2 this week and 5 eight days ago, which no longer count; c: 1 a week ago to the day.
    for (const day of [0, 2, 6]) await countRead(a!, daysBefore(day));
    await countRead(b!, NOW);
    await countRead(b!, NOW);
    for (let i = 0; i < 5; i++) await countRead(b!, daysBefore(8));
    await countRead(c!, daysBefore(7));
    expect(await mostReadArticleIds(db, 5, NOW)).toEqual([a, b]);
    expect(await mostReadArticleIds(db, 1, NOW)).toEqual([a]);

    const { popular } = await homePage(db, NOW);
    const top50 = (await articleIds("top50")).slice(0, HOME_COUNTS.popular - 2);
    expect(popular.map((p) => p.id)).toEqual([a, b, ...top50]);
    expect(new Set(popular.map((p) => p.id)).size).toBe(popular.length);
  });
});
