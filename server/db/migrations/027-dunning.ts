import type { Kysely } from "kysely";

// Dunning, card changes and plan changes (ADR 066, "Dunning", "Changing the card", "Changing plan").
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  await s.alterTable("subscription").addColumn("grace_end", "text").execute();
  await s
    .alterTable("subscription")
    .addColumn("failed_attempts", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await s.alterTable("subscription").addColumn("next_retry_at", "text").execute();
  await s.alterTable("subscription").addColumn("scheduled_plan_id", "text").execute();
  await s.alterTable("subscription").addColumn("pending_change", "text").execute();
  await s
    .alterTable("sandbox_payment")
    .addColumn("mode", "text", (c) => c.notNull().defaultTo("payment"))
    .execute();
  await s
    .createTable("card_change")
    .addColumn("session_id", "text", (c) => c.primaryKey())
    .addColumn("subscription_id", "text", (c) => c.notNull())
    .addColumn("payment_method_id", "text", (c) => c.notNull())
    .addColumn("applied_at", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  await s.dropTable("card_change").execute();
  await s.alterTable("sandbox_payment").dropColumn("mode").execute();
  for (const column of ["pending_change", "scheduled_plan_id", "next_retry_at", "failed_attempts", "grace_end"])
    await s.alterTable("subscription").dropColumn(column).execute();
}
