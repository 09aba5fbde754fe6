import { sql, type Insertable } from "kysely";
import type { Database } from "~/server/db/connection";
import { isPostgres } from "~/server/db/dialect";
import type { DB } from "~/server/db/schema";
import { bodyWordCount } from "~/server/content/markdown";
import { articleFieldsSchema, CURATED_STREAMS, type ArticleFields } from "~/shared/article-fields";
import type { FieldErrors } from "./types";

// From the fields an editor sends to the rows that hold them: authors by slug and topics by name
// looked up (an unknown one is a field's error, not a failure), the series found or made, and
// the byline, topics and streams written in their order.

/** The fields checked by the shared schema, or what is wrong with them, per field. */
export function checkFields(fields: unknown): { ok: true; fields: ArticleFields } | { ok: false; fieldErrors: FieldErrors } {
  const parsed = articleFieldsSchema.safeParse(fields);
  if (parsed.success) return { ok: true, fields: parsed.data };
  return { ok: false, fieldErrors: parsed.error.flatten().fieldErrors as FieldErrors };
}

export interface ResolvedFields {
  /** The fields as stored: topics as the topic table names them, the streams in the list's order. */
  fields: ArticleFields;
  authorIds: number[];
  topicIds: number[];
}

/**
 * Looks the fields' authors and topics up. The first topic is the primary one and must be a
 * subject (a topic of no other), as the seed content's are.
 */
export async function resolveFields(
  db: Database,
  fields: ArticleFields,
): Promise<{ ok: true; resolved: ResolvedFields } | { ok: false; fieldErrors: FieldErrors }> {
  const [authors, topics] = await Promise.all([
    db.selectFrom("author").select(["id", "slug"]).where("slug", "in", fields.authors).execute(),
    db
      .selectFrom("topic")
      .select(["id", "name", "subject_id"])
      .where(
        sql<string>`lower(name)`,
        "in",
        fields.topics.map((t) => t.toLowerCase()),
      )
      .execute(),
  ]);
  const fieldErrors: FieldErrors = {};
  const authorIds: number[] = [];
  for (const slug of fields.authors) {
    const author = authors.find((a) => a.slug === slug);
    if (author) authorIds.push(author.id);
    else (fieldErrors.authors ??= []).push(`No author has the slug "${slug}".`);
  }
  const found = fields.topics.map((name) => ({ name, topic: topics.find((t) => t.name.toLowerCase() === name.toLowerCase()) }));
  for (const { name, topic } of found) if (!topic) (fieldErrors.topics ??= []).push(`No topic is named "${name}".`);
  const primary = found[0]?.topic;
  if (primary && primary.subject_id !== null)
    (fieldErrors.topics ??= []).push(`The first topic is the primary one and must be a subject; "${primary.name}" is a topic within one.`);
  if (Object.keys(fieldErrors).length > 0) return { ok: false, fieldErrors };

  const streams = new Set<string>(fields.streams);
  // A visual-library piece is in its stream whatever the form says, as the seed's are.
  if (fields.tier === "visual-library") streams.add("visual-library");
  return {
    ok: true,
    resolved: {
      fields: {
        ...fields,
        topics: found.map(({ topic }) => topic!.name),
        streams: CURATED_STREAMS.filter((s) => streams.has(s)),
      },
      authorIds,
      topicIds: found.map(({ topic }) => topic!.id),
    },
  };
}

/** Message for a slug another article has. */
export const slugTaken = (slug: string) => `Another article has the slug "${slug}": choose another.`;

/** Whether another article (any state) has this slug. */
export async function slugInUse(db: Database, slug: string, exceptId: number | null): Promise<boolean> {
  let query = db.selectFrom("article_record").select("id").where("slug", "=", slug);
  if (exceptId !== null) query = query.where("id", "!=", exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

export const isUniqueViolation = (error: unknown) => {
  const code = (error as { code?: string }).code;
  return code === "23505" || code === "SQLITE_CONSTRAINT_UNIQUE";
};

/**
 * Makes other desk writers wait until this transaction ends, so that two new articles (or
 * series) never take the same id. PostgreSQL needs an advisory lock; on SQLite a transaction
 * holds the database's write lock from its start.
 */
export async function holdArticleIds(tx: Database): Promise<void> {
  if (isPostgres(tx)) await sql`select pg_advisory_xact_lock(hashtextextended('article_record:ids', 0))`.execute(tx);
}

export async function nextArticleId(tx: Database): Promise<number> {
  const row = await tx
    .selectFrom("article_record")
    .select((eb) => eb.fn.max("id").as("id"))
    .executeTakeFirstOrThrow();
  return Number(row.id ?? 0) + 1;
}

/** The series' id, made if new; a known series takes the title given. */
export async function seriesId(tx: Database, fields: ArticleFields): Promise<number | null> {
  if (!fields.series || !fields.seriesTitle) return null;
  const known = await tx.selectFrom("series").select(["id", "title"]).where("slug", "=", fields.series).executeTakeFirst();
  if (known) {
    if (known.title !== fields.seriesTitle)
      await tx.updateTable("series").set({ title: fields.seriesTitle }).where("id", "=", known.id).execute();
    return known.id;
  }
  const last = await tx
    .selectFrom("series")
    .select((eb) => eb.fn.max("id").as("id"))
    .executeTakeFirstOrThrow();
  const id = Number(last.id ?? 0) + 1;
  await tx.insertInto("series").values({ id, slug: fields.series, title: fields.seriesTitle }).execute();
  return id;
}

/** The record's columns that hold the fields. */
export function recordValues(fields: ArticleFields, primaryTopicId: number, series: number | null) {
  const [year, month] = fields.published.split("-").map(Number) as [number, number];
  return {
    slug: fields.slug,
    year,
    month,
    title: fields.title,
    dek: fields.dek,
    sub_dek: fields.subDek,
    summary: fields.summary,
    body: fields.body,
    content_type: fields.contentType,
    published: fields.published,
    tier: fields.tier,
    primary_topic_id: primaryTopicId,
    series_id: series,
    series_part: series === null ? null : fields.seriesPart,
    word_count: bodyWordCount(fields.body),
  } satisfies Partial<Insertable<DB["article_record"]>>;
}

/** Writes the byline, the topics and the streams anew. */
export async function writeLinks(tx: Database, id: number, resolved: ResolvedFields): Promise<void> {
  await tx.deleteFrom("article_author").where("article_id", "=", id).execute();
  await tx.deleteFrom("article_topic").where("article_id", "=", id).execute();
  await tx.deleteFrom("stream_entry").where("article_id", "=", id).execute();
  await tx
    .insertInto("article_author")
    .values(resolved.authorIds.map((author_id, position) => ({ article_id: id, author_id, position })))
    .execute();
  const { streams, published } = resolved.fields;
  await tx
    .insertInto("article_topic")
    .values(resolved.topicIds.map((topic_id, position) => ({ article_id: id, topic_id, position, published })))
    .execute();
  if (streams.length > 0)
    await tx
      .insertInto("stream_entry")
      .values(streams.map((stream) => ({ stream, article_id: id, published })))
      .execute();
}
