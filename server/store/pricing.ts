// Every figure of an order's money, computed here alone: the cart page's estimate, the shipping
// page's prices, and the totals the review shows and the order keeps.
import type { Cart } from "./cart";
import { shippingCents, shippingMethodsFor, type ShippingMethod } from "~/shared/shipping";
import { taxCents } from "./tax";

/** Where the shopper expects to ship to, as the cart's estimate form asks for it. */
export interface Destination {
  country: string;
  /** State or province; null outside the US and Canada. */
  region: string | null;
  postalCode: string;
}

export interface Estimate {
  taxCents: number;
  /** The cheapest method offered for the destination; null when nothing in the cart ships. */
  shipping: { name: string; cents: number } | null;
  grandTotalCents: number;
}

export interface Totals {
  subtotalCents: number;
  discountCents: number;
  taxCents: number;
  shippingCents: number;
  totalCents: number;
}

const physicalUnits = (cart: Cart) => cart.physical.reduce((n, l) => n + l.quantity, 0);

/** What shipping the cart by a method costs (its physical lines alone count). */
export function shippingPrice(cart: Cart, method: ShippingMethod): number {
  return shippingCents(
    method,
    physicalUnits(cart),
    cart.physical.reduce((n, l) => n + l.lineTotalCents, 0),
  );
}

/** The shipping methods to offer for a country, each with what it would cost for this cart. */
export function shippingChoices(cart: Cart, countryCode: string): { method: ShippingMethod; priceCents: number }[] {
  return shippingMethodsFor(countryCode || "US").map((method) => ({ method, priceCents: shippingPrice(cart, method) }));
}

/**
 * An order's money: the cart's subtotal, less the discount; tax on the discounted amount at
 * the destination's rate; shipping for the physical units only (none for a digital-only order).
 */
export function orderTotals(
  cart: Cart,
  input: { country: string; region: string | null; method: ShippingMethod | null; discountCents: number },
): Totals {
  const discountCents = Math.min(cart.subtotalCents, Math.max(0, input.discountCents));
  const shipping = input.method ? shippingPrice(cart, input.method) : 0;
  const tax = taxCents(cart.subtotalCents - discountCents, input.country, input.region);
  return {
    subtotalCents: cart.subtotalCents,
    discountCents,
    taxCents: tax,
    shippingCents: shipping,
    totalCents: cart.subtotalCents - discountCents + tax + shipping,
  };
}

/** Estimated tax on the cart's subtotal and the cheapest shipping to a destination: an order's totals without a promo code. */
export function estimateCharges(cart: Cart, destination: Destination): Estimate {
  const cheapest =
    physicalUnits(cart) > 0 ? shippingChoices(cart, destination.country).sort((a, b) => a.priceCents - b.priceCents)[0]!.method : null;
  const totals = orderTotals(cart, { country: destination.country, region: destination.region, method: cheapest, discountCents: 0 });
  return {
    taxCents: totals.taxCents,
    shipping: cheapest && { name: cheapest.name, cents: totals.shippingCents },
    grandTotalCents: totals.totalCents,
  };
}
