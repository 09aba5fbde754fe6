import type { Kysely } from "kysely";
import { isPostgres } from "~/server/db/dialect";

// Uploaded images (ADR 077): the upload as it was decoded (its size, format and SHA-256, which
// finds a second upload of the same file), and its variants, one per width and format. A
// variant's bytes are in `data` when the database keeps them, or in the bucket under
// `storage_key` when `data` is null. The uploader is named by value, as the audit log names them.
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  await s
    .createTable("image")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("uploaded_by", "text", (c) => c.notNull())
    .addColumn("uploaded_at", "text", (c) => c.notNull())
    .addColumn("width", "integer", (c) => c.notNull())
    .addColumn("height", "integer", (c) => c.notNull())
    .addColumn("format", "text", (c) => c.notNull())
    .addColumn("bytes", "integer", (c) => c.notNull())
    .addColumn("alt", "text")
    .addColumn("sha256", "text", (c) => c.notNull().unique())
    .execute();

  await s
    .createTable("image_variant")
    .addColumn("image_id", "text", (c) => c.notNull().references("image.id").onDelete("cascade"))
    .addColumn("width", "integer", (c) => c.notNull())
    .addColumn("height", "integer", (c) => c.notNull())
    .addColumn("format", "text", (c) => c.notNull())
    .addColumn("bytes", "integer", (c) => c.notNull())
    .addColumn("data", isPostgres(db) ? "bytea" : "blob")
    .addColumn("storage_key", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("image_variant_pk", ["image_id", "width", "format"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("image_variant").execute();
  await db.schema.dropTable("image").execute();
}
