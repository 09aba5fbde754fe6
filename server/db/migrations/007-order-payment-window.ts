import type { Kysely } from "kysely";

// The sweep of abandoned orders looks up unpaid orders by age (server/store/order-sweep.ts).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex("store_order_status_idx").on("store_order").columns(["status", "created_at"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("store_order_status_idx").execute();
}
