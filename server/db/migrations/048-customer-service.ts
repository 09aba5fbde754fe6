import type { Kysely } from "kysely";

// Customer service at the desk (ADR 087). `mail_log` is the mail adapter's log: one row per
// recipient of every message handed over (the address, subject and when; never the body, whose
// links are secrets), so the desk can show what a reader was sent whatever the transport.
// `service_request` holds the key each service form carries: an action whose key is already
// there is a replay and changes nothing. `download_extension` moves a case study's download
// access past the six months it has from payment.
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  await s
    .createTable("mail_log")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("recipient", "text", (c) => c.notNull())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("sent_at", "text", (c) => c.notNull())
    .addColumn("message_id", "text", (c) => c.notNull())
    .execute();
  await s.createIndex("mail_log_recipient").on("mail_log").columns(["recipient", "sent_at"]).execute();
  await s
    .createTable("service_request")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("user_id", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await s
    .createTable("download_extension")
    .addColumn("order_id", "text", (c) => c.notNull().references("store_order.id").onDelete("cascade"))
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("download_extension_pk", ["order_id", "position"])
    .execute();
}
