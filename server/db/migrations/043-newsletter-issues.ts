import type { Kysely } from "kysely";

// Newsletter issues composed at the desk and sent by the scheduled jobs (issue 38, ADR 084): an
// issue's text and articles, its state (draft → queued → sending → sent) with a version against
// lost updates, and one delivery row per recipient, claimed in batches and marked as each mail
// goes, so that every reader gets an issue once across instances and after a process is killed.
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  await s
    .createTable("newsletter_issue")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("newsletter_id", "integer", (c) => c.notNull().references("newsletter.id"))
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("preheader", "text", (c) => c.notNull())
    .addColumn("intro", "text", (c) => c.notNull())
    .addColumn("version", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("created_by_name", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addColumn("updated_by_name", "text", (c) => c.notNull())
    // Set when it is queued: the moment it is to go (now, or a scheduled time) and who sent it.
    .addColumn("send_at", "text")
    .addColumn("queued_at", "text")
    .addColumn("queued_by_name", "text")
    // The jobs' start (its recipients are listed then) and end, with the counts at the end.
    .addColumn("started_at", "text")
    .addColumn("sent_at", "text")
    .addColumn("recipient_count", "integer")
    .addColumn("sent_count", "integer")
    .addColumn("failed_count", "integer")
    .addColumn("skipped_count", "integer")
    .execute();
  await s.createIndex("newsletter_issue_status_idx").on("newsletter_issue").columns(["status", "send_at"]).execute();
  await s.createIndex("newsletter_issue_newsletter_idx").on("newsletter_issue").columns(["newsletter_id", "id"]).execute();

  await s
    .createTable("newsletter_issue_article")
    .addColumn("issue_id", "integer", (c) => c.notNull().references("newsletter_issue.id").onDelete("cascade"))
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("article_id", "integer", (c) => c.notNull().references("article_record.id").onDelete("cascade"))
    .addPrimaryKeyConstraint("newsletter_issue_article_pk", ["issue_id", "position"])
    .execute();

  // state: pending → claimed (a batch's `claim` holds it until `claimed_until`) → sent, failed
  // (the mail server refused it) or skipped (no longer following, or no longer a subscriber).
  await s
    .createTable("newsletter_delivery")
    .addColumn("issue_id", "integer", (c) => c.notNull().references("newsletter_issue.id").onDelete("cascade"))
    .addColumn("user_id", "text", (c) => c.notNull().references("app_user.id").onDelete("cascade"))
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("claim", "text")
    .addColumn("claimed_until", "text")
    .addColumn("done_at", "text")
    .addColumn("error", "text")
    .addPrimaryKeyConstraint("newsletter_delivery_pk", ["issue_id", "user_id"])
    .execute();
  await s.createIndex("newsletter_delivery_state_idx").on("newsletter_delivery").columns(["issue_id", "state"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("newsletter_delivery").execute();
  await db.schema.dropTable("newsletter_issue_article").execute();
  await db.schema.dropTable("newsletter_issue").execute();
}
