import type { Kysely } from "kysely";

// Staff API keys for the Admin API (ADR 074): a name, the roles the key acts with, and the key's
// SHA-256, found by its short public prefix. The key itself is never stored. A revoked key keeps
// its row (with when and by whom), so the desk can still list it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("desk_api_key")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("prefix", "text", (c) => c.notNull().unique())
    .addColumn("key_hash", "text", (c) => c.notNull())
    .addColumn("roles", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("created_by", "text", (c) => c.notNull())
    .addColumn("last_used_at", "text")
    .addColumn("revoked_at", "text")
    .addColumn("revoked_by", "text")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("desk_api_key").execute();
}
