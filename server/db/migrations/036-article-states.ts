import { sql, type Kysely } from "kysely";

/** The columns readers see: the view `article` lists them by name (ADR 076). */
const READER_ARTICLE_COLUMNS = [
  "id",
  "slug",
  "year",
  "month",
  "title",
  "dek",
  "sub_dek",
  "summary",
  "body",
  "content_type",
  "published",
  "tier",
  "primary_topic_id",
  "series_id",
  "series_part",
  "word_count",
] as const;

// Articles get states (ADR 076): the table becomes `article_record`, with every state, and
// `article` becomes a view of the published rows, so that every reader query, which reads
// `article`, can never see a draft, a scheduled or an unpublished article. Foreign keys to
// `article` follow the rename on both databases (SQLite rewrites them since 3.26).
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  await s.alterTable("article").renameTo("article_record").execute();
  await s
    .alterTable("article_record")
    .addColumn("status", "text", (c) => c.notNull().defaultTo("published"))
    .execute();
  await s
    .alterTable("article_record")
    .addColumn("version", "integer", (c) => c.notNull().defaultTo(1))
    .execute();
  await s.alterTable("article_record").addColumn("publish_at", "text").execute();
  await s.alterTable("article_record").addColumn("updated_at", "text").execute();
  await s.alterTable("article_record").addColumn("updated_by", "text").execute();
  await s.alterTable("article_record").addColumn("updated_by_name", "text").execute();
  // The desk's list by state, newest first; the scheduler's due articles.
  await s.createIndex("article_record_status_idx").on("article_record").columns(["status", "published", "id"]).execute();
  await s.createIndex("article_record_publish_at_idx").on("article_record").columns(["status", "publish_at"]).execute();

  await sql`create view article as select ${sql.join(READER_ARTICLE_COLUMNS.map((c) => sql.ref(c)))}
    from article_record where status = 'published'`.execute(db);

  // Every save as it was: the fields (shared/article-fields.ts) and the state, as JSON.
  await s
    .createTable("article_revision")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("article_id", "integer", (c) => c.notNull().references("article_record.id").onDelete("cascade"))
    .addColumn("version", "integer", (c) => c.notNull())
    .addColumn("fields", "text", (c) => c.notNull())
    .addColumn("saved_by", "text")
    .addColumn("saved_by_name", "text", (c) => c.notNull())
    .addColumn("saved_at", "text", (c) => c.notNull())
    .addUniqueConstraint("article_revision_version_key", ["article_id", "version"])
    .execute();

  // An address an article had (/YYYY/MM/slug) before its slug or date changed: it answers 301.
  await s
    .createTable("article_redirect")
    .addColumn("path", "text", (c) => c.primaryKey())
    .addColumn("article_id", "integer", (c) => c.notNull().references("article_record.id").onDelete("cascade"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await s.createIndex("article_redirect_article_idx").on("article_redirect").column("article_id").execute();

  // One row, counted up by every change readers can see; each process compares it with the one
  // its caches were filled at (server/content/content-generation.ts).
  await s
    .createTable("content_generation")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("generation", "integer", (c) => c.notNull())
    .addColumn("changed_at", "text")
    .execute();
  await db
    .insertInto("content_generation" as never)
    .values({ id: 1, generation: 0, changed_at: null } as never)
    .execute();
}

export async function down(): Promise<void> {
  throw new Error("Content migrations are not reversible; restore from a backup instead.");
}
