import type { Kysely } from "kysely";

// E-mail changes wait for a single-use link mailed to the new address (ADR 021). An address
// counts as verified once a mailed link to it has been followed; linking a print subscription
// asks for that.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("app_user").addColumn("email_verified_at", "text").execute();
  await db.schema
    .createTable("email_change")
    .addColumn("token_hash", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("app_user.id").onDelete("cascade"))
    .addColumn("new_email", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .execute();
  await db.schema.createIndex("email_change_user_idx").on("email_change").column("user_id").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("email_change").execute();
  await db.schema.alterTable("app_user").dropColumn("email_verified_at").execute();
}
