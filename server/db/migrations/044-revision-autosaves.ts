import type { Kysely } from "kysely";

// An article's revisions say which were autosaved (ADR 085): consecutive autosaves by one editor
// fold into the revision the first of them made, so the history keeps sittings, not keystrokes.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("article_revision")
    .addColumn("autosaved", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("article_revision").dropColumn("autosaved").execute();
}
