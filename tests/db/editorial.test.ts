import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ContentCache } from "~/server/content/content-cache";
import { formerArticle } from "~/server/content/article-history";
import { articlePage } from "~/server/content/articles";
import { articlesSitemap, latestFeed, sitemapIndex } from "~/server/content/feeds";
import { homePage } from "~/server/content/home";
import { loadStream, STREAM_PAGES, streamsWithSizes, topicStream } from "~/server/content/streams";
import { topicArticleCounts } from "~/server/content/topics";
import { insertUser } from "~/server/accounts/users";
import { connect, type Database } from "~/server/db/connection";
import { isPostgres } from "~/server/db/dialect";
import type { AuditActor } from "~/server/desk/audit";
import { listApiArticles } from "~/server/desk/api-articles";
import {
  createArticle,
  diffRevision,
  getDeskArticle,
  getRevision,
  listDeskArticles,
  listRevisions,
  publishArticle,
  publishDueArticles,
  restoreRevision,
  saveArticle,
  unpublishArticle,
  type DeskArticle,
} from "~/server/desk/articles";
import { followingStream } from "~/server/library/follows";
import { decideOffer, recordRead, type OfferRules } from "~/server/paywall/offers";
import { searchContent, suggest } from "~/server/search";
import type { ArticleFields } from "~/shared/article-fields";
import { newArticleFields } from "~/tests/helpers/article-fields";
import { dialectName, isolatedConnection } from "~/tests/helpers/test-db";

// The editorial domain on the real database (ADR 076): an article's life from draft to
// withdrawn, and what readers can see of it at each step, through every reader query.

let db: Database;
/** A second connection to the same database: another instance of the site. */
let other: Database;
let drop: () => Promise<void>;
let connection: Awaited<ReturnType<typeof isolatedConnection>>;
let ada: AuditActor;
let grace: AuditActor;
let fields: ArticleFields;
let subject: { id: number; name: string };

const SITE = "https://example.test";
const T0 = new Date("2031-03-10T09:00:00Z");
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
/** Words no seed article has, so that a search for them finds this article alone. */
const TITLE = "Quixotic Zebrafish Ledgers";

beforeAll(async () => {
  connection = await isolatedConnection("editorial");
  drop = connection.drop;
  db = connect(connection);
  other = connect(connection);
  const staff = async (firstName: string, lastName: string) => {
    const user = (await insertUser(db, {
      firstName,
      lastName,
      email: `${firstName.toLowerCase()}@desk.example`,
      password: "Editor9!desk",
      optIn: false,
    }))!;
    return { id: user.id, label: user.email };
  };
  ada = await staff("Ada", "Lovelace");
  grace = await staff("Grace", "Hopper");
  const topic = await db
    .selectFrom("topic")
    .select(["id", "name"])
    .where("subject_id", "is", null)
    .where("executive_only", "=", 0)
    .orderBy("id")
    .executeTakeFirstOrThrow();
  subject = topic;
  fields = await newArticleFields(db, {
    title: TITLE,
    dek: "How ledgers learn to swim.",
    summary: "A summary of quixotic zebrafish ledgers.",
    body: "First paragraph about ledgers.\n\nSecond paragraph about zebrafish.\n\nThird paragraph, the end.",
    slug: "quixotic-zebrafish-ledgers",
    topics: [topic.name],
    streams: ["big-ideas"],
    published: "2031-03-10",
  });
});

/**
 * Another instance reads the content generation at most once a second: the performance clock
 * the caches go by is moved on by a second, as if it had passed.
 */
let offset = 0;
const realNow = performance.now.bind(performance);
vi.spyOn(performance, "now").mockImplementation(() => realNow() + offset);
const aSecondPasses = () => (offset += 1_001);

afterAll(async () => {
  vi.restoreAllMocks();
  await db?.destroy();
  await other?.destroy();
  await drop?.();
});

