import { sql, type Kysely } from "kysely";
import { isPostgres } from "~/server/db/dialect";

// Full-text search over every kind of content (ADR 030). One row per searchable thing in
// search_document, keyed so that key order is publication order; the words themselves are in
// the database's own index: an FTS5 table on SQLite, tsvector columns with GIN indexes on
// PostgreSQL, with titles also indexed alone (stemmed, to rank title matches first; unstemmed, for
// auto-suggest). Only what a result shows is stored here; the text stays in the content tables.
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = isPostgres(db);
  await db.schema
    .createTable("search_document")
    .addColumn("id", postgres ? "bigint" : "integer", (c) => c.primaryKey())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("ref_id", "integer", (c) => c.notNull())
    .addColumn("published", "text", (c) => c.notNull())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("label", "text", (c) => c.notNull())
    .addColumn("image", "text", (c) => c.notNull())
    .addColumn("teaser", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("search_document_ref_idx").on("search_document").columns(["kind", "ref_id"]).unique().execute();

  await db.schema
    .createTable("search_document_topic")
    .addColumn("document_id", postgres ? "bigint" : "integer", (c) => c.notNull().references("search_document.id").onDelete("cascade"))
    .addColumn("topic_id", "integer", (c) => c.notNull().references("topic.id"))
    .addPrimaryKeyConstraint("search_document_topic_pk", ["document_id", "topic_id"])
    .execute();
  await db.schema.createIndex("search_document_topic_idx").on("search_document_topic").columns(["topic_id", "document_id"]).execute();

  if (postgres) {
    await sql`alter table search_document
      add column document tsvector not null, add column heading_words tsvector not null, add column title_words tsvector not null`.execute(
      db,
    );
    await sql`create index search_document_words_idx on search_document using gin (document)`.execute(db);
    await sql`create index search_document_heading_idx on search_document using gin (heading_words)`.execute(db);
    await sql`create index search_document_title_idx on search_document using gin (title_words)`.execute(db);
  } else {
    // Contentless: the index keeps only the words; contentless_delete lets a changed
    // document be replaced by its key alone.
    await sql`create virtual table search_text using fts5(
      title, summary, body,
      tokenize = 'porter unicode61 remove_diacritics 2', prefix = '2 3', content = '', contentless_delete = 1
    )`.execute(db);
    // Titles alone, stemmed: a small index that finds title matches without reading bodies.
    await sql`create virtual table search_heading using fts5(
      title, tokenize = 'porter unicode61 remove_diacritics 2', content = '', contentless_delete = 1
    )`.execute(db);
    // Titles again, unstemmed, for auto-suggest: "innovat" is a prefix of "innovation" but not of its stem "innov".
    await sql`create virtual table search_title using fts5(
      title, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3 4', content = '', contentless_delete = 1
    )`.execute(db);
  }
  // Content already in the database is indexed after the last migration, by the code that
  // writes the index then (server/seed/initialize.ts): a later migration may change the layout.
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const postgres = isPostgres(db);
  if (!postgres) {
    await sql`drop table search_title`.execute(db);
    await sql`drop table search_heading`.execute(db);
    await sql`drop table search_text`.execute(db);
  }
  await db.schema.dropTable("search_document_topic").execute();
  await db.schema.dropTable("search_document").execute();
}
