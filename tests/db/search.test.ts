import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/server/db/connection";
import { blockText, parseBody } from "~/server/content/markdown";
import { articleDocuments, indexDocuments } from "~/server/search/documents";
import { searchContent, suggest, type SearchRequest, type SearchResults } from "~/server/search";
import { addSyntheticArticles } from "~/server/seed/synthetic";
import type { SearchKind } from "~/shared/search-kinds";
import { productCoverPath } from "~/shared/urls";
import { dialectName, seededTestDatabase } from "~/tests/helpers/test-db";
import { isPostgres } from "~/server/db/dialect";

let db: Database;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ db, close } = await seededTestDatabase());
});
afterAll(() => close());

const PREVIEW = { previewBlocks: 3 } as const;

function search(query: string, options: Partial<Omit<SearchRequest, "query">> = {}, access: typeof PREVIEW | "full" = PREVIEW) {
  return searchContent(
    db,
    { query, kinds: [], topicId: null, from: null, to: null, sort: "relevance", paging: { page: 1, loaded: 1 }, ...options },
    access,
  );
}

const snippetText = (r: SearchResults["entries"][number]) => r.snippet.map((p) => p.text).join("");
const marked = (r: SearchResults["entries"][number]) => r.snippet.filter((p) => p.mark).map((p) => p.text.toLowerCase());
const words = (text: string): string[] => text.toLowerCase().match(/[a-z]+/g) ?? [];

/** A word of one article's gated paragraphs that no free text of any article holds, in as few bodies as possible. */
async function gatedOnlyWord() {
  const articles = await db.selectFrom("article").select(["id", "slug", "title", "dek", "sub_dek", "summary", "body"]).execute();
  const free = new Set(
    articles.flatMap((a) => words([a.title, a.dek, a.sub_dek, a.summary, ...parseBody(a.body).slice(0, 3).map(blockText)].join(" "))),
  );
  const inBodies = (w: string) => articles.filter((a) => words(a.body).includes(w)).length;
  const candidates = articles.flatMap((a) =>
    [
      ...new Set(
        parseBody(a.body)
          .slice(3)
          .flatMap((b) => words(blockText(b))),
      ),
    ]
      .filter((w) => w.length >= 8 && ![...free].some((f) => f.startsWith(w.slice(0, 6))))
      .map((w) => ({ article: a, word: w, bodies: inBodies(w) })),
  );
  candidates.sort((x, y) => x.bodies - y.bodies || x.word.localeCompare(y.word));
  return candidates[0]!;
}

