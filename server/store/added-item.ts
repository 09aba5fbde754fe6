import type { Database } from "../db/connection";
import { readCart, type CartLine } from "./cart";

/** What the add-to-cart confirmation shows of a line (the spec's Added-to-cart item). */
export interface AddedItem {
  line: CartLine;
  /** The product's major subject. */
  topic: string;
  publicationDate: string;
}

/** A line of this cart as just added; null for a line id the cart does not hold. */
export async function addedItem(db: Database, cartId: string, lineId: string): Promise<AddedItem | null> {
  const line = (await readCart(db, cartId)).lines.find((l) => l.id === lineId);
  if (!line) return null;
  const product = await db
    .selectFrom("product as p")
    .innerJoin("topic as t", "t.id", "p.topic_id")
    .select(["t.name as topic", "p.published"])
    .where("p.id", "=", line.productId)
    .executeTakeFirstOrThrow();
  return { line, topic: product.topic, publicationDate: product.published };
}
