import type { Kysely } from "kysely";

// The reports' daily roll-up (ADR 090, its 2026 amendment): what the sales and the funnel's
// counted events add up to on each closed UTC day, so that a year's report reads a few thousand
// rows in place of a year's orders, lines and refunds.
// - `report_day`: a day rolled up, with its sales totals. Its row is written in the transaction
//   that writes the day's other rows, and is the claim that makes that happen once.
// - `report_sales_day`: a day's sales and refunds by product, amounts already in whole cents as
//   the report rounds each day and product.
// - `report_funnel_day`: a day's registrations from the wall and activated checkouts by A/B tag.
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  await s
    .createTable("report_day")
    .addColumn("day", "text", (c) => c.primaryKey())
    .addColumn("orders", "integer", (c) => c.notNull())
    .addColumn("total_cents", "integer", (c) => c.notNull())
    .addColumn("refunds", "integer", (c) => c.notNull())
    .addColumn("refunds_cents", "integer", (c) => c.notNull())
    .addColumn("rolled_at", "text", (c) => c.notNull())
    .execute();
  await s
    .createTable("report_sales_day")
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("product_id", "integer", (c) => c.notNull())
    .addColumn("orders", "integer", (c) => c.notNull())
    .addColumn("units", "integer", (c) => c.notNull())
    .addColumn("gross_cents", "integer", (c) => c.notNull())
    .addColumn("refunded_units", "integer", (c) => c.notNull())
    .addColumn("refunds_cents", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("report_sales_day_pk", ["day", "product_id"])
    .execute();
  await s
    .createTable("report_funnel_day")
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("ab_tag", "text", (c) => c.notNull())
    .addColumn("registrations", "integer", (c) => c.notNull())
    .addColumn("subscriptions", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("report_funnel_day_pk", ["day", "ab_tag"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  await s.dropTable("report_funnel_day").execute();
  await s.dropTable("report_sales_day").execute();
  await s.dropTable("report_day").execute();
}
