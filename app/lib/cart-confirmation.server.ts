import { addedItem } from "../../server/store/added-item";
import { recommendationsFor } from "../../server/store/catalogue";
import { db } from "./db.server";

/** How many products "You might also like" shows. */
const RECOMMENDATIONS = 4;

/** The add-to-cart confirmation for a line of this cart (null: not this cart's line). */
export async function addedConfirmation(cartId: string, lineId: string) {
  const database = await db();
  const added = await addedItem(database, cartId, lineId);
  if (!added) return null;
  const { line } = added;
  return {
    item: {
      lineId: line.id,
      productId: line.productId,
      availabilityId: line.availabilityId,
      title: line.title,
      url: line.url,
      topic: added.topic,
      productType: line.productType,
      publicationDate: added.publicationDate,
      format: line.format,
      type: line.type,
      quantity: line.quantity,
      unitPriceCents: line.unitPriceCents,
      listPriceCents: line.listPriceCents,
      percentOff: line.percentOff,
      comingSoon: line.comingSoon,
      availableDate: line.availableDate,
    },
    recommendations: await recommendationsFor(database, line.productId, RECOMMENDATIONS),
  };
}

export type AddedConfirmation = NonNullable<Awaited<ReturnType<typeof addedConfirmation>>>;
