import type { CartLineKind } from "./product-types";

/** A copyright permission costs this much per copy (cents). */
export const PERMISSION_PRICE_CENTS = 150;

/** Volume pricing, where a product offers it: percent off the list price from a quantity on. */
export const VOLUME_TIERS = [
  { from: 50, percentOff: 20 },
  { from: 10, percentOff: 10 },
] as const;

export function volumePercentOff(quantity: number, volumePricing: boolean): number {
  if (!volumePricing) return 0;
  return VOLUME_TIERS.find((t) => quantity >= t.from)?.percentOff ?? 0;
}

/** Unit and line price in whole cents; the discounted unit price is rounded half up. */
export function linePrice(input: { kind: CartLineKind; listPriceCents: number; quantity: number; volumePricing: boolean }) {
  if (input.kind === "perm") {
    return { unitPriceCents: PERMISSION_PRICE_CENTS, percentOff: 0, lineTotalCents: PERMISSION_PRICE_CENTS * input.quantity };
  }
  const percentOff = volumePercentOff(input.quantity, input.volumePricing);
  const unitPriceCents = Math.round((input.listPriceCents * (100 - percentOff)) / 100);
  return { unitPriceCents, percentOff, lineTotalCents: unitPriceCents * input.quantity };
}
