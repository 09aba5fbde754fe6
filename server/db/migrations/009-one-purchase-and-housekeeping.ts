import { sql, type Kysely } from "kysely";

// One purchase per intent (ADR 022): a reader has at most one active web subscription (a new
// plan replaces it), and a subscription checkout form's key opens one checkout however many
// times it is posted. Housekeeping: a rate-limit row says when its window ends, so the sweep
// can remove the ones that have.
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;

  // Readers who bought twice before this rule keep the subscription that runs longest.
  await sql`
    update subscription set status = 'cancelled'
    where source = 'web' and status = 'active' and exists (
      select 1 from subscription newer
      where newer.user_id = subscription.user_id and newer.source = 'web' and newer.status = 'active'
        and (newer.access_end > subscription.access_end or (newer.access_end = subscription.access_end and newer.id > subscription.id))
    )`.execute(db);
  await sql`create unique index subscription_one_active_web on subscription (user_id) where status = 'active' and source = 'web'`.execute(
    db,
  );

  await s.alterTable("subscription_checkout").addColumn("idempotency_key", "text").execute();
  await s.alterTable("subscription_checkout").addColumn("provider_checkout_url", "text").execute();
  await s.createIndex("subscription_checkout_key_uq").unique().on("subscription_checkout").column("idempotency_key").execute();

  await s.alterTable("rate_limit").addColumn("window_end", "text").execute();
  // Windows were a day at most before this column.
  const rows = await db
    .selectFrom("rate_limit" as never)
    .select(["key" as never, "window_start" as never])
    .execute();
  for (const row of rows as { key: string; window_start: string }[]) {
    const end = new Date(new Date(row.window_start).getTime() + 86_400_000).toISOString();
    await sql`update rate_limit set window_end = ${end} where ${sql.ref("key")} = ${row.key}`.execute(db);
  }
  await s.createIndex("rate_limit_window_end_idx").on("rate_limit").column("window_end").execute();
  // The sweep looks up guest carts by age.
  await s.createIndex("cart_updated_idx").on("cart").column("updated_at").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  await s.dropIndex("cart_updated_idx").execute();
  await s.dropIndex("rate_limit_window_end_idx").execute();
  await s.alterTable("rate_limit").dropColumn("window_end").execute();
  await s.dropIndex("subscription_checkout_key_uq").execute();
  await s.alterTable("subscription_checkout").dropColumn("provider_checkout_url").execute();
  await s.alterTable("subscription_checkout").dropColumn("idempotency_key").execute();
  await s.dropIndex("subscription_one_active_web").execute();
}
