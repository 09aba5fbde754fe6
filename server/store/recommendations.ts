import { sql } from "kysely";
import type { Database } from "../db/connection";
import { productPath } from "../urls";

export interface Recommendation {
  productId: number;
  title: string;
  productType: string;
  format: string;
  priceCents: number;
  url: string;
}

/**
 * "You might also like": other products on sale now, those on the same topic first, newest
 * first within each group. Each is shown in its first format on sale.
 */
export async function recommendationsFor(db: Database, productId: number, limit = 4): Promise<Recommendation[]> {
  const product = await db.selectFrom("product").select("topic_id").where("id", "=", productId).executeTakeFirst();
  if (!product) return [];
  const rows = await db
    .selectFrom("product as p")
    .innerJoin("product_availability as a", "a.product_id", "p.id")
    .select(["p.id", "p.slug", "p.title", "p.product_type", "a.id as availability_id", "a.format", "a.list_price_cents"])
    .where("p.id", "!=", productId)
    .where("a.status", "=", "A")
    .where((eb) =>
      eb(
        "a.id",
        "=",
        eb
          .selectFrom("product_availability as b")
          .select((b) => b.fn.min<number>("b.id").as("first"))
          .whereRef("b.product_id", "=", "p.id")
          .where("b.status", "=", "A"),
      ),
    )
    .orderBy(sql`case when p.topic_id = ${product.topic_id} then 0 else 1 end`)
    .orderBy("p.published", "desc")
    .orderBy("p.id")
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    productId: r.id,
    title: r.title,
    productType: r.product_type,
    format: r.format,
    priceCents: r.list_price_cents,
    url: productPath({ slug: r.slug, availabilityId: r.availability_id }),
  }));
}
