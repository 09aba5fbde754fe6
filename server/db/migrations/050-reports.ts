import type { Kysely } from "kysely";

// The desk's reports (ADR 090). Two events the meter funnel needs were not recorded anywhere:
// - `wall_view`: a reader met a wall (registration or subscribe) under an A/B tag, one row per
//   reader, wall, tag and UTC day however often they met it that day; `viewer` is the meter's
//   key (`v:` a guest's visitor id, `u:` an account), so a range counts each reader once. Its
//   key and its other index are in the order the funnel counts distinct readers in (by wall and
//   tag, and by wall), so SQLite counts them walking an index, without sorting;
// - `wall_registration`: an account opened from the registration wall's form, with its tag.
//   It keeps no account id: the report only counts them.
// And covering indexes for the reports' ranges (bench/reports.ts): orders by payment with the
// amounts the sales read, order lines by order with their product, quantity and amount, refunds by
// success, checkouts by activation.
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  await s
    .createTable("wall_view")
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("wall", "text", (c) => c.notNull())
    .addColumn("ab_tag", "text", (c) => c.notNull())
    .addColumn("viewer", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("wall_view_pk", ["wall", "ab_tag", "viewer", "day"])
    .execute();
  await s.createIndex("wall_view_viewer_idx").on("wall_view").columns(["wall", "viewer", "day"]).execute();
  await s
    .createTable("wall_registration")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("ab_tag", "text", (c) => c.notNull())
    .addColumn("registered_at", "text", (c) => c.notNull())
    .execute();
  await s.createIndex("wall_registration_at_idx").on("wall_registration").columns(["registered_at", "ab_tag"]).execute();

  await s
    .createIndex("store_order_paid_idx")
    .on("store_order")
    .columns(["paid_at", "id", "subtotal_cents", "shipping_cents", "total_cents"])
    .execute();
  await s
    .createIndex("store_order_line_sales_idx")
    .on("store_order_line")
    .columns(["order_id", "product_id", "quantity", "line_total_cents"])
    .execute();
  await s.createIndex("store_refund_succeeded_idx").on("store_refund").columns(["succeeded_at", "status"]).execute();
  await s
    .createIndex("subscription_checkout_activated_idx")
    .on("subscription_checkout")
    .columns(["activated_at", "status", "ab_tag"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  await s.dropIndex("subscription_checkout_activated_idx").execute();
  await s.dropIndex("store_refund_succeeded_idx").execute();
  await s.dropIndex("store_order_line_sales_idx").execute();
  await s.dropIndex("store_order_paid_idx").execute();
  await s.dropTable("wall_registration").execute();
  await s.dropIndex("wall_view_viewer_idx").execute();
  await s.dropTable("wall_view").execute();
}
