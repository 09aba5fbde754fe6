import type { Kysely } from "kysely";

// "Better together": the products an editor pairs with a product, in the order its page shows them.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("product_companion")
    .addColumn("product_id", "integer", (c) => c.notNull().references("product.id").onDelete("cascade"))
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("companion_id", "integer", (c) => c.notNull().references("product.id").onDelete("cascade"))
    .addPrimaryKeyConstraint("product_companion_pk", ["product_id", "position"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("product_companion").execute();
}
