import { sql, type Kysely } from "kysely";

// The store's catalogue and offers at the desk (issue 39, ADR 091).
// - Products and their availabilities count their saves (`version`, which an edit names) and say
//   who saved them last, as authors do (migration 038). A product may have an uploaded cover
//   (ADR 077) in place of its drawn one, and a digital availability an uploaded download file
//   (a media file, ADR 083) in place of the one made from its texts. An availability's status
//   gains "R", retired: no longer sold, its page says so, orders of it keep their downloads.
// - `price_change`: an availability's price from a moment on. The price in force at a moment is
//   the latest change that started by then, else the availability's list price.
// - Promo codes and vouchers gain limits (uses in all, uses per reader, dates, products) and can
//   be disabled. Each use is a row (`promo_use`, `voucher_use`): the order it went to, who, when,
//   and when it was given back (a cancelled or wholly refunded order). Uses are taken in the
//   order's own transaction after the code's row is locked, so two shoppers racing for the last
//   use cannot both have it. Vouchers' own redeemed_* columns are left as they were and no longer
//   read: their uses moved into voucher_use.
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  const versioned = async (table: string) => {
    await s
      .alterTable(table)
      .addColumn("version", "integer", (c) => c.notNull().defaultTo(1))
      .execute();
    await s.alterTable(table).addColumn("updated_at", "text").execute();
    await s.alterTable(table).addColumn("updated_by_name", "text").execute();
  };

  await versioned("product");
  await s
    .alterTable("product")
    .addColumn("cover_image_id", "text", (c) => c.references("image.id").onDelete("set null"))
    .execute();
  await versioned("product_availability");
  await s
    .alterTable("product_availability")
    .addColumn("download_file_id", "text", (c) => c.references("media_file.id").onDelete("set null"))
    .execute();

  await s
    .createTable("price_change")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("availability_id", "integer", (c) => c.notNull().references("product_availability.id").onDelete("cascade"))
    .addColumn("price_cents", "integer", (c) => c.notNull().check(sql`price_cents >= 0`))
    .addColumn("starts_at", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("created_by", "text", (c) => c.notNull())
    .execute();
  await s.createIndex("price_change_availability_idx").on("price_change").columns(["availability_id", "starts_at"]).execute();

  await versioned("promo_code");
  await s.alterTable("promo_code").addColumn("max_uses", "integer").execute();
  await s.alterTable("promo_code").addColumn("max_uses_per_reader", "integer").execute();
  await s.alterTable("promo_code").addColumn("disabled_at", "text").execute();
  await s
    .createTable("promo_code_product")
    .addColumn("code", "text", (c) => c.notNull().references("promo_code.code").onDelete("cascade"))
    .addColumn("product_id", "integer", (c) => c.notNull().references("product.id").onDelete("cascade"))
    .addPrimaryKeyConstraint("promo_code_product_pk", ["code", "product_id"])
    .execute();

  await versioned("voucher");
  await s
    .alterTable("voucher")
    .addColumn("max_uses", "integer", (c) => c.notNull().defaultTo(1))
    .execute();
  await s.alterTable("voucher").addColumn("max_uses_per_reader", "integer").execute();
  await s.alterTable("voucher").addColumn("starts_at", "text").execute();
  await s.alterTable("voucher").addColumn("ends_at", "text").execute();
  await s.alterTable("voucher").addColumn("disabled_at", "text").execute();

  // One row per order that used a code; `email` is the buyer's, lowercased (a guest's uses count
  // against their address); released_at: the use was given back.
  for (const [table, code] of [
    ["promo_use", "promo_code.code"],
    ["voucher_use", "voucher.code"],
  ] as const) {
    await s
      .createTable(table)
      .addColumn("order_id", "text", (c) => c.primaryKey().references("store_order.id").onDelete("cascade"))
      .addColumn("code", "text", (c) => c.notNull().references(code))
      .addColumn("user_id", "text", (c) => c.references("app_user.id").onDelete("set null"))
      .addColumn("email", "text", (c) => c.notNull())
      .addColumn("used_at", "text", (c) => c.notNull())
      .addColumn("released_at", "text")
      .execute();
    await s.createIndex(`${table}_code_idx`).on(table).columns(["code", "used_at"]).execute();
  }

  // The uses orders made before: a promo code's, on an order still standing (a cancelled order, or
  // one refunded in full, gave its use back); a voucher's, where it was redeemed.
  await sql`
    insert into promo_use (order_id, code, user_id, email, used_at, released_at)
    select o.id, o.promo_code, o.user_id, lower(o.email), o.created_at,
      case when o.status = 'cancelled' then coalesce(o.cancelled_at, o.created_at)
           when o.refunded_cents > 0 and o.refunded_cents >= o.total_cents then o.created_at
           else null end
    from store_order o
    where o.promo_code is not null and o.promo_code in (select code from promo_code)`.execute(db);
  await sql`
    insert into voucher_use (order_id, code, user_id, email, used_at, released_at)
    select v.order_id, v.code, v.redeemed_by, lower(o.email), v.redeemed_at, null
    from voucher v join store_order o on o.id = v.order_id
    where v.redeemed_at is not null`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error("Catalogue migrations are not reversible; restore from a backup instead.");
}