/** Where readers can find the article with this title and path, through every reader query. */
async function seenBy(database: Database, article: { id: number; path: string; slug: string }, title = TITLE) {
  const [year, month] = article.path.split("/").slice(1, 3).map(Number) as [number, number];
  const inCards = (cards: { id: number }[]) => cards.some((c) => c.id === article.id);
  const [home, latest, topic, bigIdeas, found, suggested, sitemap, feed, page, following] = await Promise.all([
    homePage(database, T0),
    loadStream(database, STREAM_PAGES["the-latest"]!, { page: 1, loaded: 1 }),
    loadStream(database, topicStream({ ...subject, slug: "x", description: "" }), { page: 1, loaded: 1 }),
    loadStream(database, STREAM_PAGES["big-ideas"]!, { page: 1, loaded: 1 }),
    searchContent(
      database,
      { query: title, kinds: [], topicId: null, from: null, to: null, sort: "relevance", paging: { page: 1, loaded: 1 } },
      { previewBlocks: 3 },
    ),
    suggest(database, title.split(" ").slice(0, 2).join(" ")),
    (async () => {
      const index = await sitemapIndex(database, SITE);
      const files = index.match(/articles-\d+\.xml/g)!.length;
      const all = await Promise.all(Array.from({ length: files }, (_, i) => articlesSitemap(database, SITE, i + 1)));
      return all.join("");
    })(),
    latestFeed(database, SITE, "Meridian"),
    articlePage(database, year, month, article.slug),
    followingStream(database, [subject.id], { page: 1, loaded: 1 }),
  ]);
  return {
    home: inCards([home.lead, ...home.secondary, ...home.latest].filter((c) => c !== null)),
    latest: inCards(latest.entries),
    topic: inCards(topic.entries),
    bigIdeas: inCards(bigIdeas.entries),
    search: found.entries.some((e) => e.url === article.path),
    suggest: suggested.records.some((r) => r.link === article.path),
    sitemap: sitemap.includes(`${SITE}${article.path}<`),
    rss: feed.includes(`${SITE}${article.path}<`),
    page: page.kind === "found",
    following: inCards(following.entries),
  };
}

const NOWHERE = {
  home: false,
  latest: false,
  topic: false,
  bigIdeas: false,
  search: false,
  suggest: false,
  sitemap: false,
  rss: false,
  page: false,
  following: false,
};
const EVERYWHERE = {
  home: true,
  latest: true,
  topic: true,
  bigIdeas: true,
  search: true,
  suggest: true,
  sitemap: true,
  rss: true,
  page: true,
  following: true,
};

/** Counts the streams, topics and sitemap show, which a draft must not change. */
async function readerCounts(database: Database) {
  const [sizes, topics, following] = await Promise.all([
    streamsWithSizes(database),
    topicArticleCounts(database),
    followingStream(database, [subject.id], { page: 1, loaded: 1 }),
  ]);
  return { sizes: sizes.map((s) => `${s.stream.slug}:${s.total}`), topics: [...topics], following: following.page.total };
}

async function auditRows(id: number, action?: string) {
  let query = db.selectFrom("desk_audit").select(["action", "actor", "before", "after"]).where("subject", "=", `article:${id}`);
  if (action) query = query.where("action", "=", action);
  return query.orderBy("at").orderBy("id").execute();
}

