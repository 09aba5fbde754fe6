import type { Kysely } from "kysely";

// What the geo-IP service said of an address, kept so that it is asked at most once per visitor
// however many instances serve them (server/adapters/geo.ts). A lookup that failed is kept too,
// for less time, so that a service that times out costs a visitor its wait once.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("geo_country")
    .addColumn("address", "text", (c) => c.primaryKey())
    .addColumn("country", "text")
    .addColumn("expires_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("geo_country_expires_idx").on("geo_country").column("expires_at").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("geo_country").execute();
}