describe(`search engine (${dialectName})`, () => {
  it("finds an article by a word that only its gated body holds, without showing that paragraph to a reader who may not read it", async () => {
    const { article, word } = await gatedOnlyWord();
    const walled = await search(word);
    const hit = walled.entries.find((e) => e.kind === "article" && e.url.endsWith(`/${article.slug}`));
    expect(hit, `"${word}" should find ${article.slug}`).toBeDefined();
    expect(words(snippetText(hit!))).not.toContain(word);
    const gated = parseBody(article.body).slice(3).map(blockText);
    for (const paragraph of gated) expect(snippetText(hit!)).not.toContain(paragraph.slice(0, 60));

    const entitled = await search(word, {}, "full");
    const full = entitled.entries.find((e) => e.url === hit!.url)!;
    expect(marked(full).some((m) => m.startsWith(word.slice(0, 5)))).toBe(true);
  });

  it("finds videos, podcast episodes, magazine issues by a featured title, and products", async () => {
    const video = await db.selectFrom("video").select(["title"]).orderBy("id").executeTakeFirstOrThrow();
    const episode = await db.selectFrom("podcast_episode").select(["id", "title"]).orderBy("id").executeTakeFirstOrThrow();
    const feature = await db
      .selectFrom("issue_feature")
      .innerJoin("magazine_issue", "magazine_issue.id", "issue_feature.issue_id")
      .select(["issue_feature.title", "magazine_issue.code"])
      .where("issue_feature.article_id", "is", null)
      .orderBy("magazine_issue.id")
      .executeTakeFirstOrThrow();
    const product = await db.selectFrom("product").select(["title", "slug"]).orderBy("id").executeTakeFirstOrThrow();

    const cases: { kind: SearchKind; query: string; url: string | RegExp }[] = [
      { kind: "video", query: video.title, url: /^\/video\/\d+\// },
      { kind: "podcast", query: episode.title, url: new RegExp(`^/podcasts/[a-z0-9-]+/${episode.id}-[a-z0-9-]+$`) },
      { kind: "issue", query: `"${feature.title}"`, url: `/archive-toc/${feature.code}` },
      { kind: "product", query: product.title, url: new RegExp(`^/product/${product.slug}/\\d+$`) },
    ];
    for (const c of cases) {
      const results = await search(c.query, { kinds: [c.kind], paging: { page: 1, loaded: 100 } });
      // An issue may be listed through another with its cover story.
      const urls = results.entries.flatMap((e) => [e.url, ...e.otherIssues.map((o) => o.url)]);
      expect(
        urls.some((u) => (typeof c.url === "string" ? u === c.url : c.url.test(u))),
        `${c.kind} "${c.query}" in ${urls.slice(0, 5).join(", ")}`,
      ).toBe(true);
      expect(results.entries.every((e) => e.kind === c.kind)).toBe(true);
    }
    // A product's result shows its cover, as the store does.
    const found = await search(product.title, { kinds: ["product"] });
    expect(found.entries.find((e) => e.url.startsWith(`/product/${product.slug}/`))?.image).toBe(productCoverPath(product.slug));
  });

  it("lists a cover story that ran on several issues once, naming the other issues, in its count and its type's", async () => {
    const covers = await db
      .selectFrom("magazine_issue")
      .select(["title", (eb) => eb.fn.countAll<number>().as("issues")])
      .groupBy("title")
      .orderBy("issues", "desc")
      .orderBy("title")
      .execute();
    const cover = covers[0]!;
    expect(Number(cover.issues)).toBeGreaterThan(2);
    const issues = await db
      .selectFrom("magazine_issue")
      .select(["code", "month_label", "year"])
      .where("title", "=", cover.title)
      .orderBy("year", "desc")
      .orderBy("month", "desc")
      .execute();

    for (const sort of ["relevance", "newest"] as const) {
      const found = await search(`"${cover.title}"`, { kinds: ["issue"], sort, paging: { page: 1, loaded: 100 } });
      const listed = found.entries.filter((e) => e.title.startsWith(`${cover.title} (`));
      expect(listed, sort).toHaveLength(1);
      const all = [listed[0]!.url, ...listed[0]!.otherIssues.map((o) => o.url)];
      expect(new Set(all).size, sort).toBe(issues.length);
      expect(all.sort(), sort).toEqual(issues.map((i) => `/archive-toc/${i.code}`).sort());
      // The others newest first, each by its months.
      const others = issues.filter((i) => `/archive-toc/${i.code}` !== listed[0]!.url);
      expect(listed[0]!.otherIssues, sort).toEqual(
        others.map((i) => ({ when: `${i.month_label} ${i.year}`, url: `/archive-toc/${i.code}` })),
      );
      expect(found.page.total, sort).toBe(found.entries.length);
      expect(found.kinds.find((k) => k.kind === "issue")?.count, sort).toBe(found.entries.length);
    }
  });

  it("stems English words, matches the last word as a prefix and ranks title matches first", async () => {
    const plural = await search("strategies");
    const singular = await search("strategy");
    expect(plural.page.total).toBeGreaterThan(0);
    expect(plural.page.total).toBe(singular.page.total);
    const prefix = await search("innov");
    const whole = await search("innovation");
    expect(prefix.page.total).toBeGreaterThanOrEqual(whole.page.total);
    expect(whole.page.total).toBeGreaterThan(0);
    // Results with the word in their titles come before all others, which follow newest first.
    for (const word of ["succession", "pricing", "board"]) {
      const { entries } = await search(`"${word}"`, { paging: { page: 1, loaded: 100 } });
      // The word's own forms ("boards", "priced"), not longer words that start the same ("boardroom").
      const inTitle = entries.map((e) => words(e.title).some((w) => w.startsWith(word.slice(0, 4)) && w.length <= word.length + 3));
      expect(inTitle.filter(Boolean).length, word).toBeGreaterThan(0);
      expect(inTitle.lastIndexOf(true), word).toBeLessThan(inTitle.indexOf(false) === -1 ? Infinity : inTitle.indexOf(false));
      const rest = entries.filter((_, i) => !inTitle[i]).map((e) => e.published);
      expect(rest, word).toEqual([...rest].sort().reverse());
    }
  });

  it("searches quoted phrases as phrases, excludes -words and takes OR", async () => {
    const loose = await search("supply chain");
    const phrase = await search('"supply chain"');
    expect(phrase.page.total).toBeGreaterThan(0);
    expect(phrase.page.total).toBeLessThanOrEqual(loose.page.total);
    const innovation = await search("innovation");
    const without = await search("innovation -digital");
    expect(without.page.total).toBeLessThan(innovation.page.total);
    // Quoted, so that neither is read as the prefix of an unfinished last word.
    const either = await search('"supply" OR "succession"');
    const succession = await search('"succession"');
    const supply = await search('"supply"');
    expect(either.page.total).toBeGreaterThanOrEqual(Math.max(succession.page.total, supply.page.total));
    expect(either.page.total).toBeLessThanOrEqual(succession.page.total + supply.page.total);
  });

  it("finds a two-word phrase exactly where its words stand side by side, and follows a changed title", async () => {
    const target = await db.selectFrom("article").select(["id", "title", "slug"]).orderBy("id", "desc").executeTakeFirstOrThrow();
    await db
      .updateTable("article_record")
      .set({ title: "Quokkas of Zanzibar: Procurement Quokkas Reorganize" })
      .where("id", "=", target.id)
      .execute();
    await indexDocuments(db, await articleDocuments(db, { fromId: target.id, toId: target.id }));
    const titles = async (query: string) => (await search(query)).entries.map((e) => e.title);
    expect(await titles('"procurement quokkas"')).toEqual(["Quokkas of Zanzibar: Procurement Quokkas Reorganize"]);
    // Both words are in the title, but not side by side; nor across the stop word.
    expect(await titles('"quokkas procurement"')).toEqual([]);
    expect(await titles('"quokkas zanzibar"')).toEqual([]);
    expect(await titles('"quokkas of zanzibar"')).toEqual(["Quokkas of Zanzibar: Procurement Quokkas Reorganize"]);
    await db.updateTable("article_record").set({ title: target.title }).where("id", "=", target.id).execute();
    await indexDocuments(db, await articleDocuments(db, { fromId: target.id, toId: target.id }));
    expect(await titles('"procurement quokkas"')).toEqual([]);
  });

  it.runIf(dialectName === "postgres")(
    "asks PostgreSQL for a two-word phrase's pair, which matches what the phrase operator matches",
    async () => {
      if (!isPostgres(db)) return;
      // Neighbouring words from the articles' own text, a sentence's end and the next one's start included.
      const bodies = await db.selectFrom("article").select("body").orderBy("id").limit(40).execute();
      const pairs = new Set<string>();
      for (const { body } of bodies) {
        const text = words(body).filter((w) => w.length >= 3);
        for (let i = 0; i + 1 < text.length && pairs.size < 60; i += 37) pairs.add(`${text[i]} ${text[i + 1]}`);
      }
      pairs.add("supply chain").add("state of").add("chain supply");
      const matching = async (condition: ReturnType<typeof sql>) =>
        (await sql<{ id: string }>`select id from search_match where words @@ ${condition} order by id`.execute(db)).rows.map((r) => r.id);
      let found = 0;
      for (const pair of pairs) {
        const [first, second] = pair.split(" ") as [string, string];
        const byPair = await matching(sql`search_phrase_pair(${first}, ${second})`);
        const byPositions = await matching(sql`to_tsquery('english', ${`${first} <-> ${second}`})`);
        expect(byPair, pair).toEqual(byPositions);
        if (byPair.length > 0) found += 1;
      }
      expect(found).toBeGreaterThan(20);
    },
  );

  it("answers any text, engine syntax included, with results or none and never an error", async () => {
    const inputs = [
      '"unclosed phrase',
      "AND OR NOT ( ) *",
      "-",
      '"',
      "***",
      "NEAR(board succession)",
      "title:board",
      "board:* & !succession | <->",
      "'; drop table article; --",
      "🙂 émigré naïve",
      "x".repeat(200),
      "the of and",
      "a".repeat(40) + " " + "b",
    ];
    for (const input of inputs) {
      const results = await search(input);
      expect(results.page.total, input).toBeGreaterThanOrEqual(0);
    }
    const syntax = (await search("board:* & !succession | <->")).page.total;
    expect(syntax).toBeGreaterThan(0);
    expect(syntax).toBeLessThan((await search("board")).page.total);
    expect((await db.selectFrom("article").select("id").limit(1).execute()).length).toBe(1);
  });

  it("filters by type, topic and publication years, counts by type and topic, and sorts newest first", async () => {
    const all = await search("strategy", { paging: { page: 1, loaded: 100 } });
    const kindTotal = all.kinds.reduce((sum, k) => sum + k.count, 0);
    expect(kindTotal).toBe(all.page.total);
    expect(all.kinds.length).toBeGreaterThanOrEqual(2);

    const issuesOnly = await search("strategy", { kinds: ["issue"] });
    expect(issuesOnly.page.total).toBe(all.kinds.find((k) => k.kind === "issue")!.count);
    expect(issuesOnly.entries.every((e) => e.kind === "issue")).toBe(true);
    // A facet's counts ignore its own filter, so the other types stay on offer.
    expect(issuesOnly.kinds).toEqual(all.kinds);

    const topic = all.topics[0]!;
    const inTopic = await search("strategy", { topicId: topic.id, paging: { page: 1, loaded: 100 } });
    expect(inTopic.page.total).toBe(topic.count);
    const tagged = await db.selectFrom("topic").select("id").where("slug", "=", topic.slug).executeTakeFirstOrThrow();
    expect(tagged.id).toBe(topic.id);

    const decade = await search("strategy", { from: "1970-01-01", to: "1979-12-31", paging: { page: 1, loaded: 100 } });
    expect(decade.page.total).toBeGreaterThan(0);
    expect(decade.entries.every((e) => e.published >= "1970-01-01" && e.published <= "1979-12-31")).toBe(true);
    expect(decade.page.total).toBeLessThan(all.page.total);

    const newest = await search("strategy", { sort: "newest", paging: { page: 1, loaded: 100 } });
    const dates = newest.entries.map((e) => e.published);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(newest.page.total).toBe(all.page.total);
  });

  it("pages results ten at a time", async () => {
    const first = await search("management");
    expect(first.page.total).toBeGreaterThan(20);
    expect(first.entries).toHaveLength(10);
    expect(first.page.last).toBe(Math.ceil(first.page.total / 10));
    const newest = await search("management", { sort: "newest" });
    expect(newest.page.last).toBe(Math.ceil(newest.page.total / 10));
    const second = await search("management", { paging: { page: 2, loaded: 1 } });
    const both = await search("management", { paging: { page: 1, loaded: 2 } });
    expect(both.entries.map((e) => e.id)).toEqual([...first.entries, ...second.entries].map((e) => e.id));
    const past = await search("management", { paging: { page: 9999, loaded: 1 } });
    expect(past.entries).toEqual([]);
  });

  it("keeps the index current when content changes and when articles are added", async () => {
    const target = await db.selectFrom("article").select(["id", "title"]).orderBy("id").executeTakeFirstOrThrow();
    await db
      .updateTable("article_record")
      .set({ title: "Zanzibarian Quokkas Reorganize Procurement" })
      .where("id", "=", target.id)
      .execute();
    await indexDocuments(db, await articleDocuments(db, { fromId: target.id, toId: target.id }));
    const found = await search("quokkas");
    expect(found.entries.map((e) => e.title)).toEqual(["Zanzibarian Quokkas Reorganize Procurement"]);
    await db.updateTable("article_record").set({ title: target.title }).where("id", "=", target.id).execute();
    await indexDocuments(db, await articleDocuments(db, { fromId: target.id, toId: target.id }));
    expect((await search("quokkas")).page.total).toBe(0);

    const before = (await search("strategy")).page.total;
    await addSyntheticArticles(db, 60);
    const synthetic = await db.selectFrom("article").select(["title"]).where("slug", "like", "synthetic-%").executeTakeFirstOrThrow();
    const again = await search(`"${synthetic.title}"`, { kinds: ["article"], paging: { page: 1, loaded: 100 } });
    expect(again.entries.some((e) => e.url.includes("/synthetic-"))).toBe(true);
    expect((await search("strategy")).page.total).toBeGreaterThanOrEqual(before);
  });
});

describe(`auto-suggest (${dialectName})`, () => {
  it("offers up to 6 titles and 3 topics once more than 2 characters are typed", async () => {
    expect(await suggest(db, "le")).toEqual({ records: [], subjects: [] });
    expect((await suggest(db, "innovat")).records.some((r) => /innovation/i.test(r.title))).toBe(true);
    const lead = await suggest(db, "lead");
    expect(lead.records.length).toBeGreaterThan(0);
    expect(lead.records.length).toBeLessThanOrEqual(6);
    expect(lead.subjects.length).toBeLessThanOrEqual(3);
    expect(lead.subjects.map((s) => s.name)).toContain("Leadership & Managing People");
    for (const r of lead.records) {
      expect(words(r.title).some((w) => w.startsWith("lead"))).toBe(true);
      expect(r.link).toMatch(/^\//);
      expect(r.contentType).toBeTruthy();
    }
    expect(new Set(lead.records.map((r) => r.title)).size).toBe(lead.records.length);
    const many = await suggest(db, "the");
    expect(many.records.length).toBeLessThanOrEqual(6);
    expect((await suggest(db, '"((*')).records).toEqual([]);
  });
});
