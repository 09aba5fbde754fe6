import { sql, type Kysely } from "kysely";

// An order's customer at the payment provider (ADR 092, 089): the one its checkout made to keep the
// card for pre-orders charged on their dates (a Stripe Customer per order, with the buyer's e-mail
// and card). Kept while a charge awaits that card; deleted at the provider, and set null here, once
// none does (by the scheduled job, or at once by the buyer's account deletion). The partial index
// finds the few orders that still have one.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("store_order").addColumn("provider_customer_id", "text").execute();
  await db.schema
    .createIndex("store_order_provider_customer_idx")
    .on("store_order")
    .column("provider")
    .where(sql.ref("provider_customer_id"), "is not", null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("store_order_provider_customer_idx").execute();
  await db.schema.alterTable("store_order").dropColumn("provider_customer_id").execute();
}