describe(`an article's life at the desk (${dialectName})`, () => {
  let article: DeskArticle;
  let countsBefore: Awaited<ReturnType<typeof readerCounts>>;

  it("creates a draft that no reader query sees, refusing unknown authors and topics and a slug in use as field errors", async () => {
    countsBefore = await readerCounts(db);
    const unknown = await createArticle(db, ada, { ...fields, authors: ["nobody-at-all"], topics: ["Underwater Basketry"] }, T0);
    expect(unknown).toMatchObject({ ok: false, reason: "invalid" });
    if (unknown.ok || unknown.reason !== "invalid") throw new Error("expected field errors");
    expect(unknown.fieldErrors.authors).toEqual(['No author has the slug "nobody-at-all".']);
    expect(unknown.fieldErrors.topics).toEqual(['No topic is named "Underwater Basketry".']);
    const seedSlug = (await db.selectFrom("article").select("slug").orderBy("id").executeTakeFirstOrThrow()).slug;
    const clash = await createArticle(db, ada, { ...fields, slug: seedSlug }, T0);
    expect(clash).toEqual({
      ok: false,
      reason: "invalid",
      fieldErrors: { slug: [`Another article has the slug "${seedSlug}": choose another.`] },
    });
    const invalid = await createArticle(db, ada, { ...fields, title: "" }, T0);
    expect(invalid).toMatchObject({ ok: false, reason: "invalid", fieldErrors: { title: ["Enter a title of up to 300 characters."] } });

    const created = await createArticle(db, ada, { ...fields, topics: [subject.name.toUpperCase()] }, T0);
    if (!created.ok) throw new Error(JSON.stringify(created));
    article = created.article;
    expect(article).toMatchObject({
      status: "draft",
      version: 1,
      topics: [subject.name],
      url: null,
      path: "/2031/03/quixotic-zebrafish-ledgers",
      updatedAt: T0.toISOString(),
      updatedBy: { id: ada.id, name: "Ada Lovelace", email: ada.label },
    });
    expect(await getDeskArticle(db, article.id)).toEqual(article);
    expect(await seenBy(db, article)).toEqual(NOWHERE);
    expect(await readerCounts(db)).toEqual(countsBefore);
    expect(await formerArticle(db, 2031, 3, article.slug)).toEqual({ kind: "unknown" });
    expect(await auditRows(article.id)).toMatchObject([{ action: "article.create", actor: ada.label }]);
  });

  it("lists articles in every state with filters, and the Admin API's listing shows the draft without an address", async () => {
    const drafts = await listDeskArticles(db, { status: "draft", page: 1, pageSize: 10 });
    expect(drafts.items.map((i) => i.id)).toEqual([article.id]);
    expect(drafts.total).toBe(1);
    const byWords = await listDeskArticles(db, { q: "zebrafish LEDGERS", page: 1, pageSize: 10 });
    expect(byWords.items.map((i) => i.id)).toEqual([article.id]);
    const byEverything = await listDeskArticles(db, {
      topic: subject.name.toLowerCase(),
      author: fields.authors[0],
      contentType: "article",
      page: 1,
      pageSize: 5,
    });
    expect(byEverything.items[0]!.id).toBe(article.id);
    expect(byEverything.items.every((i) => i.topics.includes(subject.name) && i.authors.includes(fields.authors[0]!))).toBe(true);
    const published = await listDeskArticles(db, { status: "published", page: 1, pageSize: 3 });
    expect(published.items.every((i) => i.status === "published" && i.url === i.path)).toBe(true);
    const api = await listApiArticles(db, { status: "draft", page: 1, pageSize: 20 }, SITE);
    expect(api.items).toMatchObject([{ id: article.id, status: "draft", url: null, version: 1, publishedAt: "2031-03-10" }]);
  });

  it("saves a new version; a stale save gets the other editor's name, time and version, and writes nothing", async () => {
    const saved = await saveArticle(db, grace, article.id, 1, { ...fields, dek: "How ledgers learn to swim, fast." }, at(5));
    if (!saved.ok) throw new Error(JSON.stringify(saved));
    expect(saved.article).toMatchObject({ version: 2, dek: "How ledgers learn to swim, fast.", updatedBy: { name: "Grace Hopper" } });

    const stale = await saveArticle(db, ada, article.id, 1, { ...fields, title: "Ada's Own Title" }, at(6));
    expect(stale).toEqual({
      ok: false,
      reason: "conflict",
      conflict: { current: saved.article, by: "Grace Hopper", at: at(5).toISOString() },
    });
    expect(await getDeskArticle(db, article.id)).toEqual(saved.article);
    expect((await auditRows(article.id, "article.save")).length).toBe(1);
    expect(await saveArticle(db, ada, 999_999, 1, fields, at(6))).toEqual({ ok: false, reason: "missing" });
    article = saved.article;
  });

  it("lets only one of two saves from the same version through when they race", async () => {
    const [first, second] = await Promise.all([
      saveArticle(db, ada, article.id, 2, { ...fields, summary: "Ada's summary." }, at(7)),
      saveArticle(other, grace, article.id, 2, { ...fields, summary: "Grace's summary." }, at(7)),
    ]);
    expect([first.ok, second.ok].sort()).toEqual([false, true]);
    const winner = (first.ok ? first : second) as Extract<typeof first, { ok: true }>;
    const loser = first.ok ? second : first;
    expect(loser).toMatchObject({ ok: false, reason: "conflict", conflict: { current: { version: 3, summary: winner.article.summary } } });
    article = (await getDeskArticle(db, article.id))!;
    expect(article).toMatchObject({ version: 3, summary: winner.article.summary });
  });

  it("keeps every save as a revision, diffs two by line, and restores one as a new revision", async () => {
    const revisions = await listRevisions(db, article.id);
    expect(revisions.map((r) => r.version)).toEqual([3, 2, 1]);
    expect(revisions[2]).toMatchObject({ status: "draft", savedBy: { id: ada.id, name: "Ada Lovelace" } });
    const first = (await getRevision(db, article.id, revisions[2]!.id))!;
    const third = (await getRevision(db, article.id, revisions[0]!.id))!;
    const second = (await getRevision(db, article.id, revisions[1]!.id))!;
    expect(first.fields).toEqual({ ...fields, streams: ["big-ideas"] });
    expect(await getRevision(db, article.id + 1, revisions[0]!.id)).toBeUndefined();

    const diff = diffRevision(first, third);
    // The racing save wrote its own dek back (its form held the first one).
    expect(diff.filter((d) => d.changed).map((d) => d.field)).toEqual(["summary"]);
    expect(diffRevision(first, second).find((d) => d.field === "dek")!.lines).toEqual([
      { kind: "removed", text: "How ledgers learn to swim." },
      { kind: "added", text: "How ledgers learn to swim, fast." },
    ]);

    const stale = await restoreRevision(db, ada, article.id, first.id, 2, at(8));
    expect(stale).toMatchObject({ ok: false, reason: "conflict" });
    expect(await restoreRevision(db, ada, article.id, "no-such-revision", 3, at(8))).toEqual({ ok: false, reason: "no-revision" });
    const restored = await restoreRevision(db, ada, article.id, first.id, 3, at(8));
    if (!restored.ok) throw new Error(JSON.stringify(restored));
    expect(restored.article).toMatchObject({ version: 4, dek: fields.dek, summary: fields.summary, status: "draft" });
    expect((await listRevisions(db, article.id)).map((r) => r.version)).toEqual([4, 3, 2, 1]);
    expect(await auditRows(article.id, "article.restore")).toHaveLength(1);
    article = restored.article;
  });

  it("schedules the article; readers see nothing until it is due, then two schedulers at once publish it once", async () => {
    const scheduled = await publishArticle(db, ada, article.id, { at: at(60) }, at(10));
    if (!scheduled.ok) throw new Error(JSON.stringify(scheduled));
    expect(scheduled.article).toMatchObject({ status: "scheduled", publishAt: at(60).toISOString(), url: null, version: 5 });
    expect(await seenBy(db, article)).toEqual(NOWHERE);
    expect(await publishDueArticles(db, at(59))).toEqual({ published: [] });

    // Home is cached; it must drop its copy when the article is published.
    expect((await seenBy(other, article)).home).toBe(false);
    const runs = await Promise.all([publishDueArticles(db, at(61)), publishDueArticles(other, at(61))]);
    expect(runs.flatMap((r) => r.published)).toEqual([article.id]);
    expect(await auditRows(article.id, "article.publish")).toMatchObject([{ actor: "scheduler" }]);
    const revisions = await listRevisions(db, article.id);
    expect(revisions.filter((r) => r.status === "published")).toHaveLength(1);
    article = (await getDeskArticle(db, article.id))!;
    expect(article).toMatchObject({
      status: "published",
      version: 6,
      publishAt: null,
      url: article.path,
      updatedBy: { name: "scheduler" },
    });
  });

  it("shows the published article on home, its topic, streams, search, auto-suggest, the sitemap and RSS, on both instances within a second", async () => {
    aSecondPasses();
    expect(await seenBy(db, article)).toEqual(EVERYWHERE);
    expect(await seenBy(other, article)).toEqual(EVERYWHERE);
    expect((await readerCounts(db)).following).toBe(countsBefore.following + 1);
  });

  it("meters the new article for a guest as it meters a seed one", async () => {
    const rules: OfferRules = {
      addressCeiling: 0,
      guestLimit: 4,
      ascendLimit: 3,
      registeredLimit: 8,
      tags: { article: "a", top50: "b", cases: "c", "visual-library": "d" },
    };
    const reader = { kind: "guest" as const, visitorId: "editorial-guest-000000000", network: null };
    const seed = await db
      .selectFrom("article")
      .select(["id", "tier"])
      .where("tier", "=", "article")
      .where("id", "!=", article.id)
      .orderBy("id")
      .limit(4)
      .execute();
    const read = async (a: { id: number; tier: "article" }) => {
      const request = { reader, article: { id: a.id, tier: a.tier, ascend: false }, readingList: false, gift: false };
      return decideOffer(rules, request, await recordRead(db, rules, request, at(70)));
    };
    for (const a of seed) expect(await read(a as { id: number; tier: "article" })).toMatchObject({ fullContent: true });
    const page = await articlePage(db, 2031, 3, article.slug);
    if (page.kind !== "found") throw new Error("the published article has no page");
    expect(page.page.article.tier).toBe("article");
    expect(await read({ id: page.page.article.id, tier: "article" })).toMatchObject({ fullContent: false, wall: "registration" });
  });

  it("moves a published article live when its slug changes: the old address answers 301 to the new one, on the other instance too", async () => {
    const oldPath = article.path;
    const saved = await saveArticle(
      db,
      grace,
      article.id,
      article.version,
      { ...fields, title: "Quixotic Zebrafish Ledgers, Revised", slug: "quixotic-zebrafish-ledgers-revised" },
      at(80),
    );
    if (!saved.ok) throw new Error(JSON.stringify(saved));
    expect(saved.article).toMatchObject({ status: "published", url: "/2031/03/quixotic-zebrafish-ledgers-revised" });
    expect(await formerArticle(db, 2031, 3, "quixotic-zebrafish-ledgers")).toEqual({ kind: "moved", url: saved.article.path });
    expect(await articlePage(db, 2031, 3, "quixotic-zebrafish-ledgers")).toEqual({ kind: "missing" });
    const page = await articlePage(db, 2031, 3, "quixotic-zebrafish-ledgers-revised");
    expect(page.kind === "found" && page.page.article.title).toBe("Quixotic Zebrafish Ledgers, Revised");
    expect(oldPath).not.toBe(saved.article.path);
    article = saved.article;
    expect(await seenBy(db, article, "Quixotic Zebrafish Ledgers Revised")).toEqual(EVERYWHERE);

    // Another instance's caches learn of the change within a second of its clock.
    const instance = connect(connection);
    let now = 0;
    const cache = new ContentCache<string>(10, 60 * 60_000, { now: () => now });
    const title = async () =>
      cache.get(
        instance,
        "title",
        async () => (await db.selectFrom("article").select("title").where("id", "=", article.id).executeTakeFirstOrThrow()).title,
      );
    expect(await title()).toBe("Quixotic Zebrafish Ledgers, Revised");
    const retitled = await saveArticle(
      db,
      grace,
      article.id,
      article.version,
      { ...fields, title: "Quixotic Zebrafish Ledgers, Third", slug: article.slug },
      at(85),
    );
    if (!retitled.ok) throw new Error(JSON.stringify(retitled));
    article = retitled.article;
    now += 500;
    expect(await title()).toBe("Quixotic Zebrafish Ledgers, Revised");
    now += 600;
    expect(await title()).toBe("Quixotic Zebrafish Ledgers, Third");
    await instance.destroy();
  });

  it("unpublishes: the view hides it from every reader query, its address and its old one answer 410", async () => {
    expect(await publishArticle(db, ada, article.id, {}, at(90))).toEqual({
      ok: false,
      reason: "state",
      status: "published",
      message: "The article is published already.",
    });
    const down = await unpublishArticle(db, ada, article.id, at(90));
    if (!down.ok) throw new Error(JSON.stringify(down));
    expect(down.article).toMatchObject({ status: "unpublished", url: null });
    expect(await seenBy(db, article, "Quixotic Zebrafish Ledgers Third")).toEqual(NOWHERE);
    aSecondPasses();
    expect(await seenBy(other, article, "Quixotic Zebrafish Ledgers Third")).toEqual(NOWHERE);
    expect(await readerCounts(db)).toEqual(countsBefore);
    expect(await db.selectFrom("article").select("id").where("id", "=", article.id).executeTakeFirst()).toBeUndefined();
    expect(await formerArticle(db, 2031, 3, article.slug)).toEqual({ kind: "withdrawn" });
    expect(await formerArticle(db, 2031, 3, "quixotic-zebrafish-ledgers")).toEqual({ kind: "withdrawn" });
    expect(await unpublishArticle(db, ada, article.id, at(91))).toMatchObject({ ok: false, reason: "state", status: "unpublished" });
    expect(await auditRows(article.id, "article.unpublish")).toMatchObject([
      { actor: ada.label, before: JSON.stringify({ version: 8, status: "published" }) },
    ]);
  });

  it("takes a scheduled article off the schedule back to a draft, and publishes a draft at once when its time is now or past", async () => {
    const created = await createArticle(db, ada, { ...fields, slug: "a-second-zebrafish" }, T0);
    if (!created.ok) throw new Error(JSON.stringify(created));
    const { id } = created.article;
    expect(await publishArticle(db, ada, id, { at: at(30) }, T0)).toMatchObject({ ok: true, article: { status: "scheduled" } });
    expect(await unpublishArticle(db, ada, id, T0)).toMatchObject({ ok: true, article: { status: "draft", publishAt: null } });
    expect(await publishDueArticles(db, at(31))).toEqual({ published: [] });
    expect(await publishArticle(db, ada, id, { at: at(-1) }, T0)).toMatchObject({ ok: true, article: { status: "published" } });
    expect(await publishArticle(db, ada, 999_999, {}, T0)).toEqual({ ok: false, reason: "missing" });
  });
});

