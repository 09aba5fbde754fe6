import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/server/db/connection";
import { ARTICLES_PER_SITEMAP, articlesSitemap, sitemapIndex } from "~/server/content/feeds";
import { loadStream, pageSize, STREAM_PAGES, topicStream } from "~/server/content/streams";
import { listTopics, topicArticleCounts } from "~/server/content/topics";
import { addSyntheticArticles } from "~/server/seed/synthetic";
import { searchContent } from "~/server/search";
import { TITLE_WINDOW } from "~/server/search/engine";
import { COUNT_WINDOW } from "~/shared/search-kinds";
import { dialectName, seededTestDatabase } from "~/tests/helpers/test-db";

let db: Database;
let close: () => Promise<void>;
const progress: number[] = [];
/** Enough for three sitemap files of articles, the last one short. */
const SYNTHETIC = 2 * ARTICLES_PER_SITEMAP + 4;

beforeAll(async () => {
  ({ db, close } = await seededTestDatabase());
  await addSyntheticArticles(db, SYNTHETIC, (done) => progress.push(done));
}, 120_000);
afterAll(() => close());

describe(`synthetic volume (${dialectName})`, () => {
  it("adds the requested number of articles and reports progress per batch", async () => {
    const row = await db
      .selectFrom("article")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    const seeded = await db.selectFrom("article").select("id").where("slug", "not like", "synthetic-%").execute();
    expect(Number(row.n)).toBe(seeded.length + SYNTHETIC);
    expect(progress.at(-1)).toBe(SYNTHETIC);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });

  it("adds them oldest first, as a site would have published them", async () => {
    const byId = await db.selectFrom("article").select("published").where("slug", "like", "synthetic-%").orderBy("id").execute();
    const dates = byId.map((r) => r.published);
    expect(new Set(dates.map((d) => d.slice(0, 4))).size).toBeGreaterThan(20);
    expect(dates).toEqual([...dates].sort());
  });

  it(`splits the sitemap's articles into files of ${ARTICLES_PER_SITEMAP}, with every article in one of them`, async () => {
    const index = await sitemapIndex(db, "https://example.test");
    expect(index).toContain("https://example.test/sitemaps/articles-3.xml");
    expect(index).not.toContain("articles-4.xml");
    const files = await Promise.all([1, 2, 3].map(async (n) => (await articlesSitemap(db, "https://example.test", n))!));
    const count = (xml: string) => xml.split("<url>").length - 1;
    const total = await db
      .selectFrom("article")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    expect(files.slice(0, 2).map(count)).toEqual([ARTICLES_PER_SITEMAP, ARTICLES_PER_SITEMAP]);
    expect(files.map(count).reduce((a, b) => a + b)).toBe(Number(total.n));
    expect(await articlesSitemap(db, "https://example.test", 4)).toBeUndefined();
  });

  it("searches a word in most of 10,000 articles with bounded work: counts stop at 1,000, title matches lead, then the newest", async () => {
    const request = { query: "customers", kinds: [], topicId: null, from: null, to: null, paging: { page: 1, loaded: 1 } };
    const relevant = await searchContent(db, { ...request, sort: "relevance" }, { previewBlocks: 3 });
    expect(relevant.countCapped).toBe(true);
    expect(relevant.page.total).toBe(COUNT_WINDOW);
    expect(relevant.kinds.reduce((sum, k) => sum + k.count, 0)).toBe(COUNT_WINDOW);
    // Relevance order reaches the newest 1,000 matches and the newest title matches of any age.
    expect(relevant.page.last).toBeGreaterThanOrEqual(COUNT_WINDOW / 10);
    expect(relevant.page.last).toBeLessThanOrEqual((COUNT_WINDOW + TITLE_WINDOW) / 10);
    expect(relevant.entries).toHaveLength(10);
    const everything = await searchContent(db, { ...request, sort: "relevance", paging: { page: 1, loaded: relevant.page.last } }, "full");
    // "customers" stems to "custom": a title with "custom" or "customise" holds it too.
    const inTitle = everything.entries.map((e) => /\bcustom/i.test(e.title));
    const titled = inTitle.filter(Boolean).length;
    expect(titled).toBeGreaterThan(0);
    expect(inTitle.slice(0, titled)).not.toContain(false);
    const rest = everything.entries.slice(titled).map((e) => e.published);
    expect(rest.length).toBeGreaterThan(COUNT_WINDOW - TITLE_WINDOW);
    expect([...rest].sort().reverse()).toEqual(rest);

    const newest = await searchContent(db, { ...request, sort: "newest", paging: { page: 7, loaded: 2 } }, { previewBlocks: 3 });
    expect(newest.page.last).toBe(COUNT_WINDOW / 10);
    const dates = newest.entries.map((e) => e.published);
    expect(dates).toHaveLength(20);
    expect([...dates].sort().reverse()).toEqual(dates);
  });

  it("still pages The Latest newest first, a deep page and Load more from it exactly where counting rows would put them", async () => {
    const latest = STREAM_PAGES["the-latest"]!;
    const page = await loadStream(db, latest, { page: 3, loaded: 1 });
    expect(page.page.last).toBeGreaterThan(1000);
    const dates = page.entries.map((e) => e.published);
    expect([...dates].sort().reverse()).toEqual(dates);

    const newestFirst = await db.selectFrom("article").select("id").orderBy("published", "desc").orderBy("id", "desc").execute();
    const ids = (p: { entries: { id: number }[] }) => p.entries.map((e) => e.id);
    const size = page.page.size;
    for (const number of [2, 700, page.page.last]) {
      const deep = await loadStream(db, latest, { page: number, loaded: 1 });
      expect(ids(deep), `page ${number}`).toEqual(newestFirst.slice((number - 1) * size, number * size).map((r) => r.id));
    }
    const two = await loadStream(db, latest, { page: 700, loaded: 2 });
    expect(ids(two)).toEqual(newestFirst.slice(699 * size, 701 * size).map((r) => r.id));
    expect((await loadStream(db, latest, { page: page.page.last + 1, loaded: 1 })).entries).toEqual([]);
  });

  it("pages a topic's articles newest first, its largest and its smallest, counting only the published", async () => {
    const sizes = await db
      .selectFrom("article_topic")
      .select(["topic_id", (eb) => eb.fn.countAll<number>().as("n")])
      .groupBy("topic_id")
      .having((eb) => eb.fn.countAll(), ">=", 3)
      .orderBy("n", "desc")
      .execute();
    const topics = await listTopics(db);
    const inTopic = async (topicId: number) =>
      (
        await db
          .selectFrom("article")
          .innerJoin("article_topic", "article_topic.article_id", "article.id")
          .where("article_topic.topic_id", "=", topicId)
          .select("article.id")
          .orderBy("article.published", "desc")
          .orderBy("article.id", "desc")
          .execute()
      ).map((r) => r.id);
    const ids = (p: { entries: { id: number }[] }) => p.entries.map((e) => e.id);
    for (const { topic_id } of [sizes[0]!, sizes[sizes.length - 1]!]) {
      const stream = topicStream(topics.find((t) => t.id === topic_id)!);
      const size = pageSize(stream);
      const expected = await inTopic(topic_id);
      const first = await loadStream(db, stream, { page: 1, loaded: 1 });
      expect(ids(first)).toEqual(expected.slice(0, size));
      expect(first.page.total).toBe(expected.length);
      expect((await topicArticleCounts(db)).get(topic_id)).toBe(expected.length);
      const last = first.page.last;
      expect(ids(await loadStream(db, stream, { page: last, loaded: 1 }))).toEqual(expected.slice((last - 1) * size));
      if (last > 2) expect(ids(await loadStream(db, stream, { page: 2, loaded: 2 }))).toEqual(expected.slice(size, 3 * size));

      // Withdrawn, its newest leaves the list and the counts; published again, it is back.
      await db.updateTable("article_record").set({ status: "unpublished" }).where("id", "=", expected[0]!).execute();
      const without = await loadStream(db, stream, { page: 1, loaded: 1 });
      expect(ids(without)).toEqual(expected.slice(1, size + 1));
      expect(without.page.total).toBe(expected.length - 1);
      expect((await topicArticleCounts(db)).get(topic_id)).toBe(expected.length - 1);
      await db.updateTable("article_record").set({ status: "published" }).where("id", "=", expected[0]!).execute();
      expect(ids(await loadStream(db, stream, { page: 1, loaded: 1 }))).toEqual(expected.slice(0, size));
    }
  });

  it("numbers The Latest's pages from a count that follows every publish, withdrawal, insert and delete", async () => {
    const latest = STREAM_PAGES["the-latest"]!;
    const counted = async () =>
      Number(
        (
          await db
            .selectFrom("article")
            .select((eb) => eb.fn.countAll().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const total = async () => (await loadStream(db, latest, { page: 1, loaded: 1 })).page.total;
    const before = await counted();
    expect(await total()).toBe(before);
    const [a, b] = (await db.selectFrom("article").select("id").orderBy("id").limit(2).execute()).map((r) => r.id);

    await db.updateTable("article_record").set({ status: "unpublished" }).where("id", "in", [a!, b!]).execute();
    expect(await total()).toBe(before - 2);
    // A status set again to what it was changes nothing.
    await db.updateTable("article_record").set({ status: "unpublished" }).where("id", "=", a!).execute();
    await db.updateTable("article_record").set({ status: "draft" }).where("id", "=", a!).execute();
    expect(await total()).toBe(before - 2);
    await db.updateTable("article_record").set({ status: "published" }).where("id", "in", [a!, b!]).execute();
    expect(await total()).toBe(before);

    // A copy of an article inserted as published, then deleted; and one whose transaction fails.
    const row = await db.selectFrom("article_record").selectAll().where("id", "=", a!).executeTakeFirstOrThrow();
    const copy = { ...row, id: 9_000_000, slug: `${row.slug}-copy` };
    await db.insertInto("article_record").values(copy).execute();
    expect(await total()).toBe(before + 1);
    await db.deleteFrom("article_record").where("id", "=", copy.id).execute();
    expect(await total()).toBe(before);
    await expect(
      db.transaction().execute(async (tx) => {
        await tx.insertInto("article_record").values(copy).execute();
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await total()).toBe(before);
    expect(await counted()).toBe(before);
  });
});
