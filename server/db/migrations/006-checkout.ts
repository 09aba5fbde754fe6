import type { Kysely } from "kysely";

// Checkout: readers' saved addresses, the checkout draft kept per cart between the
// shipping-and-payment step and the review, promo codes, and vouchers redeemed at no charge.
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;

  await s
    .createTable("saved_address")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("app_user.id").onDelete("cascade"))
    .addColumn("first_name", "text", (c) => c.notNull())
    .addColumn("last_name", "text", (c) => c.notNull())
    .addColumn("address1", "text", (c) => c.notNull())
    .addColumn("address2", "text")
    .addColumn("city", "text", (c) => c.notNull())
    .addColumn("state", "text")
    .addColumn("postal_code", "text", (c) => c.notNull())
    .addColumn("country_code", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await s.createIndex("saved_address_user_idx").on("saved_address").columns(["user_id", "created_at"]).execute();

  // What the shopper entered on /shipping-payment, as typed (capped), so the page can be left
  // and come back to. confirmed_at: the shopper pressed Continue and it passed validation (any
  // later change clears it); it is validated again whenever it is used.
  await s
    .createTable("checkout_draft")
    .addColumn("cart_id", "text", (c) => c.primaryKey().references("cart.id").onDelete("cascade"))
    .addColumn("email", "text")
    .addColumn("address_id", "text")
    .addColumn("first_name", "text")
    .addColumn("last_name", "text")
    .addColumn("address1", "text")
    .addColumn("address2", "text")
    .addColumn("city", "text")
    .addColumn("state", "text")
    .addColumn("postal_code", "text")
    .addColumn("country_code", "text")
    .addColumn("save_address", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("shipping_method", "text")
    .addColumn("promo_code", "text")
    .addColumn("confirmed_at", "text")
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  // Exactly one of percent_off / amount_off_cents is set; product_type null: every item.
  await s
    .createTable("promo_code")
    .addColumn("code", "text", (c) => c.primaryKey())
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("percent_off", "integer")
    .addColumn("amount_off_cents", "integer")
    .addColumn("product_type", "text")
    .addColumn("starts_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text")
    .execute();

  await s
    .createTable("voucher")
    .addColumn("code", "text", (c) => c.primaryKey())
    .addColumn("availability_id", "integer", (c) => c.notNull().references("product_availability.id"))
    .addColumn("redeemed_by", "text", (c) => c.references("app_user.id").onDelete("set null"))
    .addColumn("redeemed_at", "text")
    .addColumn("order_id", "text")
    .execute();

  // cart_id: the cart an order was placed from, emptied when the payment arrives (possibly by
  // the provider's callback, without the shopper's request). provider_checkout_url: a replayed
  // submission sends the shopper back to the same hosted checkout. confirmation_sent_at: the
  // confirmation e-mail goes out once.
  await s.alterTable("store_order").addColumn("cart_id", "text").execute();
  await s.alterTable("store_order").addColumn("provider_checkout_url", "text").execute();
  await s.alterTable("store_order").addColumn("confirmation_sent_at", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ["confirmation_sent_at", "provider_checkout_url", "cart_id"]) {
    await db.schema.alterTable("store_order").dropColumn(column).execute();
  }
  for (const table of ["voucher", "promo_code", "checkout_draft", "saved_address"]) {
    await db.schema.dropTable(table).execute();
  }
}