describe("the line diff", () => {
  it("keeps common lines and marks the rest removed or added, in reading order", () => {
    const older = { fields: { ...fieldsFor("a\nb\nc\nd") }, status: "draft" };
    const newer = { fields: { ...fieldsFor("a\nc\nd\ne") }, status: "published" };
    const [status, body] = diffRevision(older, newer).filter((d) => d.changed);
    expect(status).toMatchObject({
      field: "status",
      lines: [
        { kind: "removed", text: "draft" },
        { kind: "added", text: "published" },
      ],
    });
    expect(body!.lines).toEqual([
      { kind: "same", text: "a" },
      { kind: "removed", text: "b" },
      { kind: "same", text: "c" },
      { kind: "same", text: "d" },
      { kind: "added", text: "e" },
    ]);
  });
});

function fieldsFor(body: string): ArticleFields {
  return { ...fields, body };
}

describe(`migration 036 (${dialectName})`, () => {
  it("points every foreign key that named article at article_record, and leaves none at the view", async () => {
    const referencing = ["article_author", "article_topic", "stream_entry", "issue_feature", "reading_list_item", "article_revision"];
    const targets = new Map<string, string[]>();
    for (const table of referencing) {
      const { rows } = isPostgres(db)
        ? await sql<{
            target: string;
          }>`select confrelid::regclass::text as target from pg_constraint where contype = 'f' and conrelid = ${table}::regclass`.execute(
            db,
          )
        : await sql<{ target: string }>`select "table" as target from pragma_foreign_key_list(${table})`.execute(db);
      targets.set(
        table,
        [...new Set(rows.map((r) => r.target))].filter((t) => t.startsWith("article")),
      );
    }
    expect(Object.fromEntries(targets)).toEqual(Object.fromEntries(referencing.map((t) => [t, ["article_record"]])));
  });
});
