import type { Kysely } from "kysely";

// A billing mail is claimed for a while before it is sent, and marked sent after (ADR 066,
// "Mail"): a process killed between the two leaves a claim that lapses, and a later run sends the
// mail, where before the claim itself counted as sent and the mail was lost.
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  await s.alterTable("invoice").addColumn("receipt_claimed_until", "text").execute();
  await s.alterTable("subscription").addColumn("failure_claimed_until", "text").execute();
  await s.alterTable("subscription").addColumn("notice_claimed_until", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  await s.alterTable("subscription").dropColumn("notice_claimed_until").execute();
  await s.alterTable("subscription").dropColumn("failure_claimed_until").execute();
  await s.alterTable("invoice").dropColumn("receipt_claimed_until").execute();
}
