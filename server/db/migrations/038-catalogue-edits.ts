import type { Kysely } from "kysely";

// Authors and topics edited at the desk (ADR 078): each row counts its saves (`version`, which a
// save must name to be accepted) and says who saved it last and when. A topic's slug follows its
// name, so the slugs it had before a rename are kept here and their pages answer 301.
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ["author", "topic"]) {
    await db.schema
      .alterTable(table)
      .addColumn("version", "integer", (c) => c.notNull().defaultTo(1))
      .execute();
    await db.schema.alterTable(table).addColumn("updated_at", "text").execute();
    await db.schema.alterTable(table).addColumn("updated_by_name", "text").execute();
  }
  await db.schema
    .createTable("topic_former_slug")
    .addColumn("slug", "text", (c) => c.primaryKey())
    .addColumn("topic_id", "integer", (c) => c.notNull().references("topic.id"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("topic_former_slug_topic_idx").on("topic_former_slug").column("topic_id").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("topic_former_slug").execute();
  for (const table of ["author", "topic"]) {
    for (const column of ["updated_by_name", "updated_at", "version"]) await db.schema.alterTable(table).dropColumn(column).execute();
  }
}
