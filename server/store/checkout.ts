import crypto from "node:crypto";
import type { Database } from "~/server/db/connection";
import { ADDRESS_MAX, addressProblems, normalizeAddress, type Address, type AddressField } from "~/shared/address";
import type { Cart } from "./cart";
import { evaluatePromo, normalizePromoCode, type PromoOutcome } from "./promo";
import { findShippingMethod, type ShippingMethod } from "~/shared/shipping";
import { orderTotals, type Totals } from "./pricing";

/** What the shopper entered on /shipping-payment, kept with their cart. */
export interface CheckoutDraft {
  email: string;
  /** A reader's saved address chosen instead of a new one. */
  addressId: string | null;
  /** The new address as typed (also what a saved address was copied into). */
  address: Address;
  saveAddress: boolean;
  shippingMethod: string;
  promoCode: string;
  /** The shopper pressed Continue and the draft passed validation. */
  confirmed: boolean;
}

export const EMPTY_DRAFT: CheckoutDraft = {
  email: "",
  addressId: null,
  address: normalizeAddress({ countryCode: "US" }),
  saveAddress: false,
  shippingMethod: "",
  promoCode: "",
  confirmed: false,
};

export const MAX_EMAIL_LENGTH = 254;

export async function readDraft(db: Database, cartId: string): Promise<CheckoutDraft> {
  const row = await db.selectFrom("checkout_draft").selectAll().where("cart_id", "=", cartId).executeTakeFirst();
  if (!row) return EMPTY_DRAFT;
  return {
    email: row.email ?? "",
    addressId: row.address_id,
    address: normalizeAddress({
      firstName: row.first_name,
      lastName: row.last_name,
      address1: row.address1,
      address2: row.address2,
      city: row.city,
      state: row.state,
      postalCode: row.postal_code,
      countryCode: row.country_code,
    }),
    saveAddress: row.save_address === 1,
    shippingMethod: row.shipping_method ?? "",
    promoCode: row.promo_code ?? "",
    confirmed: row.confirmed_at !== null,
  };
}

const cap = (value: string, max: number) => value.slice(0, max);

/** Stores the draft as typed (every value capped); `confirmed` only when it passed validation. */
export async function saveDraft(db: Database, cartId: string, draft: CheckoutDraft, now = new Date()): Promise<void> {
  const a = draft.address;
  const field = (name: AddressField) => cap(a[name], ADDRESS_MAX[name] * 2) || null;
  const values = {
    email: cap(draft.email, MAX_EMAIL_LENGTH * 2) || null,
    address_id: draft.addressId ? cap(draft.addressId, 64) : null,
    first_name: field("firstName"),
    last_name: field("lastName"),
    address1: field("address1"),
    address2: field("address2"),
    city: field("city"),
    state: field("state"),
    postal_code: field("postalCode"),
    country_code: field("countryCode"),
    save_address: draft.saveAddress ? (1 as const) : (0 as const),
    shipping_method: cap(draft.shippingMethod, 40) || null,
    promo_code: normalizePromoCode(draft.promoCode) || null,
    confirmed_at: draft.confirmed ? now.toISOString() : null,
    updated_at: now.toISOString(),
  };
  await db
    .insertInto("checkout_draft")
    .values({ cart_id: cartId, ...values })
    .onConflict((oc) => oc.column("cart_id").doUpdateSet(values))
    .execute();
}

/** A reader's saved addresses, newest first. */
export async function savedAddresses(db: Database, userId: string): Promise<Address[]> {
  const rows = await db
    .selectFrom("saved_address")
    .selectAll()
    .where("user_id", "=", userId)
    .orderBy("created_at", "desc")
    .orderBy("id")
    .execute();
  return rows.map((r) => ({
    id: r.id,
    firstName: r.first_name,
    lastName: r.last_name,
    address1: r.address1,
    address2: r.address2 ?? "",
    city: r.city,
    state: r.state ?? "",
    postalCode: r.postal_code,
    countryCode: r.country_code,
  }));
}

