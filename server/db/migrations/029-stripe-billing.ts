import type { Kysely } from "kysely";

// Stripe Billing (ADR 067): a subscription Stripe renews records its Stripe subscription and
// customer, and the time of the last Stripe event that changed its state (so an older event
// arriving later changes nothing). Every webhook event applied is recorded once, by its id.
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  await s.alterTable("subscription").addColumn("provider_subscription_id", "text").execute();
  await s.alterTable("subscription").addColumn("provider_customer_id", "text").execute();
  await s.alterTable("subscription").addColumn("provider_state_at", "text").execute();
  await s.createIndex("subscription_provider_subscription_idx").on("subscription").column("provider_subscription_id").unique().execute();
  await s
    .createTable("payment_event")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("received_at", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  await s.dropTable("payment_event").execute();
  await s.dropIndex("subscription_provider_subscription_idx").execute();
  for (const column of ["provider_state_at", "provider_customer_id", "provider_subscription_id"])
    await s.alterTable("subscription").dropColumn(column).execute();
}
