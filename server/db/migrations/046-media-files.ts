import type { Kysely } from "kysely";
import { isPostgres } from "~/server/db/dialect";

// Videos and podcast episodes at the desk (ADR 083). An uploaded media file (a video, its
// captions, an episode's audio) is kept in chunks of up to a mebibyte: each chunk's bytes are in
// `data` when the database keeps them, or in the bucket under `storage_key` (ADR 077's storage),
// so a file of hundreds of megabytes is written and read a chunk at a time. A file is `complete`
// once every chunk is written; until then nothing refers to it. Videos and episodes count their
// saves (`version`) and name who saved them last, as authors do (migration 038).
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  await s
    .createTable("media_file")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("content_type", "text", (c) => c.notNull())
    .addColumn("extension", "text", (c) => c.notNull())
    .addColumn("bytes", "integer", (c) => c.notNull())
    .addColumn("chunk_bytes", "integer", (c) => c.notNull())
    .addColumn("sha256", "text")
    .addColumn("duration_seconds", "integer")
    .addColumn("uploaded_by", "text", (c) => c.notNull())
    .addColumn("uploaded_at", "text", (c) => c.notNull())
    .addColumn("complete", "integer", (c) => c.notNull())
    .execute();
  await s
    .createTable("media_chunk")
    .addColumn("file_id", "text", (c) => c.notNull().references("media_file.id").onDelete("cascade"))
    .addColumn("seq", "integer", (c) => c.notNull())
    .addColumn("bytes", "integer", (c) => c.notNull())
    .addColumn("data", isPostgres(db) ? "bytea" : "blob")
    .addColumn("storage_key", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("media_chunk_pk", ["file_id", "seq"])
    .execute();

  for (const table of ["video", "podcast_episode"]) {
    await s
      .alterTable(table)
      .addColumn("version", "integer", (c) => c.notNull().defaultTo(1))
      .execute();
    await s.alterTable(table).addColumn("updated_at", "text").execute();
    await s.alterTable(table).addColumn("updated_by_name", "text").execute();
  }
  const file = (table: string, column: string) =>
    s
      .alterTable(table)
      .addColumn(column, "text", (c) => c.references("media_file.id").onDelete("set null"))
      .execute();
  await file("video", "media_file_id");
  await file("video", "captions_file_id");
  await file("podcast_episode", "audio_file_id");
}

export async function down(): Promise<void> {
  throw new Error("Content migrations are not reversible; restore from a backup instead.");
}
