import { addedItems } from "~/server/store/added-item";
import { recommendationsFor } from "~/server/store/catalogue";
import { db } from "~/app/lib/context/db.server";

/** How many products "You might also like" shows. */
const RECOMMENDATIONS = 4;

/** The add-to-cart confirmation for lines of this cart, in order (null: not all of them this cart's). */
export async function addedConfirmation(cartId: string, lineIds: string[]) {
  const database = await db();
  const added = await addedItems(database, cartId, lineIds);
  if (!added) return null;
  const productIds = new Set(added.map(({ line }) => line.productId));
  // Recommended after the first item added, leaving out every product just added.
  const recommendations = (await recommendationsFor(database, added[0]!.line.productId, RECOMMENDATIONS + productIds.size))
    .filter((r) => !productIds.has(r.id))
    .slice(0, RECOMMENDATIONS);
  return {
    items: added.map(({ line, topic, publicationDate }) => ({
      lineId: line.id,
      productId: line.productId,
      availabilityId: line.availabilityId,
      title: line.title,
      url: line.url,
      topic,
      productType: line.productType,
      publicationDate,
      format: line.format,
      type: line.type,
      quantity: line.quantity,
      unitPriceCents: line.unitPriceCents,
      listPriceCents: line.listPriceCents,
      percentOff: line.percentOff,
      comingSoon: line.comingSoon,
      availableDate: line.availableDate,
    })),
    recommendations,
  };
}

export type AddedConfirmation = NonNullable<Awaited<ReturnType<typeof addedConfirmation>>>;
