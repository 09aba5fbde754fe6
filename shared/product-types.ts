/** An order line's type, as stored in the database. */
export type LineType = "SHIP" | "EBOOK" | "BUNDLE" | "DIGITAL";

/** A cart line holds an item or a copyright permission for one. */
export type CartLineKind = "item" | "perm";

/**
 * The spec's product-type codes: KND is an ebook, BUN a bundle; PDF, HTM, ZIP, PPT, XLS and
 * EPB are digital; anything else ships.
 */
const DIGITAL_CODES = new Set(["KND", "PDF", "HTM", "ZIP", "PPT", "XLS", "EPB"]);

export type Delivery = "ship" | "digital";

export function deliveryOf(code: string): Delivery {
  return DIGITAL_CODES.has(code) ? "digital" : "ship";
}

export const isDigitalCode = (code: string) => deliveryOf(code) === "digital";

/** Downloadable-file details are hidden for SHIP and BUNDLE lines (spec section 9). */
export const showsDownloadInfo = (lineType: LineType) => lineType !== "SHIP" && lineType !== "BUNDLE";

/** A cart line's type, and the cart add item's: "Perm" for copyright permissions, else how the item is delivered. */
export type CartLineType = "Perm" | "Ship" | "Digital";

/** The cart's line type of an item sold this way. */
export function cartLineType(kind: CartLineKind, code: string): CartLineType {
  if (kind === "perm") return "Perm";
  return isDigitalCode(code) ? "Digital" : "Ship";
}

/** Books and magazine issues are collections: their downloads and pages list chapters or articles. */
export const isCollection = (productType: string) => productType === "Book" || productType === "Magazine Issue";

/**
 * The availability a bare product link stands for: the first on sale, else the first coming soon,
 * else (every one retired) the first.
 */
export function leadAvailability<A extends { comingSoon: boolean; retired?: boolean }>(availabilities: A[]): A | undefined {
  return availabilities.find((a) => !a.comingSoon && !a.retired) ?? availabilities.find((a) => !a.retired) ?? availabilities[0];
}