/** The most addresses a reader keeps; past it a new address serves its order but is not saved. */
export const MAX_SAVED_ADDRESSES = 20;

/** Saves a valid address for a reader (an identical one is reused). Returns its id, or null at the cap. */
export async function saveAddress(db: Database, userId: string, address: Address, now = new Date()): Promise<string | null> {
  const saved = await savedAddresses(db, userId);
  const existing = saved.find((s) => sameAddress(s, address));
  if (existing) return existing.id!;
  if (saved.length >= MAX_SAVED_ADDRESSES) return null;
  const id = crypto.randomUUID();
  await db
    .insertInto("saved_address")
    .values({ id, user_id: userId, ...addressColumns(address), created_at: now.toISOString() })
    .execute();
  return id;
}

/** A valid address as a saved address's columns (an empty optional line is null). */
function addressColumns(a: Address) {
  return {
    first_name: a.firstName,
    last_name: a.lastName,
    address1: a.address1,
    address2: a.address2 || null,
    city: a.city,
    state: a.state || null,
    postal_code: a.postalCode,
    country_code: a.countryCode,
  };
}

type ShipToColumns = { [K in keyof ReturnType<typeof addressColumns> as `ship_${K}`]: ReturnType<typeof addressColumns>[K] };

/** The same columns as an order keeps its delivery address in (ship_first_name, …). */
export function shipToColumns(a: Address): ShipToColumns {
  return Object.fromEntries(Object.entries(addressColumns(a)).map(([column, value]) => [`ship_${column}`, value])) as ShipToColumns;
}

const sameAddress = (a: Address, b: Address) =>
  (["firstName", "lastName", "address1", "address2", "city", "state", "postalCode", "countryCode"] as const).every(
    (f) => a[f].toLowerCase() === b[f].toLowerCase(),
  );

/** Shipping is chosen only when something in the cart ships. */
export const needsShipping = (cart: Cart) => cart.physical.length > 0;

export interface Review {
  email: string;
  address: Address;
  method: ShippingMethod | null;
  /** null: no promo code entered. */
  promo: PromoOutcome | null;
  cart: Cart;
  totals: Totals;
}

export type ReviewOutcome = { ok: true; review: Review } | { ok: false; problem: "empty" | "incomplete" };

/**
 * Everything the review page shows and an order is made from, computed from the cart as it is
 * now and the confirmed draft. "incomplete": the shopper has to go back to /shipping-payment.
 */
export async function buildReview(
  db: Database,
  input: { cart: Cart; draft: CheckoutDraft; userId: string | null; accountEmail: string | null },
  now = new Date(),
): Promise<ReviewOutcome> {
  const { cart, draft } = input;
  if (cart.lines.length === 0) return { ok: false, problem: "empty" };
  if (!draft.confirmed) return { ok: false, problem: "incomplete" };
  const email = input.accountEmail ?? draft.email;
  let address = draft.address;
  if (draft.addressId) {
    const saved = input.userId ? (await savedAddresses(db, input.userId)).find((a) => a.id === draft.addressId) : undefined;
    if (!saved) return { ok: false, problem: "incomplete" };
    address = saved;
  }
  if (!email || Object.keys(addressProblems(address)).length > 0) return { ok: false, problem: "incomplete" };
  let method: ShippingMethod | null = null;
  if (needsShipping(cart)) {
    method = findShippingMethod(address.countryCode, draft.shippingMethod) ?? null;
    if (!method) return { ok: false, problem: "incomplete" };
  }
  const promo = draft.promoCode ? await evaluatePromo(db, draft.promoCode, cart.lines, now, { userId: input.userId, email }) : null;
  const discountCents = promo?.status === "valid" ? promo.discountCents : 0;
  return {
    ok: true,
    review: {
      email,
      address,
      method,
      promo,
      cart,
      totals: orderTotals(cart, { country: address.countryCode, region: address.state || null, method, discountCents }),
    },
  };
}

