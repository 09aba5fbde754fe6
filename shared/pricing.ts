import type { CartLineKind } from "./product-types";

/** Copyright permissions are priced per copy, for less from `from` copies on (cents). */
export const PERMISSION_TIERS = [
  { from: 500, unitCents: 100 },
  { from: 100, unitCents: 125 },
  { from: 1, unitCents: 150 },
] as const;

export function permissionUnitCents(copies: number): number {
  return (PERMISSION_TIERS.find((t) => copies >= t.from) ?? PERMISSION_TIERS[2]).unitCents;
}

/** What one copy's permission costs. */
export const PERMISSION_PRICE_CENTS = permissionUnitCents(1);

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
    const unitPriceCents = permissionUnitCents(input.quantity);
    return { unitPriceCents, percentOff: 0, lineTotalCents: unitPriceCents * input.quantity };
  }
  const percentOff = volumePercentOff(input.quantity, input.volumePricing);
  const unitPriceCents = Math.round((input.listPriceCents * (100 - percentOff)) / 100);
  return { unitPriceCents, percentOff, lineTotalCents: unitPriceCents * input.quantity };
}
