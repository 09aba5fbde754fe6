import type { Kysely } from "kysely";

// Cancel at period end (ADR 066, "Cancellation"): when and why a subscriber cancelled, and when
// the mail for the subscription's current cancelled or ended state went.
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  await s.alterTable("subscription").addColumn("cancelled_at", "text").execute();
  await s.alterTable("subscription").addColumn("cancel_reason", "text").execute();
  await s.alterTable("subscription").addColumn("notice_mailed_at", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  await s.alterTable("subscription").dropColumn("notice_mailed_at").execute();
  await s.alterTable("subscription").dropColumn("cancel_reason").execute();
  await s.alterTable("subscription").dropColumn("cancelled_at").execute();
}
