import { z } from "zod";
import { isCountry, isRegionOf, regionsOf } from "~/shared/regions";
import type { CartLineType } from "~/shared/product-types";
import { MAX_PERM_QUANTITY, MAX_SHIP_QUANTITY } from "~/shared/quantity-limits";
import { REQUIRED } from "~/app/lib/forms/messages";

// The cart's forms: add to cart (product pages), the quantity stepper and the estimate.

export const VALID_NUMBER = "Please enter a valid number.";
/** The spec's over-max wording: the limit named is the first value refused. */
export const overMax = (limit: number) => `Please enter a value that is less than ${limit + 1}`;
export const DIGITAL_LIMIT = "A digital item is sold one to an order, so its quantity cannot be more than 1.";
export const INVALID_VALUE = "Please enter a valid value into this field.";
export const INVALID_CHOICE = "Please select a valid value";
/** A cart add item whose type is not how its format is delivered (a bundle posted as Digital). */
export const wrongType = (type: CartLineType) =>
  type === "Ship" ? "This format ships to you: add it with type Ship." : "This format is digital: add it with type Digital.";

export const CART_TYPES = ["Ship", "Digital", "Perm"] as const satisfies readonly CartLineType[];
export type CartAddType = (typeof CART_TYPES)[number];

/** The most a shopper may ask for on a line of each type. */
export const quantityLimit = (type: CartAddType) => (type === "Perm" ? MAX_PERM_QUANTITY : type === "Digital" ? 1 : MAX_SHIP_QUANTITY);

/** Whole numbers only; anything else (letters, decimals, signs) is not a number here. */
function wholeNumber(text: string | undefined): number | null {
  const trimmed = text?.trim() ?? "";
  return /^\d{1,9}$/.test(trimmed) ? Number(trimmed) : null;
}

/** Spec: the referral is numeric; anything else is dropped rather than refusing the add. */
const numericReferral = (referral: string | undefined) => (referral && /^\d{1,10}$/.test(referral) ? referral : null);

/**
 * The spec's Cart add item. `productPrice` is posted too, for display only: it is not in the
 * schema, so it never reaches the server's pricing (which reads the catalogue).
 */
export const addToCartSchema = z
  .object({
    productId: z.string({ required_error: REQUIRED }),
    type: z.enum(CART_TYPES, { errorMap: () => ({ message: INVALID_CHOICE }) }),
    quantity: z.string().optional(),
    productUrl: z.string().max(2048).optional(),
    format: z.string().max(100).optional(),
    referral: z.string().optional(),
  })
  .superRefine((value, ctx) => {
    if (wholeNumber(value.productId) === null)
      ctx.addIssue({ code: "custom", path: ["productId"], message: "This item is not in our catalogue." });
    if (value.type === "Digital") {
      if (value.quantity !== undefined && wholeNumber(value.quantity) !== 1)
        ctx.addIssue({ code: "custom", path: ["quantity"], message: DIGITAL_LIMIT });
      return;
    }
    const quantity = wholeNumber(value.quantity);
    const limit = quantityLimit(value.type);
    if (quantity === null || quantity < 1) ctx.addIssue({ code: "custom", path: ["quantity"], message: VALID_NUMBER });
    else if (quantity > limit) ctx.addIssue({ code: "custom", path: ["quantity"], message: overMax(limit) });
  })
  .transform((value) => ({
    availabilityId: Number(value.productId),
    type: value.type,
    quantity: value.type === "Digital" ? 1 : Number(value.quantity),
    referral: numericReferral(value.referral),
    productUrl: value.productUrl ?? null,
  }));

/** The most items one post adds ("Better together"), and one confirmation shows. */
export const MAX_ADD_ITEMS = 10;
export const NOTHING_CHECKED = "Choose at least one item to add.";

/**
 * "Better together": the checked items (each box posts its availability id as `productId`),
 * each added once, as the catalogue sells it. Read from the form's repeated values, not through
 * conform: there is nothing to check in the browser but the boxes themselves.
 */
export const addSelectedSchema = z
  .object({
    productIds: z
      .array(z.string().regex(/^\d{1,9}$/, "This item is not in our catalogue."), { invalid_type_error: NOTHING_CHECKED })
      .min(1, NOTHING_CHECKED)
      .max(MAX_ADD_ITEMS, `Choose at most ${MAX_ADD_ITEMS} items to add at once.`),
    referral: z.string().optional(),
  })
  .transform((value) => ({
    availabilityIds: [...new Set(value.productIds.map(Number))],
    referral: numericReferral(value.referral),
  }));

/** The stepper and the quantity box: 0 removes the line. */
export const updateQuantitySchema = z.object({
  lineId: z.string(),
  quantity: z.string({ required_error: VALID_NUMBER }).transform((text, ctx) => {
    const n = wholeNumber(text);
    if (n === null) {
      ctx.addIssue({ code: "custom", message: VALID_NUMBER });
      return z.NEVER;
    }
    return n;
  }),
});

/** US ZIP (5 or 9 digits), Canadian postal code, or a short code elsewhere. */
function validPostalCode(country: string, code: string): boolean {
  if (country === "US") return /^\d{5}(-\d{4})?$/.test(code);
  if (country === "CA") return /^[A-Za-z]\d[A-Za-z] ?\d[A-Za-z]\d$/.test(code);
  return /^[A-Za-z0-9][A-Za-z0-9 -]{1,11}$/.test(code);
}

export const estimateSchema = z
  .object({
    country: z.string({ required_error: REQUIRED }).refine(isCountry, INVALID_CHOICE),
    region: z.string().optional(),
    postalCode: z.string({ required_error: REQUIRED }).trim().min(1, REQUIRED).max(12, INVALID_VALUE),
  })
  .superRefine((value, ctx) => {
    const asksRegion = regionsOf(value.country).length > 0;
    if (asksRegion && !value.region) ctx.addIssue({ code: "custom", path: ["region"], message: REQUIRED });
    else if (asksRegion && !isRegionOf(value.country, value.region!))
      ctx.addIssue({ code: "custom", path: ["region"], message: INVALID_CHOICE });
    if (!validPostalCode(value.country, value.postalCode)) ctx.addIssue({ code: "custom", path: ["postalCode"], message: INVALID_VALUE });
  })
  .transform((value) => ({
    country: value.country,
    region: regionsOf(value.country).length > 0 ? value.region! : null,
    postalCode: value.postalCode.toUpperCase(),
  }));
