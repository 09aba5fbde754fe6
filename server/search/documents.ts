// What the search index holds for each kind of content, and the one way it is written. Every
// write path that adds or changes content calls indexDocuments (seeding does, through
// rebuildSearchIndex and indexArticles), so the index never lags the content tables.
import { sql } from "kysely";
import { inlineText } from "~/server/content/markdown";
import type { Database } from "~/server/db/connection";
import { isPostgres } from "~/server/db/dialect";
import {
  articleArtPath,
  articlePath,
  issueArtKey,
  issueCoverPath,
  issuePath,
  podcastCoverPath,
  podcastEpisodePath,
  productCoverPath,
  productPath,
  videoPath,
  videoPosterPath,
} from "~/shared/urls";
import { leadAvailability } from "~/shared/product-types";
import { SEARCH_KINDS, type SearchKind } from "~/shared/search-kinds";
import { imageSources } from "~/shared/uploaded-images";

export interface IndexedDocument {
  kind: SearchKind;
  refId: number;
  /** YYYY-MM-DD */
  published: string;
  title: string;
  url: string;
  /** What the result says it is: an article's content type, "Video", "Magazine issue", … */
  label: string;
  image: string;
  /** Text anyone may read, paragraphs apart: a snippet may come from it. */
  teaser: string;
  topicIds: number[];
  /** Indexed with falling weight: title, then summary-like text, then body. */
  words: { title: string; summary: string; body: string };
}

const KIND_CODE: Record<SearchKind, number> = Object.fromEntries(SEARCH_KINDS.map((k, i) => [k, i + 1])) as Record<SearchKind, number>;
export const REF_BITS = 2 ** 24;
const DAY_MS = 86_400_000;
const EPOCH_1900 = Date.UTC(1900, 0, 1);
/** Days from 1900 the keys can hold (to the year 2258). */
const LAST_DAY = 2 ** 17;

/** Days from 1900-01-01 to a YYYY-MM-DD date. */
function dayNumber(date: string): number {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  return Math.round((Date.UTC(y, m - 1, d) - EPOCH_1900) / DAY_MS);
}

/**
 * A document's key: days before the last day it can hold, then kind, then the content's own id.
 * Ascending key order is newest first, the direction both engines walk lazily (FTS5 reads a
 * word's list backwards only by loading all of it), so "newest" and date ranges are key ranges.
 */
export function documentKey(published: string, kind: SearchKind, refId: number): number {
  if (!Number.isInteger(refId) || refId < 0 || refId >= REF_BITS) throw new Error(`search: ${kind} id ${refId} is out of range`);
  return ((LAST_DAY - dayNumber(published)) * 8 + KIND_CODE[kind]) * REF_BITS + refId;
}

/** The keys of documents published on a day: [first, end). */
export function keysOfDay(date: string): { first: number; end: number } {
  const first = (LAST_DAY - dayNumber(date)) * 8 * REF_BITS;
  return { first, end: first + 8 * REF_BITS };
}

export const kindOfKey = (key: number): SearchKind => SEARCH_KINDS[(Math.floor(key / REF_BITS) % 8) - 1]!;

const paragraphs = (...parts: string[]) => parts.filter(Boolean).join("\n\n");

export async function articleDocuments(db: Database, range: { fromId: number; toId: number }): Promise<IndexedDocument[]> {
  const rows = await db
    .selectFrom("article")
    .select(["id", "slug", "year", "month", "title", "dek", "sub_dek", "summary", "body", "content_type", "published"])
    .where("id", ">=", range.fromId)
    .where("id", "<=", range.toId)
    .orderBy("id")
    .execute();
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [authors, topics] = await Promise.all([
    db
      .selectFrom("article_author")
      .innerJoin("author", "author.id", "article_author.author_id")
      .select(["article_author.article_id", "author.name"])
      .where("article_author.article_id", ">=", range.fromId)
      .where("article_author.article_id", "<=", range.toId)
      .orderBy("article_author.position")
      .execute(),
    db
      .selectFrom("article_topic")
      .innerJoin("topic", "topic.id", "article_topic.topic_id")
      .select(["article_topic.article_id", "topic.id", "topic.name"])
      .where("article_topic.article_id", ">=", range.fromId)
      .where("article_topic.article_id", "<=", range.toId)
      .orderBy("article_topic.position")
      .execute(),
  ]);
  const byArticle = <T extends { article_id: number }>(list: T[]) => {
    const map = new Map<number, T[]>(ids.map((id) => [id, []]));
    for (const item of list) map.get(item.article_id)?.push(item);
    return map;
  };
  const authorsOf = byArticle(authors);
  const topicsOf = byArticle(topics);
  return rows.map((r) => ({
    kind: "article",
    refId: r.id,
    published: r.published,
    title: r.title,
    url: articlePath(r),
    label: r.content_type,
    image: articleArtPath(r.slug),
    teaser: paragraphs(r.dek, r.summary),
    topicIds: topicsOf.get(r.id)!.map((t) => t.id),
    words: {
      title: r.title,
      summary: paragraphs(
        r.dek,
        r.sub_dek,
        r.summary,
        ...authorsOf.get(r.id)!.map((a) => a.name),
        ...topicsOf.get(r.id)!.map((t) => t.name),
      ),
      // A link's target is not among the words a reader sees.
      body: inlineText(r.body),
    },
  }));
}

