import type { Kysely } from "kysely";

// The store's shared tables: carts (a guest's or a reader's) and the orders placed from them.
// Prices live in the catalogue (product_availability); an order line keeps a copy of what was
// charged, so a later price change never rewrites a receipt.
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;

  // A guest cart has no user (its id travels in a signed cookie); a reader has at most one cart.
  await s
    .createTable("cart")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.unique().references("app_user.id").onDelete("cascade"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  // kind "item" buys the availability itself; kind "perm" buys copyright permissions for it
  // (type Perm in the spec), with their own quantity.
  await s
    .createTable("cart_line")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("cart_id", "text", (c) => c.notNull().references("cart.id").onDelete("cascade"))
    .addColumn("availability_id", "integer", (c) => c.notNull().references("product_availability.id"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("quantity", "integer", (c) => c.notNull())
    .addColumn("referral", "text")
    .addColumn("added_at", "text", (c) => c.notNull())
    .addUniqueConstraint("cart_line_uq", ["cart_id", "availability_id", "kind"])
    .execute();

  // idempotency_key is issued with the review-order form: replaying the submission finds this row.
  await s
    .createTable("store_order")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("number", "text", (c) => c.notNull().unique())
    .addColumn("user_id", "text", (c) => c.references("app_user.id").onDelete("set null"))
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("idempotency_key", "text", (c) => c.notNull().unique())
    .addColumn("access_token", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("ship_first_name", "text")
    .addColumn("ship_last_name", "text")
    .addColumn("ship_address1", "text")
    .addColumn("ship_address2", "text")
    .addColumn("ship_city", "text")
    .addColumn("ship_state", "text")
    .addColumn("ship_postal_code", "text")
    .addColumn("ship_country_code", "text")
    .addColumn("shipping_method", "text")
    .addColumn("promo_code", "text")
    .addColumn("subtotal_cents", "integer", (c) => c.notNull())
    .addColumn("discount_cents", "integer", (c) => c.notNull())
    .addColumn("tax_cents", "integer", (c) => c.notNull())
    .addColumn("shipping_cents", "integer", (c) => c.notNull())
    .addColumn("total_cents", "integer", (c) => c.notNull())
    .addColumn("provider", "text")
    .addColumn("provider_session_id", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("paid_at", "text")
    .addColumn("cancelled_at", "text")
    .execute();
  await s.createIndex("store_order_user_idx").on("store_order").columns(["user_id", "created_at"]).execute();

  await s
    .createTable("store_order_line")
    .addColumn("order_id", "text", (c) => c.notNull().references("store_order.id").onDelete("cascade"))
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("product_id", "integer", (c) => c.notNull())
    .addColumn("availability_id", "integer", (c) => c.notNull())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("product_type", "text", (c) => c.notNull())
    .addColumn("format", "text", (c) => c.notNull())
    .addColumn("code", "text", (c) => c.notNull())
    .addColumn("line_type", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("quantity", "integer", (c) => c.notNull())
    .addColumn("unit_price_cents", "integer", (c) => c.notNull())
    .addColumn("line_total_cents", "integer", (c) => c.notNull())
    .addColumn("available_date", "text")
    .addPrimaryKeyConstraint("store_order_line_pk", ["order_id", "position"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ["store_order_line", "store_order", "cart_line", "cart"]) {
    await db.schema.dropTable(table).execute();
  }
}
