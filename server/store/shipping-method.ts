import type { Database } from "~/server/db/connection";
import type { Address } from "~/shared/address";
import { findShippingMethod, type ShippingMethod } from "~/shared/shipping";
import type { Cart } from "./cart";
import { needsShipping, readDraft, savedAddresses, saveDraft, type CheckoutDraft } from "./checkout";
import { shippingChoices, shippingPrice } from "./pricing";

// The shipping method of the checkout in progress, chosen on its own (the service API's
// commerce/order/shipping-method call), with the rule the shipping page applies: a method is
// one offered for the destination's country (shared/shipping.ts).

/**
 * Where the checkout ships to: the reader's saved address it names, or the address as typed
 * (the United States until a country is chosen, as the shipping page shows it). null: the saved
 * address named is not this shopper's.
 */
export async function draftDestination(db: Database, userId: string | null, draft: CheckoutDraft): Promise<Address | null> {
  if (!draft.addressId) return { ...draft.address, countryCode: draft.address.countryCode || "US" };
  const saved = userId ? await savedAddresses(db, userId) : [];
  return saved.find((a) => a.id === draft.addressId) ?? null;
}

/** The methods offered for where the checkout ships to, each with its price for this cart; none when nothing ships. */
export async function offeredShipping(
  db: Database,
  input: { cartId: string | null; cart: Cart; userId: string | null },
): Promise<ReturnType<typeof shippingChoices>> {
  if (!input.cartId || !needsShipping(input.cart)) return [];
  const destination = await draftDestination(db, input.userId, await readDraft(db, input.cartId));
  return destination ? shippingChoices(input.cart, destination.countryCode) : [];
}

export type ShippingMethodOutcome =
  | { kind: "empty-cart" }
  /** Everything in the cart is digital: there is no method to choose. */
  | { kind: "nothing-to-ship" }
  /** The checkout names a saved address that is not this shopper's: no destination to ship to. */
  | { kind: "no-destination" }
  /** Not a method offered for the destination. */
  | { kind: "not-offered"; countryCode: string }
  | { kind: "chosen"; method: ShippingMethod; priceCents: number };

/**
 * Keeps the chosen method with the checkout draft when it is offered for the destination. The
 * rest of the draft is left as it was, confirmed or not: the review and placing the order check
 * the method against the destination again.
 */
export async function chooseShippingMethod(
  db: Database,
  input: { cartId: string | null; cart: Cart; userId: string | null; methodId: string },
  now = new Date(),
): Promise<ShippingMethodOutcome> {
  const { cartId, cart } = input;
  if (!cartId || cart.lines.length === 0) return { kind: "empty-cart" };
  if (!needsShipping(cart)) return { kind: "nothing-to-ship" };
  const draft = await readDraft(db, cartId);
  const destination = await draftDestination(db, input.userId, draft);
  if (!destination) return { kind: "no-destination" };
  const method = findShippingMethod(destination.countryCode, input.methodId.trim());
  if (!method) return { kind: "not-offered", countryCode: destination.countryCode };
  await saveDraft(db, cartId, { ...draft, shippingMethod: method.id }, now);
  return { kind: "chosen", method, priceCents: shippingPrice(cart, method) };
}
