import { sql, type Kysely } from "kysely";

// Pre-orders (issue 39, ADR 092): a coming-soon format can be ordered.
// - `product_availability.preorder_charge`: "payment", its pre-orders are charged with the order;
//   "ship", the checkout saves the card and the scheduled job charges it on the availability date.
// - `store_order.deferred_cents`: what the checkout left for those charges.
// - On each pre-ordered line (one with available_date): `charge_cents` (its deferred share, null
//   when charged with the order), the charge's id and time or the time it was declined,
//   `released_at` (its date came: downloads open, print ready to ship), and the notice to the
//   buyer (downloads open, or the charge declined), claimed and sent once.
// The sandbox's refunds may give back such a charge (`sandbox_refund.charge_id`) rather than the
// session's payment.
// Lines ordered before (vouchers could redeem coming-soon items) whose date has passed count as
// released and told already.
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  await s
    .alterTable("product_availability")
    .addColumn("preorder_charge", "text", (c) =>
      c
        .notNull()
        .defaultTo("payment")
        .check(sql`preorder_charge in ('payment', 'ship')`),
    )
    .execute();
  await s
    .alterTable("store_order")
    .addColumn("deferred_cents", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  for (const column of ["charge_id", "charged_at", "charge_failed_at", "released_at", "notice_sent_at", "notice_claimed_until"])
    await s.alterTable("store_order_line").addColumn(column, "text").execute();
  await s.alterTable("store_order_line").addColumn("charge_cents", "integer").execute();
  await s
    .alterTable("sandbox_refund")
    .addColumn("charge_id", "text", (c) => c.references("sandbox_charge.id"))
    .execute();
  await s
    .createIndex("store_order_line_preorder_idx")
    .on("store_order_line")
    .column("available_date")
    .where(sql.ref("released_at"), "is", null)
    .execute();
  const now = new Date().toISOString();
  await sql`update store_order_line set released_at = available_date, notice_sent_at = available_date
    where available_date is not null and available_date <= ${now}`.execute(db);
}