/** Every video's document, or one video's. */
async function videoDocuments(db: Database, id?: number): Promise<IndexedDocument[]> {
  let query = db.selectFrom("video").select(["id", "slug", "title", "description", "published", "topic_id", "tags"]);
  if (id !== undefined) query = query.where("id", "=", id);
  const rows = await query.execute();
  return rows.map((r) => ({
    kind: "video",
    refId: r.id,
    published: r.published,
    title: r.title,
    url: videoPath(r),
    label: "Video",
    image: videoPosterPath(r.slug),
    teaser: r.description,
    topicIds: [r.topic_id],
    words: { title: r.title, summary: paragraphs(r.description, ...(JSON.parse(r.tags) as string[])), body: "" },
  }));
}

/** Every podcast episode's document, or one episode's. */
async function podcastDocuments(db: Database, id?: number): Promise<IndexedDocument[]> {
  let query = db
    .selectFrom("podcast_episode as e")
    .innerJoin("podcast_series as s", "s.id", "e.series_id")
    .select(["e.id", "e.title", "e.description", "e.pub_date", "s.slug", "s.title as series_title"]);
  if (id !== undefined) query = query.where("e.id", "=", id);
  const rows = await query.execute();
  return rows.map((r) => ({
    kind: "podcast",
    refId: r.id,
    published: r.pub_date,
    title: r.title,
    url: podcastEpisodePath(r.slug, r),
    label: `Podcast · ${r.series_title}`,
    image: podcastCoverPath(r.slug),
    teaser: r.description,
    topicIds: [],
    words: { title: r.title, summary: paragraphs(r.description, r.series_title), body: "" },
  }));
}

/** The issues' documents: every issue's, or those with these ids. */
async function issueDocuments(db: Database, ids?: number[]): Promise<IndexedDocument[]> {
  let issues = db
    .selectFrom("magazine_issue as i")
    .leftJoin("image as cover", "cover.id", "i.cover_image_id")
    .select(["i.id", "i.code", "i.year", "i.month", "i.month_label", "i.title", "i.summary", "i.version"])
    .select(["cover.id as cover_id", "cover.width as cover_width", "cover.height as cover_height"]);
  let features = db.selectFrom("issue_feature").select(["issue_id", "title"]).orderBy("issue_id").orderBy("position");
  if (ids) {
    if (ids.length === 0) return [];
    issues = issues.where("i.id", "in", ids);
    features = features.where("issue_id", "in", ids);
  }
  const [rows, titlesOf] = await Promise.all([issues.execute(), features.execute()]);
  const featuring = new Map<number, string[]>();
  for (const f of titlesOf) featuring.set(f.issue_id, [...(featuring.get(f.issue_id) ?? []), f.title]);
  return rows.map((r) => {
    const titles = featuring.get(r.id) ?? [];
    const featured = titles.length > 0 ? `Featuring: ${titles.join("; ")}` : "";
    const cover = r.cover_id === null ? null : { id: r.cover_id, width: r.cover_width!, height: r.cover_height!, alt: null };
    return {
      kind: "issue",
      refId: r.id,
      published: `${r.year}-${String(r.month).padStart(2, "0")}-01`,
      title: `${r.title} (${r.month_label} ${r.year})`,
      url: issuePath(r.code),
      label: "Magazine issue",
      image: cover ? imageSources(cover).img.src : issueCoverPath(issueArtKey(r)),
      teaser: paragraphs(r.summary, featured),
      topicIds: [],
      words: { title: r.title, summary: paragraphs(r.summary, featured), body: "" },
    };
  });
}

