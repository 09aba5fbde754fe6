import * as cheerio from "cheerio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/server/db/connection";
import { latestFeed, pagesSitemap, podcastFeed } from "~/server/content/feeds";
import { dialectName, seededTestDatabase } from "~/tests/helpers/test-db";

// Feed readers and crawlers parse the XML: text with markup characters and characters outside
// the Basic Multilingual Plane must come back exactly as written.

const SITE = "https://example.test";
const AWKWARD = `Profit & Loss <Q3> "Rocket" 🚀 edition`;

let db: Database;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ db, close } = await seededTestDatabase());
});
afterAll(() => close());

describe(`feeds and sitemaps as parsed XML (${dialectName})`, () => {
  it('gives back an article title with &, <, " and an emoji exactly in the latest feed', async () => {
    const newest = await db.selectFrom("article").select("id").orderBy("published", "desc").orderBy("id", "desc").executeTakeFirstOrThrow();
    await db.updateTable("article_record").set({ title: AWKWARD }).where("id", "=", newest.id).execute();
    const $ = cheerio.load(await latestFeed(db, SITE, `Meridian & "Review"`), { xml: true });
    expect($("channel > title").text()).toBe(`Meridian & "Review": The Latest`);
    expect($("item > title").first().text()).toBe(AWKWARD);
    expect($("channel > atom\\:link").attr("href")).toBe(`${SITE}/feeds/latest.xml`);
    expect($("item").first().find("dc\\:creator").length).toBeGreaterThan(0);
  });

  it('gives back an episode title with &, <, " and an emoji exactly in the podcast feed', async () => {
    const series = await db.selectFrom("podcast_series").select(["id", "slug"]).orderBy("id").executeTakeFirstOrThrow();
    const episode = await db
      .selectFrom("podcast_episode")
      .select("id")
      .where("series_id", "=", series.id)
      .orderBy("id")
      .executeTakeFirstOrThrow();
    await db.updateTable("podcast_episode").set({ title: AWKWARD }).where("id", "=", episode.id).execute();
    const owner = { name: `Meridian & "Review"`, email: "podcasts@example.test" };
    const $ = cheerio.load((await podcastFeed(db, series.slug, SITE, owner))!, { xml: true });
    const item = $("item").filter((_, el) => $(el).find("guid").text() === `podcast-episode-${episode.id}@example.test`);
    expect(item.find("title").text()).toBe(AWKWARD);
    expect(item.find("enclosure").attr("url")).toBe(`${SITE}/media/podcast/${episode.id}.mp3`);
    expect($("rss").attr("xmlns:itunes")).toBe("http://www.itunes.com/dtds/podcast-1.0.dtd");
    // Apple writes to the owner to confirm a show is theirs.
    expect($("channel > itunes\\:owner > itunes\\:name").text()).toBe(owner.name);
    expect($("channel > itunes\\:owner > itunes\\:email").text()).toBe(owner.email);
  });

  it("lists the fixed pages in the sitemap namespace", async () => {
    const $ = cheerio.load(await pagesSitemap(db, SITE), { xml: true });
    expect($("urlset").attr("xmlns")).toBe("http://www.sitemaps.org/schemas/sitemap/0.9");
    const locs = $("url > loc")
      .map((_, el) => $(el).text())
      .get();
    for (const page of ["/", "/podcasts", "/reading-lists", "/email-newsletters", "/privacy-policy"])
      expect(locs).toContain(`${SITE}${page}`);
  });

  it("lists each reading list's own page", async () => {
    const $ = cheerio.load(await pagesSitemap(db, SITE), { xml: true });
    const locs = $("url > loc")
      .map((_, el) => $(el).text())
      .get();
    const lists = await db.selectFrom("reading_list").select("slug").execute();
    expect(lists.length).toBeGreaterThan(0);
    for (const { slug } of lists) expect(locs).toContain(`${SITE}/reading-lists/${slug}`);
  });

  it("lists every podcast episode's page, dated as published", async () => {
    const $ = cheerio.load(await pagesSitemap(db, SITE), { xml: true });
    const episodes = await db.selectFrom("podcast_episode").select(["id", "pub_date"]).execute();
    expect(episodes.length).toBeGreaterThan(20);
    const listed = new Map(
      $("url")
        .map((_, u) => [[$(u).find("loc").text(), $(u).find("lastmod").text()]])
        .get() as [string, string][],
    );
    for (const e of episodes) {
      const loc = [...listed.keys()].find((l) => new RegExp(`^${SITE}/podcasts/[a-z0-9-]+/${e.id}-[a-z0-9-]+$`).test(l));
      expect(loc, `episode ${e.id}`).toBeDefined();
      expect(listed.get(loc!)).toBe(e.pub_date);
    }
  });
});
