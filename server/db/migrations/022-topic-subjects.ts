import type { Kysely } from "kysely";

// The taxonomy's two levels: a topic belongs to one of the subjects (the broad topics such as
// Strategy), and a subject belongs to none (ADR 061).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("topic")
    .addColumn("subject_id", "integer", (c) => c.references("topic.id"))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("topic").dropColumn("subject_id").execute();
}
