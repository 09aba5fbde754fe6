import type { Kysely } from "kysely";

// Short links to pages of this site (server/share/short-links.ts): a random code and the path (with
// its query) it stands for. A path has one code, so the same page always gets the same link.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("short_link")
    .addColumn("code", "text", (c) => c.primaryKey())
    .addColumn("path", "text", (c) => c.notNull().unique())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("short_link").execute();
}
