import type { LineType } from "./product-types";

// The words of the store's catalogue at the desk (ADR 091), apart from the forms' schemas so that
// pages can name them without loading zod before they hydrate (ADR 047).

/** The product types the store sells; each has its own shelf (a filter of /store). */
export const PRODUCT_TYPES = ["Book", "Case Study", "Article Reprint", "Magazine Issue", "Toolkit", "Bundle"] as const;

export const LINE_TYPES = ["SHIP", "EBOOK", "BUNDLE", "DIGITAL"] as const satisfies readonly LineType[];

export const LINE_TYPE_NAMES: Record<LineType, string> = {
  SHIP: "Print, shipped",
  EBOOK: "Ebook",
  BUNDLE: "Bundle, shipped",
  DIGITAL: "Digital download",
};

/** An availability's status as the desk names it; the database keeps A, F and R. */
export const AVAILABILITY_STATES = ["on-sale", "coming-soon", "retired"] as const;
export type AvailabilityState = (typeof AVAILABILITY_STATES)[number];

export const AVAILABILITY_STATE_NAMES: Record<AvailabilityState, string> = {
  "on-sale": "On sale",
  "coming-soon": "Coming soon",
  retired: "Retired",
};

/** When a coming-soon format's pre-orders are charged (ADR 092): with the order, or on its availability date. */
export const PREORDER_CHARGES = ["payment", "ship"] as const;
export type PreorderCharge = (typeof PREORDER_CHARGES)[number];

export const PREORDER_CHARGE_NAMES: Record<PreorderCharge, string> = {
  payment: "At payment",
  ship: "When it ships",
};

/** What the desk's listing of products filters by. */
export const PRODUCT_LIST_STATES = ["on-sale", "coming-soon", "retired", "no-formats"] as const;
export type ProductListState = (typeof PRODUCT_LIST_STATES)[number];

export const PRODUCT_LIST_STATE_NAMES: Record<ProductListState, string> = {
  "on-sale": "On sale",
  "coming-soon": "Coming soon",
  retired: "Retired",
  "no-formats": "No formats yet",
};
