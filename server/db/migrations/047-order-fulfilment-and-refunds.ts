import { sql, type Kysely } from "kysely";

// Orders after payment (issue 39, ADR 086): shipments with a carrier and tracking number, a line's
// fulfilment, the order's fulfilled and delivered moments, and refunds of the whole order or of
// chosen lines. What has been refunded is counted on the order and on each line, and moved only by
// conditional updates (`refunded + x <= paid`), so no two refunds together pass what was paid.
// Credit notes are numbered from invoice_sequence's own row, "credit-note".
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  await s
    .alterTable("store_order")
    .addColumn("refunded_cents", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  // The first dispatch: once set, the order can no longer be cancelled.
  await s.alterTable("store_order").addColumn("shipped_at", "text").execute();
  await s.alterTable("store_order").addColumn("fulfilled_at", "text").execute();
  await s.alterTable("store_order").addColumn("delivered_at", "text").execute();
  // The provider's payment (Stripe's PaymentIntent) a refund went to, to match its events.
  await s.alterTable("store_order").addColumn("provider_payment_id", "text").execute();
  await s.createIndex("store_order_payment_idx").on("store_order").column("provider_payment_id").execute();
  await s.createIndex("store_order_status_created_idx").on("store_order").columns(["status", "created_at"]).execute();

  await s
    .createTable("store_shipment")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("order_id", "text", (c) => c.notNull().references("store_order.id").onDelete("cascade"))
    .addColumn("carrier", "text", (c) => c.notNull())
    .addColumn("tracking_number", "text", (c) => c.notNull())
    .addColumn("idempotency_key", "text", (c) => c.notNull().unique())
    .addColumn("shipped_at", "text", (c) => c.notNull())
    .addColumn("shipped_by", "text", (c) => c.notNull())
    .addColumn("delivered_at", "text")
    .addColumn("mail_sent_at", "text")
    .addColumn("mail_claimed_until", "text")
    .execute();
  await s.createIndex("store_shipment_order_idx").on("store_shipment").column("order_id").execute();

  await s.alterTable("store_order_line").addColumn("shipment_id", "text").execute();
  await s.alterTable("store_order_line").addColumn("fulfilled_at", "text").execute();
  await s
    .alterTable("store_order_line")
    .addColumn("refunded_quantity", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await s.alterTable("store_order_line").addColumn("refunded_at", "text").execute();

  // status: pending (asked of the provider, counted already) → succeeded, or failed (given back).
  await s
    .createTable("store_refund")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("order_id", "text", (c) => c.notNull().references("store_order.id").onDelete("cascade"))
    .addColumn("idempotency_key", "text", (c) => c.notNull().unique())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("amount_cents", "integer", (c) => c.notNull().check(sql`amount_cents >= 0`))
    .addColumn("reason", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("requested_by", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("provider_refund_id", "text")
    .addColumn("succeeded_at", "text")
    .addColumn("failure", "text")
    .addColumn("credit_note_number", "integer", (c) => c.unique())
    .addColumn("mail_sent_at", "text")
    .addColumn("mail_claimed_until", "text")
    .execute();
  await s.createIndex("store_refund_order_idx").on("store_refund").columns(["order_id", "created_at"]).execute();

  await s
    .createTable("store_refund_line")
    .addColumn("refund_id", "text", (c) => c.notNull().references("store_refund.id").onDelete("cascade"))
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("quantity", "integer", (c) => c.notNull().check(sql`quantity > 0`))
    .addPrimaryKeyConstraint("store_refund_line_pk", ["refund_id", "position"])
    .execute();

  // The sandbox provider's refunds (ADR 086): immediate, never more than the payment took.
  await s
    .createTable("sandbox_refund")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("idempotency_key", "text", (c) => c.notNull().unique())
    .addColumn("payment_id", "text", (c) => c.notNull().references("sandbox_payment.id"))
    .addColumn("amount_cents", "integer", (c) => c.notNull())
    .addColumn("reference", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await s.createIndex("sandbox_refund_payment_idx").on("sandbox_refund").column("payment_id").execute();

  await sql`insert into invoice_sequence (name, last_number) values ('credit-note', 0)`.execute(db);
  // Orders paid before: their digital lines were delivered at payment.
  await sql`update store_order_line set fulfilled_at = (select paid_at from store_order o where o.id = store_order_line.order_id)
    where code in ('KND', 'PDF', 'HTM', 'ZIP', 'PPT', 'XLS', 'EPB') or kind = 'perm'`.execute(db);
  await sql`update store_order set fulfilled_at = paid_at where paid_at is not null and not exists
    (select 1 from store_order_line l where l.order_id = store_order.id and l.fulfilled_at is null)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  await sql`delete from invoice_sequence where name = 'credit-note'`.execute(db);
  await s.dropTable("sandbox_refund").execute();
  await s.dropTable("store_refund_line").execute();
  await s.dropTable("store_refund").execute();
  for (const column of ["refunded_at", "refunded_quantity", "fulfilled_at", "shipment_id"])
    await s.alterTable("store_order_line").dropColumn(column).execute();
  await s.dropTable("store_shipment").execute();
  await s.dropIndex("store_order_status_created_idx").execute();
  await s.dropIndex("store_order_payment_idx").execute();
  for (const column of ["provider_payment_id", "delivered_at", "fulfilled_at", "shipped_at", "refunded_cents"])
    await s.alterTable("store_order").dropColumn(column).execute();
}
