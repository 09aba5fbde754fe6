import type { Kysely } from "kysely";

// How many times each article was read (opened in full) on each day (UTC), for the home page's
// Most Popular over the last week (server/content/popularity.ts). Housekeeping drops days past a month.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("article_read_day")
    .addColumn("article_id", "integer", (c) => c.notNull().references("article.id").onDelete("cascade"))
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("reads", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("article_read_day_pk", ["article_id", "day"])
    .execute();
  await db.schema.createIndex("article_read_day_day_idx").on("article_read_day").columns(["day", "article_id"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("article_read_day").execute();
}