/** What the shopper sent from /shipping-payment. */
export interface ShippingPaymentSubmission {
  cartId: string | null;
  cart: Cart;
  userId: string | null;
  /** "continue" confirms the details; "country" and "promo" only keep what was typed, to redraw the form. */
  intent: "continue" | "country" | "promo";
  /** The draft as typed (`confirmed` is ignored: it is set here once the details pass). */
  draft: CheckoutDraft;
  /** The form passed its own field checks. */
  formValid: boolean;
}

export type ShippingPaymentOutcome =
  | { kind: "redirect"; to: string }
  /** The form's own field checks failed. */
  | { kind: "invalid-form" }
  /** The chosen saved address is not one of this reader's. */
  | { kind: "unknown-address" }
  | { kind: "no-shipping-method" }
  | { kind: "promo-refused"; message: string };

/**
 * Keeps the shipping and payment details with the cart. Continue checks them (a saved address
 * of this reader's, a shipping method offered for the destination, a promo code that applies
 * now), saves a new address if the reader asked, confirms the draft and sends the shopper on to
 * the review; the country and promo buttons keep what was typed and redraw the form.
 */
export async function submitShippingPayment(
  db: Database,
  input: ShippingPaymentSubmission,
  now = new Date(),
): Promise<ShippingPaymentOutcome> {
  const { cartId, cart, userId } = input;
  if (!cartId || cart.lines.length === 0) return { kind: "redirect", to: "/shipping-payment" };
  if (input.intent !== "continue") {
    await saveDraft(db, cartId, { ...input.draft, confirmed: false }, now);
    return { kind: "redirect", to: `/shipping-payment#${input.intent === "promo" ? "promoCode" : "address"}` };
  }
  if (!input.formValid) return { kind: "invalid-form" };

  const draft = { ...input.draft, confirmed: true };
  const saved = userId ? await savedAddresses(db, userId) : [];
  const address = draft.addressId ? saved.find((a) => a.id === draft.addressId) : draft.address;
  if (!address) return { kind: "unknown-address" };
  if (needsShipping(cart) && !findShippingMethod(address.countryCode, draft.shippingMethod)) return { kind: "no-shipping-method" };
  if (draft.promoCode) {
    const promo = await evaluatePromo(db, draft.promoCode, cart.lines, now, { userId, email: draft.email || null });
    if (promo.status !== "valid") return { kind: "promo-refused", message: promo.message };
  }
  if (userId && !draft.addressId && draft.saveAddress) {
    const id = await saveAddress(db, userId, draft.address, now);
    if (id) draft.addressId = id;
  }
  // A reader's order uses their account's e-mail address, so none is kept in their draft.
  await saveDraft(db, cartId, { ...draft, email: userId ? "" : draft.email }, now);
  return { kind: "redirect", to: "/review-order" };
}

export type PromoApplyOutcome =
  | { kind: "empty-cart" }
  /** The code was removed (an empty code). */
  | { kind: "removed" }
  | { kind: "applied"; promo: Extract<PromoOutcome, { status: "valid" }> }
  /** Not applied; the draft keeps the code it had. */
  | { kind: "refused"; promo: Exclude<PromoOutcome, { status: "valid" }> };

/**
 * Applies a promo code to the checkout on its own (the service API's promo-code call): checked
 * against the cart now as the shipping page's Apply and Continue check it, and kept with the
 * draft when it applies. The rest of the draft is left as it was, confirmed or not (placing the
 * order checks the code again).
 */
export async function applyPromoCode(
  db: Database,
  input: { cartId: string | null; cart: Cart; code: string },
  now = new Date(),
): Promise<PromoApplyOutcome> {
  const { cartId, cart } = input;
  if (!cartId || cart.lines.length === 0) return { kind: "empty-cart" };
  const draft = await readDraft(db, cartId);
  if (!normalizePromoCode(input.code)) {
    await saveDraft(db, cartId, { ...draft, promoCode: "" }, now);
    return { kind: "removed" };
  }
  const promo = await evaluatePromo(db, input.code, cart.lines, now);
  if (promo.status !== "valid") return { kind: "refused", promo };
  await saveDraft(db, cartId, { ...draft, promoCode: input.code }, now);
  return { kind: "applied", promo };
}
