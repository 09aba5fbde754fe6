import { sql, type Kysely } from "kysely";

// Pre-orders charged on their dates through Stripe too, and paid again by their buyers after a
// declined card (ADR 092, amended).
// - `store_refund_payment`: what a refund gives back of each payment it goes to, the order's
//   checkout (`paid_to` its session) or a pre-order's own payment (`paid_to` that payment). The
//   provider confirms each payment's refunds on its own (Stripe's charge.refunded names one
//   PaymentIntent), and a refund succeeds once all its parts have. `payment_id` is the provider's
//   payment as its refund's answer named it (known before for a pre-order's). Refunds made before
//   are one part each, of the checkout.
// - `store_preorder_payment`: the buyer's payments of a pre-order whose card was declined, one row
//   per attempt (the attempt names the provider's checkout, so a form sent twice opens one): the
//   session opened for it, and when it was closed for the next attempt, or paid.
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  await s
    .createTable("store_refund_payment")
    .addColumn("refund_id", "text", (c) => c.notNull().references("store_refund.id").onDelete("cascade"))
    .addColumn("paid_to", "text", (c) => c.notNull())
    .addColumn("amount_cents", "integer", (c) => c.notNull())
    .addColumn("payment_id", "text")
    .addColumn("provider_refund_id", "text")
    .addColumn("succeeded_at", "text")
    .addPrimaryKeyConstraint("store_refund_payment_pk", ["refund_id", "paid_to"])
    .execute();
  await s.createIndex("store_refund_payment_payment_idx").on("store_refund_payment").column("payment_id").execute();
  await sql`insert into store_refund_payment (refund_id, paid_to, amount_cents, payment_id, provider_refund_id, succeeded_at)
    select r.id, coalesce(o.provider_session_id, ''), r.amount_cents,
      case when r.provider_refund_id is not null then o.provider_payment_id end, r.provider_refund_id, r.succeeded_at
    from store_refund r join store_order o on o.id = r.order_id
    where r.amount_cents > 0 and r.status <> 'failed'`.execute(db);

  await s
    .createTable("store_preorder_payment")
    .addColumn("order_id", "text", (c) => c.notNull().references("store_order.id").onDelete("cascade"))
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("attempt", "integer", (c) => c.notNull())
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("amount_cents", "integer", (c) => c.notNull())
    .addColumn("session_id", "text")
    .addColumn("checkout_url", "text")
    .addColumn("opened_at", "text", (c) => c.notNull())
    .addColumn("closed_at", "text")
    .addColumn("paid_at", "text")
    .addPrimaryKeyConstraint("store_preorder_payment_pk", ["order_id", "position", "attempt"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("store_preorder_payment").execute();
  await db.schema.dropTable("store_refund_payment").execute();
}
