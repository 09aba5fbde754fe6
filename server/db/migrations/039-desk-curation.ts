import type { Kysely } from "kysely";

// The desk's curation (issue 38): the home page's lead and pinned stories, chosen by an editor,
// and reading lists edited at the desk. Both carry a version, counted up by each change, so that
// a change made from a stale page writes nothing (no lost update).
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  // One row (id 1): the choice's version and its last change; its stories are home_pick's rows.
  await s
    .createTable("home_curation")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("version", "integer", (c) => c.notNull())
    .addColumn("updated_at", "text")
    .addColumn("updated_by_name", "text")
    .execute();
  await db
    .insertInto("home_curation" as never)
    .values({ id: 1, version: 1, updated_at: null, updated_by_name: null } as never)
    .execute();
  // The chosen stories in order: position 0 is the lead, the next are the pinned stories.
  await s
    .createTable("home_pick")
    .addColumn("position", "integer", (c) => c.primaryKey())
    .addColumn("article_id", "integer", (c) => c.notNull().unique().references("article_record.id").onDelete("cascade"))
    .execute();

  await s
    .alterTable("reading_list")
    .addColumn("version", "integer", (c) => c.notNull().defaultTo(1))
    .execute();
  await s.alterTable("reading_list").addColumn("updated_at", "text").execute();
  await s.alterTable("reading_list").addColumn("updated_by_name", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("home_pick").execute();
  await db.schema.dropTable("home_curation").execute();
}
