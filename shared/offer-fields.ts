import { z } from "zod";
import { versionField } from "./catalogue-fields";
import { day, priceCents, PRODUCT_TYPES } from "./product-fields";

// Promo codes and vouchers as the desk's forms write them (ADR 091): what a promo code takes off
// and what of, when it works, and how often; what a voucher gives, when, and how often. The
// domain (server/desk/offers) adds what needs the database: a code no other has, products and
// formats that exist.

export const OFFER_MESSAGES = {
  code: "Enter a code of 3 to 40 letters, digits and hyphens.",
  description: "Enter what the code gives, as the shopper is told it (such as 10% off your order), up to 200 characters.",
  discount: "Enter a percentage off or an amount off: one of them.",
  percentOff: "Enter a percentage off, a whole number from 1 to 100.",
  productType: "Choose a product type from the list, or every type.",
  products: "Choose products from the list.",
  startsOn: "Enter the first day it works as YYYY-MM-DD.",
  endsOn: "Enter the last day it works as YYYY-MM-DD, on or after the first; or leave it empty for no end.",
  maxUses: "Enter how many orders may use it in all, a whole number from 1 to 1000000; or leave it empty for no limit.",
  maxUsesPerReader: "Enter how many of one reader's orders may use it, a whole number from 1 to 1000; or leave it empty for no limit.",
  availability: "Choose what the voucher gives.",
} as const;

const m = OFFER_MESSAGES;

const code = z
  .string({ required_error: m.code, invalid_type_error: m.code })
  .trim()
  .transform((value) => value.toUpperCase())
  .pipe(
    z
      .string()
      .regex(/^[A-Z0-9]+(-[A-Z0-9]+)*$/, m.code)
      .min(3, m.code)
      .max(40, m.code),
  );

const optionalCount = (max: number, message: string) =>
  z.number({ invalid_type_error: message }).int(message).min(1, message).max(max, message).optional();

/** What a multiple select sends: nothing, one value, or several. */
const productIds = z.preprocess(
  (value) => (value === undefined || value === "" ? [] : Array.isArray(value) ? value : [value]),
  z
    .array(z.coerce.number({ invalid_type_error: m.products }).int(m.products).min(1, m.products), { invalid_type_error: m.products })
    .max(200, m.products),
);

const dates = {
  startsOn: day(m.startsOn),
  endsOn: day(m.endsOn).optional(),
};

/** The last day is on or after the first. */
function datesInOrder(value: { startsOn?: string; endsOn?: string }, ctx: z.RefinementCtx) {
  if (value.startsOn && value.endsOn && value.endsOn < value.startsOn)
    ctx.addIssue({ code: "custom", path: ["endsOn"], message: m.endsOn });
}

const promoText = {
  description: z.string({ required_error: m.description }).trim().min(1, m.description).max(200, m.description),
  percentOff: z.number({ invalid_type_error: m.percentOff }).int(m.percentOff).min(1, m.percentOff).max(100, m.percentOff).optional(),
  amountOff: priceCents.optional(),
  productType: z.enum(PRODUCT_TYPES, { errorMap: () => ({ message: m.productType }) }).optional(),
  products: productIds.default([]),
  ...dates,
  maxUses: optionalCount(1_000_000, m.maxUses),
  maxUsesPerReader: optionalCount(1000, m.maxUsesPerReader),
};

function promoRules(value: { percentOff?: number; amountOff?: number; startsOn?: string; endsOn?: string }, ctx: z.RefinementCtx) {
  if ((value.percentOff === undefined) === (value.amountOff === undefined))
    ctx.addIssue({ code: "custom", path: ["percentOff"], message: m.discount });
  datesInOrder(value, ctx);
}

/** A new promo code: the code is fixed once made (shoppers and the orders that used it name it). */
export const promoFieldsSchema = z.object({ code, ...promoText }).superRefine(promoRules);
export type PromoFields = z.infer<typeof promoFieldsSchema>;

export const promoEditSchema = z.object({ ...promoText, version: versionField }).superRefine(promoRules);
export type PromoEdit = z.infer<typeof promoEditSchema>;

const voucherText = {
  /** The availability the voucher gives. */
  availability: z.number({ required_error: m.availability, invalid_type_error: m.availability }).int(m.availability).min(1, m.availability),
  startsOn: day(m.startsOn).optional(),
  endsOn: day(m.endsOn).optional(),
  maxUses: z.number({ invalid_type_error: m.maxUses }).int(m.maxUses).min(1, m.maxUses).max(1_000_000, m.maxUses).default(1),
  maxUsesPerReader: optionalCount(1000, m.maxUsesPerReader),
};

export const voucherFieldsSchema = z.object({ code, ...voucherText }).superRefine(datesInOrder);
export type VoucherFields = z.infer<typeof voucherFieldsSchema>;

export const voucherEditSchema = z.object({ ...voucherText, version: versionField }).superRefine(datesInOrder);
export type VoucherEdit = z.infer<typeof voucherEditSchema>;

/** The first moment of a day the form names, and the last (an end date is the last day an offer works). */
export const dayStarts = (day: string) => `${day}T00:00:00.000Z`;
export const dayEnds = (day: string) => `${day}T23:59:59.999Z`;
