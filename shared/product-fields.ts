import { z } from "zod";
import { versionField } from "./catalogue-fields";
import { isDigitalCode, type LineType } from "./product-types";
import {
  AVAILABILITY_STATES,
  LINE_TYPES,
  PREORDER_CHARGES,
  PRODUCT_LIST_STATES,
  PRODUCT_TYPES,
  type AvailabilityState,
} from "./product-vocabulary";

export * from "./product-vocabulary";

// The store's products and their formats (availabilities) as the desk's forms write them
// (ADR 091): one schema for each form, which conform checks in the browser and on the server.
// The domain (server/desk/products) adds the rules that need the database: a topic that exists,
// a slug no other product has.

export const PRODUCT_MESSAGES = {
  title: "Enter a title of up to 300 characters.",
  slug: "Enter a slug of lowercase letters, digits and single hyphens, up to 80 characters.",
  productType: "Choose the product's type.",
  topic: "Choose the product's topic.",
  authors: "Enter up to 20 authors' names, separated by commas, each up to 120 characters.",
  summary: "Enter a summary of up to 2,000 characters.",
  description: "Enter a description of up to 10,000 characters.",
  published: "Enter the publication date as YYYY-MM-DD.",
  pages: "Enter the number of pages, a whole number from 0 to 10000.",
  format: "Enter the format's name, such as Hardcover or PDF, up to 60 characters.",
  code: "Enter the product-type code: three capital letters, such as HBK, KND or PDF.",
  lineType: "Choose how the format is delivered.",
  lineTypeForCode:
    "The line type must fit the code: KND and EPB are ebooks (or digital), BUN is a bundle, PDF, HTM, ZIP, PPT and XLS are digital, and any other code ships.",
  language: "Enter the language, such as English, up to 40 characters.",
  price: "Enter a price in dollars, such as 24.00, up to 99999.99.",
  status: "Choose on sale, coming soon or retired.",
  availableDate: "Enter the date it goes on sale as YYYY-MM-DD: a coming-soon format needs one.",
  preorderCharge: "Choose when pre-orders are charged: at payment or when it ships.",
  startsAt: "Enter a date and time in UTC, such as 2026-06-01 09:00, or leave it empty for now.",
} as const;

const m = PRODUCT_MESSAGES;

const text = (max: number, message: string) =>
  z.string({ required_error: message, invalid_type_error: message }).trim().min(1, message).max(max, message);

const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** A calendar day that exists (2025-02-30 does not), as YYYY-MM-DD; `message` for anything else. */
export const day = (message: string) =>
  z
    .string({ required_error: message, invalid_type_error: message })
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, message)
    .refine((value) => {
      const date = new Date(`${value}T00:00:00Z`);
      return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value) && date.getUTCFullYear() >= 1900;
    }, message);

/** Names separated by commas (the form), or a list (the domain's own calls). */
const authors = z.preprocess(
  (value) =>
    typeof value === "string"
      ? value
          .split(",")
          .map((name) => name.trim())
          .filter(Boolean)
      : (value ?? []),
  z
    .array(z.string({ invalid_type_error: m.authors }).trim().min(1, m.authors).max(120, m.authors), { invalid_type_error: m.authors })
    .max(20, m.authors),
);

const productText = {
  title: text(300, m.title),
  productType: z.enum(PRODUCT_TYPES, { errorMap: () => ({ message: m.productType }) }),
  /** The topic's name, any case. */
  topic: text(80, m.topic),
  authors,
  summary: text(2000, m.summary),
  description: text(10_000, m.description),
  published: day(m.published),
  pages: z.number({ required_error: m.pages, invalid_type_error: m.pages }).int(m.pages).min(0, m.pages).max(10_000, m.pages),
};

/** A new product: its slug is made from the title when left out, and is fixed once made (its pages' addresses and cover name it). */
export const productFieldsSchema = z.object({
  ...productText,
  slug: z.string({ invalid_type_error: m.slug }).trim().max(80, m.slug).regex(SLUG, m.slug).optional(),
});
export type ProductFields = z.infer<typeof productFieldsSchema>;

/** The desk's edit form: every field but the slug, and the version read. */
export const productEditSchema = z.object({ ...productText, version: versionField });
export type ProductEdit = z.infer<typeof productEditSchema>;

