import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findArticle, latestArticles } from "~/server/content/articles";
import { archiveYears, issueByCode, issuesOfYear } from "~/server/content/archive";
import type { Database } from "~/server/db/connection";
import { loadStream, pageSize, STREAM_PAGES, topicStream } from "~/server/content/streams";
import { listTopics, topicByHeadlineSegment, topicBySlug, topicDirectory } from "~/server/content/topics";
import { topicSlug } from "~/shared/slugs";
import { loadSeedContent } from "~/server/seed/content-source";
import { dialectName, seededTestDatabase } from "~/tests/helpers/test-db";

let db: Database;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ db, close } = await seededTestDatabase());
});
afterAll(() => close());

describe(`seeded content (${dialectName})`, () => {
  it("has at least 30 articles of 600 to 1,200 words across at least 12 topics", async () => {
    const articles = await db.selectFrom("article").select(["word_count"]).execute();
    expect(articles.length).toBeGreaterThanOrEqual(30);
    for (const a of articles) {
      expect(a.word_count).toBeGreaterThanOrEqual(600);
      expect(a.word_count).toBeLessThanOrEqual(1250);
    }
    const topics = await db.selectFrom("article_topic").select("topic_id").distinct().execute();
    expect(topics.length).toBeGreaterThanOrEqual(12);
  });

  it("has a magazine archive from 1956 to 2025 with covers' titles and features", async () => {
    const years = await archiveYears(db);
    expect(years[0]!.yearId).toBe(2025);
    expect(years.at(-1)!.yearId).toBe(1956);
    expect(years).toHaveLength(70);
    const issue = await issueByCode(db, "5601");
    expect(issue?.title).toBeTruthy();
    expect(issue?.featuring.length).toBe(5);
    expect(issue?.previous).toBeNull();
    expect(issue?.next?.code).toBe("5603");
  });

  it("gives every issue a cover story and features of its time, and a year's issues different cover stories", async () => {
    const { magazine } = loadSeedContent(path.resolve("content"));
    const since = new Map(magazine.themes.map((t) => [t.title, t.since]));
    const issues = await db.selectFrom("magazine_issue").select(["year", "title"]).execute();
    expect(issues.length).toBeGreaterThan(400);
    const early = issues.filter((i) => (since.get(i.title) ?? Infinity) > i.year).map((i) => `${i.year}: ${i.title}`);
    expect(early).toEqual([]);
    // Nor is any "Featuring" title: no "Generative AI and the Knowledge Worker" in 2002.
    const featureSince = new Map(magazine.features.map((f) => [f.title, f.since]));
    const features = await db
      .selectFrom("issue_feature")
      .innerJoin("magazine_issue", "magazine_issue.id", "issue_feature.issue_id")
      .select(["magazine_issue.year", "issue_feature.title"])
      .where("issue_feature.article_id", "is", null)
      .execute();
    expect(features.length).toBeGreaterThan(1000);
    expect(features.filter((f) => (featureSince.get(f.title) ?? Infinity) > f.year).map((f) => `${f.year}: ${f.title}`)).toEqual([]);
    // "Generative AI at Work" runs from 2023, never in 2002.
    expect(issues.filter((i) => i.title === "Generative AI at Work").every((i) => i.year >= 2023)).toBe(true);
    for (const year of [1956, 1990, 2010, 2025]) {
      const titles = issues.filter((i) => i.year === year).map((i) => i.title);
      expect(new Set(titles).size, `${year}`).toBeGreaterThanOrEqual(Math.min(titles.length, 5));
    }
  });

  it("features the month's own articles in recent issues", async () => {
    const issues = await issuesOfYear(db, 2025);
    const linked = issues.flatMap((i) => i.featuring.filter((f) => f.url !== null));
    expect(linked.length).toBeGreaterThan(0);
    expect(linked[0]!.url).toMatch(/^\/2025\/\d{2}\/[a-z0-9-]+$/);
  });

  it("has products with availabilities, videos in playlists, podcasts, newsletters and reading lists", async () => {
    const count = async (t: "product_availability" | "playlist_video" | "podcast_episode" | "newsletter" | "reading_list_item") =>
      Number(
        (
          await db
            .selectFrom(t)
            .select((eb) => eb.fn.countAll().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await count("product_availability")).toBeGreaterThan(18);
    expect(await count("playlist_video")).toBeGreaterThan(10);
    expect(await count("podcast_episode")).toBeGreaterThan(20);
    expect(await count("newsletter")).toBeGreaterThanOrEqual(6);
    expect(await count("reading_list_item")).toBeGreaterThan(10);
    const comingSoon = await db.selectFrom("product_availability").select("available_date").where("status", "=", "F").execute();
    expect(comingSoon.length).toBeGreaterThan(0);
    expect(comingSoon.every((a) => /^\d{4}-\d{2}-\d{2}$/.test(a.available_date ?? ""))).toBe(true);
  });

  it("seeds The Slow Turn coming soon, its date counted from the seeding so that it is still ahead", async () => {
    const formats = await db
      .selectFrom("product_availability as a")
      .innerJoin("product as p", "p.id", "a.product_id")
      .select(["a.code", "a.status", "a.available_date", "p.published"])
      .where("p.slug", "=", "the-slow-turn")
      .execute();
    expect(formats.map((f) => [f.code, f.status])).toEqual([
      ["HBK", "F"],
      ["KND", "F"],
    ]);
    const today = new Date().toISOString().slice(0, 10);
    for (const f of formats) {
      expect(f.available_date! > today, f.code).toBe(true);
      expect(f.published).toBe(f.available_date);
    }
  });
});

describe(`articles (${dialectName})`, () => {
  it("finds an article and reports the canonical URL for a wrong year or month", async () => {
    const [latest] = await latestArticles(db, 1);
    const [, year, month, slug] = latest!.url.split("/");
    const found = await findArticle(db, Number(year), Number(month), slug!);
    expect(found.kind).toBe("found");
    const moved = await findArticle(db, Number(year) - 1, Number(month), slug!);
    expect(moved).toEqual({ kind: "moved", url: latest!.url });
    expect((await findArticle(db, 2025, 1, "no-such-article")).kind).toBe("missing");
  });

  it("gives series articles their parts in order", async () => {
    const part = await db.selectFrom("article").selectAll().where("series_part", "=", 2).executeTakeFirstOrThrow();
    const found = await findArticle(db, part.year, part.month, part.slug);
    if (found.kind !== "found") throw new Error("series article not found");
    expect(found.article.series?.parts.map((p) => p.part)).toEqual([1, 2, 3]);
  });
});

describe(`streams (${dialectName})`, () => {
  it("pages The Latest ten at a time, newest first, and renders loaded pages together", async () => {
    const latest = STREAM_PAGES["the-latest"]!;
    const first = await loadStream(db, latest, { page: 1, loaded: 1 });
    expect(first.page.size).toBe(10);
    expect(first.entries).toHaveLength(10);
    const dates = first.entries.map((e) => e.published);
    expect([...dates].sort().reverse()).toEqual(dates);
    const two = await loadStream(db, latest, { page: 1, loaded: 2 });
    expect(two.entries.map((e) => e.id).slice(0, 10)).toEqual(first.entries.map((e) => e.id));
    const second = await loadStream(db, latest, { page: 2, loaded: 1 });
    expect(two.entries.slice(10).map((e) => e.id)).toEqual(second.entries.map((e) => e.id));
  });

  it("names each card's authors in their byline order", async () => {
    const first = await loadStream(db, STREAM_PAGES["the-latest"]!, { page: 1, loaded: 3 });
    const bylines = await db
      .selectFrom("article_author")
      .innerJoin("author", "author.id", "article_author.author_id")
      .select(["article_author.article_id", "author.name"])
      .orderBy("article_author.article_id")
      .orderBy("article_author.position")
      .execute();
    const expected = (id: number) => bylines.filter((b) => b.article_id === id).map((b) => ({ name: b.name }));
    expect(first.entries.some((e) => e.authors.length > 1)).toBe(true);
    for (const entry of first.entries) expect(entry.authors).toEqual(expected(entry.id));
  });

  it("uses page size 8 for lists without a page-size attribute", async () => {
    const stream = await loadStream(db, STREAM_PAGES["ascend"]!, { page: 1, loaded: 1 });
    expect(stream.page.size).toBe(8);
    expect(stream.entries.length).toBeGreaterThan(0);
  });

  it("lists a topic's articles, including those where it is a secondary topic", async () => {
    const topic = (await topicBySlug(db, "leadership-and-managing-people"))!;
    const stream = await loadStream(db, topicStream(topic), { page: 1, loaded: 1 });
    expect(stream.page.total).toBeGreaterThan(stream.entries.filter((e) => e.topic.name === topic.name).length);
  });

  it("resolves headline topic links", async () => {
    expect((await topicByHeadlineSegment(db, "leadership-&-managing-people"))?.slug).toBe("leadership-and-managing-people");
    expect(await topicByHeadlineSegment(db, "not-a-topic")).toBeUndefined();
  });

  it("fills the first page of every named stream, and its other pages hold the rest once each", async () => {
    for (const stream of Object.values(STREAM_PAGES)) {
      const first = await loadStream(db, stream, { page: 1, loaded: 1 });
      expect(first.entries, stream.slug).toHaveLength(pageSize(stream));
      const all = await loadStream(db, stream, { page: 1, loaded: first.page.last });
      expect(all.entries, stream.slug).toHaveLength(first.page.total);
      expect(new Set(all.entries.map((e) => e.id)).size, stream.slug).toBe(first.page.total);
    }
  });
});

describe(`topics (${dialectName})`, () => {
  const SUBJECTS = [
    "Board Governance",
    "Economics & Society",
    "Entrepreneurship",
    "Finance & Accounting",
    "Innovation",
    "International Business",
    "Leadership & Managing People",
    "Managing Organizations",
    "Managing Yourself",
    "Operations",
    "R&D",
    "Sales & Marketing",
    "Strategy",
    "Technology",
  ];

  it("groups at least 180 described topics under the 14 subjects, each at the spec's slug", async () => {
    const topics = await listTopics(db);
    const directory = topicDirectory(topics);
    expect(directory.map((d) => d.subject.name)).toEqual(SUBJECTS);
    const grouped = directory.flatMap((d) => d.topics);
    expect(grouped.length).toBeGreaterThanOrEqual(180);
    expect(grouped.length + SUBJECTS.length).toBe(topics.length);
    for (const { subject, topics: inSubject } of directory) expect(inSubject.length, subject.name).toBeGreaterThanOrEqual(10);
    for (const t of topics) {
      expect(t.description.length, t.name).toBeGreaterThan(40);
      expect(t.slug).toBe(topicSlug(t.name));
    }
    expect(new Set(topics.map((t) => t.description)).size).toBe(topics.length);
  });

  it("gives every topic a page with articles on it", async () => {
    const empty: string[] = [];
    for (const topic of await listTopics(db)) {
      const page = await loadStream(db, topicStream(topic), { page: 1, loaded: 1 });
      if (page.entries.length === 0) empty.push(topic.name);
    }
    expect(empty).toEqual([]);
  });

  it("gives a subject's topics its subscriber and executive rules", async () => {
    const topics = await listTopics(db);
    for (const { subject, topics: inSubject } of topicDirectory(topics))
      for (const t of inSubject)
        expect({ t: t.name, s: t.subscriberOnly, e: t.executiveOnly }).toEqual({
          t: t.name,
          s: subject.subscriberOnly,
          e: subject.executiveOnly,
        });
    expect(topics.find((t) => t.name === "Prototyping")).toMatchObject({ subscriberOnly: true, executiveOnly: false });
    expect(topics.find((t) => t.name === "CEO Succession")).toMatchObject({ subscriberOnly: false, executiveOnly: true });
  });
});
