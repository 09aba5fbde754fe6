import type { Kysely } from "kysely";

// What a store product's download is made of: a book's or case study's sections (preface,
// chapters), and the articles a magazine issue or reprint holds, in order.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("product_section")
    .addColumn("product_id", "integer", (c) => c.notNull().references("product.id").onDelete("cascade"))
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("body", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("product_section_pk", ["product_id", "position"])
    .execute();
  await db.schema
    .createTable("product_article")
    .addColumn("product_id", "integer", (c) => c.notNull().references("product.id").onDelete("cascade"))
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("article_id", "integer", (c) => c.notNull().references("article.id").onDelete("cascade"))
    .addPrimaryKeyConstraint("product_article_pk", ["product_id", "position"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("product_article").execute();
  await db.schema.dropTable("product_section").execute();
}
