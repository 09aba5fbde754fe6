import { sql, type Kysely } from "kysely";

// Recurring billing (ADR 066). A web subscription bought with a card the provider keeps on file
// renews by itself: it records its plan, its billing state and that card. Subscriptions from
// before (and print ones) have no billing state and lapse at the end of their period, as before.
// Every payment gets an invoice numbered from one gapless counter. The sandbox provider keeps
// saved cards, off-session charges (one per idempotency key) and a clock of its own.
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;

  await s.alterTable("subscription").addColumn("plan_id", "text").execute();
  await s.alterTable("subscription").addColumn("billing_status", "text").execute();
  await s.alterTable("subscription").addColumn("payment_method_id", "text").execute();
  await s.alterTable("subscription").addColumn("card_brand", "text").execute();
  await s.alterTable("subscription").addColumn("card_last4", "text").execute();
  await s.alterTable("subscription").addColumn("past_due_since", "text").execute();
  await s.alterTable("subscription").addColumn("failure_mailed_at", "text").execute();
  // The renewal run looks for renewing subscriptions whose period has ended.
  await s.createIndex("subscription_renewal_idx").on("subscription").columns(["billing_status", "access_end"]).execute();

  await s.alterTable("subscription_checkout").addColumn("company", "text").execute();
  await s.alterTable("subscription_checkout").addColumn("tax_id", "text").execute();

  await s
    .createTable("invoice_sequence")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("last_number", "integer", (c) => c.notNull())
    .execute();
  await sql`insert into invoice_sequence (name, last_number) values ('invoice', 0)`.execute(db);

  await s
    .createTable("invoice")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("number", "integer", (c) => c.notNull().unique())
    .addColumn("subscription_id", "text", (c) => c.notNull().references("subscription.id").onDelete("cascade"))
    .addColumn("user_id", "text", (c) => c.notNull().references("app_user.id").onDelete("cascade"))
    .addColumn("payment_key", "text", (c) => c.notNull().unique())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("plan_id", "text", (c) => c.notNull())
    .addColumn("amount_cents", "integer", (c) => c.notNull())
    .addColumn("tax_cents", "integer", (c) => c.notNull())
    .addColumn("period_start", "text", (c) => c.notNull())
    .addColumn("period_end", "text", (c) => c.notNull())
    .addColumn("company", "text")
    .addColumn("tax_id", "text")
    .addColumn("card_brand", "text")
    .addColumn("card_last4", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("receipt_sent_at", "text")
    .execute();
  await s.createIndex("invoice_user_idx").on("invoice").columns(["user_id", "number"]).execute();

  await s
    .alterTable("sandbox_payment")
    .addColumn("save_card", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await s.alterTable("sandbox_payment").addColumn("payment_method_id", "text").execute();
  await s
    .createTable("sandbox_payment_method")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("customer_email", "text", (c) => c.notNull())
    .addColumn("brand", "text", (c) => c.notNull())
    .addColumn("last4", "text", (c) => c.notNull())
    .addColumn("declines_off_session", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await s
    .createTable("sandbox_charge")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("idempotency_key", "text", (c) => c.notNull().unique())
    .addColumn("payment_method_id", "text", (c) => c.notNull().references("sandbox_payment_method.id"))
    .addColumn("amount_cents", "integer", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await s
    .createTable("sandbox_clock")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("offset_seconds", "integer", (c) => c.notNull())
    .execute();
  await sql`insert into sandbox_clock (name, offset_seconds) values ('default', 0)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  await s.dropTable("sandbox_clock").execute();
  await s.dropTable("sandbox_charge").execute();
  await s.dropTable("sandbox_payment_method").execute();
  await s.alterTable("sandbox_payment").dropColumn("payment_method_id").execute();
  await s.alterTable("sandbox_payment").dropColumn("save_card").execute();
  await s.dropTable("invoice").execute();
  await s.dropTable("invoice_sequence").execute();
  await s.alterTable("subscription_checkout").dropColumn("tax_id").execute();
  await s.alterTable("subscription_checkout").dropColumn("company").execute();
  await s.dropIndex("subscription_renewal_idx").execute();
  for (const column of [
    "failure_mailed_at",
    "past_due_since",
    "card_last4",
    "card_brand",
    "payment_method_id",
    "billing_status",
    "plan_id",
  ])
    await s.alterTable("subscription").dropColumn(column).execute();
}