async function productDocuments(db: Database, id?: number): Promise<IndexedDocument[]> {
  const [products, availabilities] = await Promise.all([
    (id === undefined ? db.selectFrom("product as p") : db.selectFrom("product as p").where("p.id", "=", id))
      .leftJoin("image as cover", "cover.id", "p.cover_image_id")
      .select(["p.id", "p.slug", "p.title", "p.product_type", "p.topic_id", "p.authors", "p.summary", "p.description", "p.published"])
      .select(["cover.id as cover_id", "cover.width as cover_width", "cover.height as cover_height"])
      .execute(),
    (id === undefined ? db.selectFrom("product_availability") : db.selectFrom("product_availability").where("product_id", "=", id))
      .select(["id", "product_id", "status"])
      // Retired formats are not offered; a product with none left is not found by search.
      .where("status", "!=", "R")
      .orderBy("product_id")
      .orderBy("id")
      .execute(),
  ]);
  return products.flatMap((r) => {
    const lead = leadAvailability(
      availabilities.filter((a) => a.product_id === r.id).map((a) => ({ id: a.id, comingSoon: a.status === "F" })),
    );
    if (!lead) return [];
    return [
      {
        kind: "product" as const,
        refId: r.id,
        published: r.published,
        title: r.title,
        url: productPath({ slug: r.slug, availabilityId: lead.id }),
        label: `Store · ${r.product_type}`,
        image:
          r.cover_id === null
            ? productCoverPath(r.slug)
            : imageSources({ id: r.cover_id, width: r.cover_width!, height: r.cover_height!, alt: null }).img.src,
        teaser: paragraphs(r.summary, r.description),
        topicIds: [r.topic_id],
        words: { title: r.title, summary: paragraphs(r.authors, r.summary), body: r.description },
      },
    ];
  });
}

const CHUNK = 200;

/** Writes documents into the index, replacing what it held for the same content. */
export async function indexDocuments(db: Database, documents: IndexedDocument[]): Promise<void> {
  const postgres = isPostgres(db);
  for (let i = 0; i < documents.length; i += CHUNK) {
    const chunk = documents.slice(i, i + CHUNK);
    await removeDocuments(db, chunk, postgres);
    const rows = chunk.map((d) => ({ key: documentKey(d.published, d.kind, d.refId), d }));
    await db
      .insertInto("search_document")
      .values(
        rows.map(({ key, d }) => ({
          id: key,
          kind: d.kind,
          ref_id: d.refId,
          published: d.published,
          title: d.title,
          url: d.url,
          label: d.label,
          image: d.image,
          teaser: d.teaser,
          ...(postgres ? { title_words: sql<string>`to_tsvector('simple', ${d.words.title})` } : {}),
        })),
      )
      .execute();
    if (postgres) {
      await db
        .insertInto("search_match")
        .values(
          rows.map(({ key, d }) => ({
            id: key,
            topic_ids: sql<number[]>`${[...new Set(d.topicIds)]}::integer[]`,
            heading_words: sql<string>`to_tsvector('english', ${d.words.title})`,
            // With the pairs of neighbouring words, for two-word phrases (migration 021).
            words: sql<string>`(select w || search_word_pairs(w) from (select setweight(to_tsvector('english', ${d.words.title}), 'A') || setweight(to_tsvector('english', ${d.words.summary}), 'B') || setweight(to_tsvector('english', ${d.words.body}), 'C') as w) t)`,
          })),
        )
        .execute();
    }
    const topics = rows.flatMap(({ key, d }) => [...new Set(d.topicIds)].map((topic_id) => ({ document_id: key, topic_id })));
    if (topics.length > 0) await db.insertInto("search_document_topic").values(topics).execute();
    if (!postgres) {
      const values = rows.map(({ key, d }) => sql`(${key}, ${d.words.title}, ${d.words.summary}, ${d.words.body})`);
      await sql`insert into search_text (rowid, title, summary, body) values ${sql.join(values)}`.execute(db);
      const titles = rows.map(({ key, d }) => sql`(${key}, ${d.words.title})`);
      await sql`insert into search_heading (rowid, title) values ${sql.join(titles)}`.execute(db);
      await sql`insert into search_title (rowid, title) values ${sql.join(titles)}`.execute(db);
    }
  }
}

async function removeDocuments(db: Database, documents: Pick<IndexedDocument, "kind" | "refId">[], postgres: boolean): Promise<void> {
  for (const kind of new Set(documents.map((d) => d.kind))) {
    const refIds = documents.filter((d) => d.kind === kind).map((d) => d.refId);
    const old = await db.selectFrom("search_document").select("id").where("kind", "=", kind).where("ref_id", "in", refIds).execute();
    if (old.length === 0) continue;
    const keys = old.map((o) => o.id);
    await db.deleteFrom("search_document_topic").where("document_id", "in", keys).execute();
    await db.deleteFrom("search_document").where("id", "in", keys).execute();
    if (!postgres) {
      await sql`delete from search_text where rowid in (${sql.join(keys)})`.execute(db);
      await sql`delete from search_heading where rowid in (${sql.join(keys)})`.execute(db);
      await sql`delete from search_title where rowid in (${sql.join(keys)})`.execute(db);
    }
  }
}

