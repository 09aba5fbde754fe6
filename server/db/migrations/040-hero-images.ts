import { sql, type Kysely } from "kysely";

/** The columns readers see through the view `article` (036's, and the hero image). */
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
  "hero_image_id",
] as const;

// Uploaded images in use (issue 38): an article's hero image and an author's photo, each an
// uploaded image (ADR 077) or null for the generated art. Readers need the hero, so the view
// `article` is made again with it (ADR 076: the view names its columns).
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  await s
    .alterTable("article_record")
    .addColumn("hero_image_id", "text", (c) => c.references("image.id").onDelete("set null"))
    .execute();
  await s
    .alterTable("author")
    .addColumn("photo_image_id", "text", (c) => c.references("image.id").onDelete("set null"))
    .execute();
  await sql`drop view article`.execute(db);
  await sql`create view article as select ${sql.join(READER_ARTICLE_COLUMNS.map((c) => sql.ref(c)))}
    from article_record where status = 'published'`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error("Content migrations are not reversible; restore from a backup instead.");
}