/** Dollars as typed ("24", "24.5", "$24.50") in whole cents. */
export const priceCents = z
  .string({ required_error: m.price, invalid_type_error: m.price })
  .trim()
  .transform((value) => value.replace(/^\$/, "").replace(/,/g, ""))
  .pipe(z.string().regex(/^\d{1,5}(\.\d{1,2})?$/, m.price))
  .transform((value) => {
    const [dollars, cents = ""] = value.split(".");
    return Number(dollars) * 100 + Number(cents.padEnd(2, "0"));
  });

/** Which line types a product-type code may be sold as (spec section 9). */
export function lineTypesFor(code: string): LineType[] {
  if (code === "KND" || code === "EPB") return ["EBOOK", "DIGITAL"];
  if (code === "BUN") return ["BUNDLE"];
  return isDigitalCode(code) ? ["DIGITAL"] : ["SHIP"];
}

const availabilityText = {
  format: text(60, m.format),
  code: z
    .string({ required_error: m.code, invalid_type_error: m.code })
    .trim()
    .transform((value) => value.toUpperCase())
    .pipe(z.string().regex(/^[A-Z]{3}$/, m.code)),
  lineType: z.enum(LINE_TYPES, { errorMap: () => ({ message: m.lineType }) }),
  language: text(40, m.language),
  status: z.enum(AVAILABILITY_STATES, { errorMap: () => ({ message: m.status }) }),
  /** The day a coming-soon format goes on sale. */
  availableDate: day(m.availableDate).optional(),
  /** When its pre-orders are charged; left out: at payment. */
  preorderCharge: z.enum(PREORDER_CHARGES, { errorMap: () => ({ message: m.preorderCharge }) }).default("payment"),
  permissionsAvailable: z.boolean({ invalid_type_error: "Answer true or false." }).default(false),
  volumePricing: z.boolean({ invalid_type_error: "Answer true or false." }).default(false),
};

/** The line type fits the code, and a coming-soon format has its date. */
function availabilityRules(
  value: { code: string; lineType: LineType; status: AvailabilityState; availableDate?: string },
  ctx: z.RefinementCtx,
) {
  if (!lineTypesFor(value.code).includes(value.lineType)) ctx.addIssue({ code: "custom", path: ["lineType"], message: m.lineTypeForCode });
  if (value.status === "coming-soon" && !value.availableDate)
    ctx.addIssue({ code: "custom", path: ["availableDate"], message: m.availableDate });
}

/** A new format of a product: its first price is its list price (later prices are scheduled changes). */
export const availabilityFieldsSchema = z.object({ ...availabilityText, listPrice: priceCents }).superRefine(availabilityRules);
export type AvailabilityFields = z.infer<typeof availabilityFieldsSchema>;

/** The desk's edit form: every field but the price (changed by scheduling a new one), and the version read. */
export const availabilityEditSchema = z.object({ ...availabilityText, version: versionField }).superRefine(availabilityRules);
export type AvailabilityEdit = z.infer<typeof availabilityEditSchema>;

/** A datetime-local value read as UTC; empty: now. */
const startsAt = z
  .string({ invalid_type_error: m.startsAt })
  .trim()
  .optional()
  .transform((value, ctx) => {
    if (!value) return null;
    if (!/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2})?$/.test(value)) {
      ctx.addIssue({ code: "custom", message: m.startsAt });
      return z.NEVER;
    }
    const iso = value.replace(" ", "T");
    const at = new Date(`${iso.length === 16 ? `${iso}:00` : iso}Z`);
    if (Number.isNaN(at.getTime()) || !at.toISOString().startsWith(iso.slice(0, 16))) {
      ctx.addIssue({ code: "custom", message: m.startsAt });
      return z.NEVER;
    }
    return at;
  });

/** A price from a moment on: the moment empty is now. */
export const priceChangeSchema = z.object({ price: priceCents, startsAt });
export type PriceChangeFields = z.infer<typeof priceChangeSchema>;

/** The desk's listing: words in the title, slug or authors; a status; and a page. */
export const productQuerySchema = z.object({
  q: z.string().trim().max(200).optional(),
  status: z.enum(PRODUCT_LIST_STATES).optional(),
  page: z.coerce.number().int().min(1).max(100_000).optional(),
});
