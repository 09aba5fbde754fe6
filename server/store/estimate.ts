import type { Cart } from "./cart";
import { shippingCents, shippingMethodsFor } from "~/shared/shipping";
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

/** Estimated tax on the cart's subtotal and the cheapest shipping to a destination. */
export function estimateCharges(cart: Cart, destination: Destination): Estimate {
  const units = cart.physical.reduce((n, l) => n + l.quantity, 0);
  const physicalSubtotal = cart.physical.reduce((n, l) => n + l.lineTotalCents, 0);
  const cheapest =
    units > 0
      ? shippingMethodsFor(destination.country)
          .map((method) => ({ name: method.name, cents: shippingCents(method, units, physicalSubtotal) }))
          .sort((a, b) => a.cents - b.cents)[0]!
      : null;
  const tax = taxCents(cart.subtotalCents, destination.country, destination.region);
  return { taxCents: tax, shipping: cheapest, grandTotalCents: cart.subtotalCents + tax + (cheapest?.cents ?? 0) };
}
