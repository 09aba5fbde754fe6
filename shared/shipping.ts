import { isDomestic } from "./domestic";

export type ShippingMethodId = "standard" | "express" | "international";

export interface ShippingMethod {
  id: ShippingMethodId;
  name: string;
  delivery: string;
  /** Price for the first shipped unit and for each one after it (cents). */
  firstCents: number;
  additionalCents: number;
  /** Standard shipping is free from this physical subtotal on (cents); null: never free. */
  freeFromCents: number | null;
}

const METHODS: Record<ShippingMethodId, ShippingMethod> = {
  standard: {
    id: "standard",
    name: "Standard",
    delivery: "5 to 7 business days",
    firstCents: 595,
    additionalCents: 100,
    freeFromCents: 7500,
  },
  express: { id: "express", name: "Express", delivery: "2 business days", firstCents: 1495, additionalCents: 200, freeFromCents: null },
  international: {
    id: "international",
    name: "International",
    delivery: "7 to 14 business days",
    firstCents: 2495,
    additionalCents: 500,
    freeFromCents: null,
  },
};

/** The methods offered for a destination: standard and express in the US and Canada, else international. */
export function shippingMethodsFor(countryCode: string): ShippingMethod[] {
  return isDomestic(countryCode) ? [METHODS.standard, METHODS.express] : [METHODS.international];
}

export function findShippingMethod(countryCode: string, id: string): ShippingMethod | undefined {
  return shippingMethodsFor(countryCode).find((m) => m.id === id);
}

/** What shipping costs for the physical units of an order; nothing to ship costs nothing. */
export function shippingCents(method: ShippingMethod, physicalUnits: number, physicalSubtotalCents: number): number {
  if (physicalUnits <= 0) return 0;
  if (method.freeFromCents !== null && physicalSubtotalCents >= method.freeFromCents) return 0;
  return method.firstCents + method.additionalCents * (physicalUnits - 1);
}