/**
 * Brings an article's documents up to date after the desk changed it: they are removed, and
 * written again from the view `article`, so an article that is no longer published (or not yet)
 * has none. Run it in the change's transaction.
 */
export async function reindexArticle(db: Database, id: number): Promise<void> {
  await removeDocuments(db, [{ kind: "article", refId: id }], isPostgres(db));
  await indexDocuments(db, await articleDocuments(db, { fromId: id, toId: id }));
}

/** A video's document after the desk made or changed it (ADR 083); run it in the change's transaction. */
export async function reindexVideo(db: Database, id: number): Promise<void> {
  await indexDocuments(db, await videoDocuments(db, id));
}

/** A podcast episode's document after the desk made or changed it (ADR 083); run it in the change's transaction. */
export async function reindexPodcastEpisode(db: Database, id: number): Promise<void> {
  await indexDocuments(db, await podcastDocuments(db, id));
}

/** Brings an issue's document up to date after the desk changed it. Run it in the change's transaction. */
export async function reindexIssue(db: Database, id: number): Promise<void> {
  await removeDocuments(db, [{ kind: "issue", refId: id }], isPostgres(db));
  await indexDocuments(db, await issueDocuments(db, [id]));
}

/**
 * A store product's document after the desk made or changed it (ADR 091): removed, and written
 * again while it has a format that is not retired. Run it in the change's transaction.
 */
export async function reindexProduct(db: Database, id: number): Promise<void> {
  await removeDocuments(db, [{ kind: "product", refId: id }], isPostgres(db));
  await indexDocuments(db, await productDocuments(db, id));
}

const ARTICLE_BATCH = 500;

/** Indexes the articles with ids in the range, a batch at a time. */
export async function indexArticles(db: Database, range: { fromId: number; toId: number }): Promise<void> {
  for (let from = range.fromId; from <= range.toId; from += ARTICLE_BATCH) {
    await indexDocuments(db, await articleDocuments(db, { fromId: from, toId: Math.min(range.toId, from + ARTICLE_BATCH - 1) }));
  }
}

/** Indexes every piece of content when there is content but no index (a database older than search). */
export async function indexUnindexedContent(db: Database): Promise<void> {
  const article = await db.selectFrom("article").select("id").limit(1).executeTakeFirst();
  const indexed = await db.selectFrom("search_document").select("id").limit(1).executeTakeFirst();
  if (article && !indexed) await rebuildSearchIndex(db);
}

/** Empties the index and indexes every piece of content again. */
export async function rebuildSearchIndex(db: Database): Promise<void> {
  await db.deleteFrom("search_document_topic").execute();
  await db.deleteFrom("search_document").execute();
  if (!isPostgres(db)) {
    await sql`insert into search_text (search_text) values ('delete-all')`.execute(db);
    await sql`insert into search_heading (search_heading) values ('delete-all')`.execute(db);
    await sql`insert into search_title (search_title) values ('delete-all')`.execute(db);
  }
  const bounds = await db
    .selectFrom("article")
    .select((eb) => [eb.fn.min("id").as("low"), eb.fn.max("id").as("high")])
    .executeTakeFirstOrThrow();
  if (bounds.low !== null && bounds.high !== null) await indexArticles(db, { fromId: Number(bounds.low), toId: Number(bounds.high) });
  for (const documents of [videoDocuments, podcastDocuments, issueDocuments, productDocuments]) {
    await indexDocuments(db, await documents(db));
  }
  await optimizeSearchIndex(db);
}

/**
 * After a bulk load: FTS5 merges the index's segments into one (a query then reads one list per
 * word instead of one per segment); PostgreSQL merges the GIN indexes' pending lists (migration
 * 012) and refreshes the planner's statistics on the words.
 */
export async function optimizeSearchIndex(db: Database): Promise<void> {
  if (isPostgres(db)) {
    const { rows } = await sql<{ name: string }>`
      select indexname as name from pg_indexes
      where schemaname = current_schema() and tablename in ('search_document', 'search_match') and indexdef like '% USING gin %'`.execute(
      db,
    );
    for (const { name } of rows) await sql`select gin_clean_pending_list(${sql.lit(name)}::regclass)`.execute(db);
    await sql`analyze search_document`.execute(db);
    await sql`analyze search_match`.execute(db);
    await sql`analyze search_document_topic`.execute(db);
    return;
  }
  for (const table of ["search_text", "search_heading", "search_title"]) {
    await sql`insert into ${sql.table(table)} (${sql.ref(table)}) values ('optimize')`.execute(db);
  }
}
