import type { Database } from "~/server/db/connection";
import { readCart, type CartLine } from "./cart";

/** What the add-to-cart confirmation shows of a line (the spec's Added-to-cart item). */
export interface AddedItem {
  line: CartLine;
  /** The product's major subject. */
  topic: string;
  publicationDate: string;
}

/** Lines of this cart as just added, in the order asked; null if the cart does not hold every one of them. */
export async function addedItems(db: Database, cartId: string, lineIds: string[]): Promise<AddedItem[] | null> {
  const cart = await readCart(db, cartId);
  const lines = lineIds.flatMap((id) => cart.lines.filter((l) => l.id === id));
  if (lines.length === 0 || lines.length !== lineIds.length) return null;
  const productIds = lines.map((l) => l.productId);
  const products = await db
    .selectFrom("product as p")
    .innerJoin("topic as t", "t.id", "p.topic_id")
    .select(["p.id", "t.name as topic", "p.published"])
    .where("p.id", "in", productIds)
    .execute();
  const byId = new Map(products.map((p) => [p.id, p]));
  return lines.map((line) => {
    const product = byId.get(line.productId)!;
    return { line, topic: product.topic, publicationDate: product.published };
  });
}
