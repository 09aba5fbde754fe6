import type { Kysely } from "kysely";

// Each guest read remembers the network address it came from, so that fresh visitor cookies
// from one address share a monthly ceiling (server/paywall/meter.ts, ADR 026).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("meter_read").addColumn("client_address", "text").execute();
  await db.schema.createIndex("meter_read_address_idx").on("meter_read").columns(["client_address", "period"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("meter_read_address_idx").execute();
  await db.schema.alterTable("meter_read").dropColumn("client_address").execute();
}
