import type { Kysely } from "kysely";

// Renewal reminders (ADR 066, "Renewal reminders"): the end of the period whose reminder went, so
// each period of an annual plan is reminded of once, and the next period again.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("subscription").addColumn("reminder_sent_for", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("subscription").dropColumn("reminder_sent_for").execute();
}
