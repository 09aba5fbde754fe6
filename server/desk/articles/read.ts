import { sql } from "kysely";
import type { Database } from "~/server/db/connection";
import { CURATED_STREAMS, type ArticleFields } from "~/shared/article-fields";
import { articlePath } from "~/shared/urls";
import type { DeskArticle, DeskArticleQuery, DeskArticleSummary, DeskEditor } from "./types";

// The desk reads article_record, every state; readers read the view `article` (ADR 076).

type Reader = Database;

/** Author slugs, topic names and streams of some articles, in their order. */
async function linksOf(db: Reader, ids: number[]) {
  if (ids.length === 0)
    return { authors: new Map<number, string[]>(), topics: new Map<number, string[]>(), streams: new Map<number, string[]>() };
  const [authors, topics, streams] = await Promise.all([
    db
      .selectFrom("article_author")
      .innerJoin("author", "author.id", "article_author.author_id")
      .select(["article_author.article_id", "author.slug as value"])
      .where("article_author.article_id", "in", ids)
      .orderBy("article_author.article_id")
      .orderBy("article_author.position")
      .execute(),
    db
      .selectFrom("article_topic")
      .innerJoin("topic", "topic.id", "article_topic.topic_id")
      .select(["article_topic.article_id", "topic.name as value"])
      .where("article_topic.article_id", "in", ids)
      .orderBy("article_topic.article_id")
      .orderBy("article_topic.position")
      .execute(),
    db.selectFrom("stream_entry").select(["article_id", "stream as value"]).where("article_id", "in", ids).execute(),
  ]);
  const grouped = (rows: { article_id: number; value: string }[]) => {
    const byArticle = new Map<number, string[]>(ids.map((id) => [id, []]));
    for (const row of rows) byArticle.get(row.article_id)?.push(row.value);
    return byArticle;
  };
  return { authors: grouped(authors), topics: grouped(topics), streams: grouped(streams) };
}

const recordColumns = [
  "r.id",
  "r.slug",
  "r.year",
  "r.month",
  "r.title",
  "r.dek",
  "r.sub_dek",
  "r.summary",
  "r.body",
  "r.content_type",
  "r.published",
  "r.tier",
  "r.series_part",
  "r.status",
  "r.version",
  "r.publish_at",
  "r.updated_at",
  "r.updated_by",
  "r.updated_by_name",
  "series.slug as series_slug",
  "series.title as series_title",
  "app_user.email as editor_email",
  "app_user.first_name as editor_first_name",
  "app_user.last_name as editor_last_name",
] as const;

function records(db: Reader) {
  return db
    .selectFrom("article_record as r")
    .leftJoin("series", "series.id", "r.series_id")
    .leftJoin("app_user", "app_user.id", "r.updated_by")
    .select(recordColumns);
}

type RecordRow = Awaited<ReturnType<ReturnType<typeof records>["executeTakeFirstOrThrow"]>>;

function editorOf(row: RecordRow): DeskEditor | null {
  if (row.updated_at === null) return null;
  const fullName = [row.editor_first_name, row.editor_last_name].filter(Boolean).join(" ").trim();
  return {
    id: row.updated_by,
    name: fullName || row.editor_email || row.updated_by_name || "unknown",
    email: row.editor_email ?? null,
  };
}

function deskArticle(row: RecordRow, links: Awaited<ReturnType<typeof linksOf>>): DeskArticle {
  const path = articlePath(row);
  const fields: ArticleFields = {
    title: row.title,
    dek: row.dek,
    subDek: row.sub_dek,
    summary: row.summary,
    body: row.body,
    slug: row.slug,
    authors: links.authors.get(row.id) ?? [],
    topics: links.topics.get(row.id) ?? [],
    contentType: row.content_type,
    tier: row.tier,
    series: row.series_slug ?? null,
    seriesTitle: row.series_title ?? null,
    seriesPart: row.series_slug ? row.series_part : null,
    streams: CURATED_STREAMS.filter((stream) => links.streams.get(row.id)?.includes(stream)),
    published: row.published,
  };
  return {
    ...fields,
    id: row.id,
    version: row.version,
    status: row.status,
    publishAt: row.publish_at,
    publishedAt: row.published,
    path,
    url: row.status === "published" ? path : null,
    updatedAt: row.updated_at,
    updatedBy: editorOf(row),
  };
}

/** An article in any state, as the desk edits it; undefined for an unknown id. */
export async function getDeskArticle(db: Database, id: number): Promise<DeskArticle | undefined> {
  const row = await records(db).where("r.id", "=", id).executeTakeFirst();
  if (!row) return undefined;
  return deskArticle(row, await linksOf(db, [row.id]));
}

/** `%` and `_` match themselves in a LIKE pattern (with ESCAPE '\'). */
export const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function matching(db: Database, query: DeskArticleQuery) {
  let select = db.selectFrom("article_record as r");
  if (query.status) select = select.where("r.status", "=", query.status);
  if (query.contentType) select = select.where(sql<string>`lower(r.content_type)`, "=", query.contentType.trim().toLowerCase());
  if (query.q) {
    const pattern = likePattern(query.q.trim());
    select = select.where((eb) =>
      eb.or(
        (["title", "dek", "summary"] as const).map((column) => sql<boolean>`lower(${eb.ref(`r.${column}`)}) like ${pattern} escape '\\'`),
      ),
    );
  }
  if (query.topic) {
    const wanted = query.topic.trim().toLowerCase();
    select = select.where((eb) =>
      eb.exists(
        eb
          .selectFrom("article_topic")
          .innerJoin("topic", "topic.id", "article_topic.topic_id")
          .select("article_topic.article_id")
          .whereRef("article_topic.article_id", "=", "r.id")
          .where((inner) => inner.or([inner(sql<string>`lower(topic.name)`, "=", wanted), inner("topic.slug", "=", wanted)])),
      ),
    );
  }
  if (query.author) {
    const wanted = query.author.trim().toLowerCase();
    select = select.where((eb) =>
      eb.exists(
        eb
          .selectFrom("article_author")
          .innerJoin("author", "author.id", "article_author.author_id")
          .select("article_author.article_id")
          .whereRef("article_author.article_id", "=", "r.id")
          .where("author.slug", "=", wanted),
      ),
    );
  }
  return select;
}

/** One page of articles in every state (or the one asked for), newest first, and how many match in all. */
export async function listDeskArticles(db: Database, query: DeskArticleQuery): Promise<{ items: DeskArticleSummary[]; total: number }> {
  const [rows, count] = await Promise.all([
    matching(db, query)
      .select([
        "r.id",
        "r.slug",
        "r.year",
        "r.month",
        "r.status",
        "r.version",
        "r.title",
        "r.dek",
        "r.summary",
        "r.content_type",
        "r.tier",
        "r.published",
        "r.publish_at",
        "r.updated_at",
      ])
      .orderBy("r.published", "desc")
      .orderBy("r.id", "desc")
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize)
      .execute(),
    matching(db, query)
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  const links = await linksOf(
    db,
    rows.map((row) => row.id),
  );
  return {
    total: Number(count.n),
    items: rows.map((row) => {
      const path = articlePath(row);
      return {
        id: row.id,
        slug: row.slug,
        status: row.status,
        version: row.version,
        title: row.title,
        dek: row.dek,
        summary: row.summary,
        authors: links.authors.get(row.id) ?? [],
        topics: links.topics.get(row.id) ?? [],
        contentType: row.content_type,
        tier: row.tier,
        publishedAt: row.published,
        publishAt: row.publish_at,
        path,
        url: row.status === "published" ? path : null,
        updatedAt: row.updated_at,
      };
    }),
  };
}
