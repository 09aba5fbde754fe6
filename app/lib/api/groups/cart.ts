import { z } from "zod";
import { apiErrorSchema, endpoint } from "~/app/lib/api/contract";
import { addToCartSchema, estimateSchema } from "~/app/lib/store/cart-forms";
import { placeOrderSchema, shippingPaymentFields } from "~/app/lib/store/checkout-forms";

// The store's cart (spec 7: GET/POST/DELETE /api/shopping-cart, POST /api/shopping-cart/estimate,
// GET product/{id}/availabilities, HEAD commerce/shopping-cart). A guest's cart is found by its
// signed cookie (set on the first add, as the page sets it), a reader's by their session.

/** An amount in cents and as the page shows it (US dollars). */
const money = z.object({ cents: z.number().int(), formatted: z.string() });

export const cartLineSchema = z.object({
  id: z.string().uuid(),
  availabilityId: z.number().int(),
  productId: z.number().int(),
  title: z.string(),
  format: z.string(),
  /** Perm (copyright permissions), Ship or Digital, as the spec's cart add item names them. */
  type: z.enum(["Perm", "Ship", "Digital"]),
  quantity: z.number().int(),
  maxQuantity: z.number().int(),
  unitPrice: money,
  /** The volume discount applied to the unit price, in percent. */
  percentOff: z.number(),
  linePrice: money,
  comingSoon: z.boolean(),
  /** No longer sold: the line cannot be ordered, only removed. */
  retired: z.boolean(),
  availableDate: z.string().nullable(),
  productUrl: z.string(),
});

/** A line as the spec's Cart entity lists it. */
export const cartItemSchema = z.object({
  /** The line's id (DELETE /api/shopping-cart takes it as lineId). */
  itemid: z.string().uuid(),
  /** The availability: the productId the add call takes. */
  productId: z.number().int(),
  name: z.string(),
  url: z.string(),
  /** The catalogue's price of one, before volume discounts (copyright permissions: one copy's, before the per-copy tiers). */
  listPrice: money,
  quantity: z.number().int(),
  type: z.enum(["Perm", "Ship", "Digital"]),
  /** The numeric referral code the item was added with, if any. */
  referral: z.string().nullable(),
});

/**
 * The spec's Cart entity (§3), then the answer's earlier fields, kept for the clients written
 * against them: `lines`, `count` and `subtotal`.
 */
export const cartSchema = z.object({
  /** What the items come to at today's prices, volume discounts applied: the same as subTotal (promo codes apply at checkout). */
  cart_amount: money,
  line_items: z.object({
    /** Lines that ship. */
    physical_items: z.array(cartItemSchema),
    /** Digital items, and copyright permissions (delivered as a licence document). */
    digital_items: z.array(cartItemSchema),
  }),
  subTotal: money,
  /** Estimated for the destination last given to the cart's estimate (POST /api/shopping-cart/estimate or the cart page); null before one is. */
  tax: money.nullable(),
  /** The cheapest shipping to that destination (0 when nothing ships); null before a destination is given. */
  shippingCost: money.nullable(),
  /** subTotal, tax and shippingCost together; null before a destination is given. */
  grandTotal: money.nullable(),
  lines: z.array(cartLineSchema),
  /** What the header's mini cart counts. */
  count: z.number().int(),
  subtotal: money,
});

/**
 * The spec's cart add item: the product page's form schema. A JSON client may send productId,
 * quantity and referral as numbers; they are read as the form's text.
 */
export const cartAddItem = z.preprocess(
  (item) =>
    item && typeof item === "object" && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).map(([k, v]) => [k, typeof v === "number" ? String(v) : v]))
      : item,
  addToCartSchema,
);

const addResult = z.union([
  z.object({ productId: z.string(), added: z.literal(true), lineId: z.string().uuid(), quantity: z.number().int() }),
  z.object({ productId: z.string(), added: z.literal(false), code: z.string(), message: z.string() }),
]);

export const getCart = endpoint({
  method: "get",
  operationId: "getCart",
  path: "/api/shopping-cart",
  summary: "The caller's cart: a guest's by the cart cookie, a reader's by their session. Prices are the catalogue's now.",
  tag: "Commerce",
  access: "public",
  answers: { 200: { description: "The cart (empty when there is none yet).", schema: cartSchema } },
});

export const addToCartEndpoint = endpoint({
  method: "post",
  operationId: "addToCart",
  path: "/api/shopping-cart",
  summary:
    "Adds a list of cart add items (productId is the availability id; type Ship, Digital or Perm; quantity above 0, a digital item 1), " +
    "each as the product page's add to cart does. The type must be how the format is delivered (a bundle or a hardcover ships, an ebook is digital). " +
    "A guest's first add sets the cart cookie.",
  tag: "Commerce",
  access: "public",
  body: z.array(cartAddItem).min(1, "Please add at least one item.").max(10, "Please add at most 10 items at once."),
  answers: {
    200: {
      description: "At least one item was added: each item's outcome, and the cart as it is now.",
      schema: z.object({ items: z.array(addResult), cart: cartSchema }),
      headers: { "Set-Cookie": "A guest's new cart cookie (mr_cart)." },
    },
    400: {
      description:
        "The input is not valid (`fields`), or nothing was added because an item's type is not how its format is delivered (code wrong-type; `fields` names each such item's type, as `0.type`). `items` holds each item's outcome then.",
      schema: apiErrorSchema.extend({ items: z.array(addResult).optional() }),
    },
    404: {
      description: "Nothing was added: the (first) item is not in the catalogue. `items` holds each item's outcome.",
      schema: apiErrorSchema.extend({ items: z.array(addResult) }),
    },
    409: {
      description:
        "Nothing was added: no longer sold, no permissions offered, or over the line's limit. `items` holds each item's outcome.",
      schema: apiErrorSchema.extend({ items: z.array(addResult) }),
    },
  },
});

export const removeFromCart = endpoint({
  method: "delete",
  operationId: "removeFromCart",
  path: "/api/shopping-cart",
  summary: "Removes one line of the caller's cart (`lineId`), or empties it (`all: true`).",
  tag: "Commerce",
  access: "public",
  body: z
    .object({ lineId: z.string().max(100).optional(), all: z.boolean().optional() })
    .refine((v) => (v.lineId !== undefined) !== (v.all === true), {
      message: "Please name one line (lineId) or the whole cart (all: true).",
      path: ["lineId"],
    }),
  answers: {
    200: { description: "The cart as it is now.", schema: cartSchema },
    404: { description: "No such line in the caller's cart; nothing changed.", schema: apiErrorSchema },
  },
});

export const estimateEndpoint = endpoint({
  method: "post",
  operationId: "estimateCart",
  path: "/api/shopping-cart/estimate",
  summary: "Estimated tax and the cheapest shipping of the caller's cart to a destination, as the cart page's estimate form.",
  tag: "Commerce",
  access: "public",
  body: estimateSchema,
  answers: {
    200: {
      description: "The estimate (null when the cart is empty). The destination is remembered for the cart page, as the form does.",
      schema: z.object({
        destination: z.object({ country: z.string(), region: z.string().nullable(), postalCode: z.string() }),
        estimate: z
          .object({
            subtotal: money,
            tax: money,
            /** The cheapest method offered; null when nothing in the cart ships. */
            shipping: z.object({ name: z.string(), cents: z.number().int(), formatted: z.string() }).nullable(),
            total: money,
          })
          .nullable(),
      }),
      headers: { "Set-Cookie": "The remembered destination (mr_cart_estimate)." },
    },
  },
});

export const availabilitySchema = z.object({
  availabilityId: z.number().int(),
  format: z.string(),
  language: z.string(),
  listPrice: money,
  lineType: z.enum(["SHIP", "EBOOK", "BUNDLE", "DIGITAL"]),
  /** RETIRED: no longer sold (its page says so; it cannot be added). */
  status: z.enum(["AVAILABLE", "COMING_SOON", "RETIRED"]),
  availableDate: z.string().nullable(),
  permissionsAvailable: z.boolean(),
  isVolumePricingAvailable: z.boolean(),
  productUrl: z.string(),
});

export const availabilities = endpoint({
  method: "get",
  operationId: "getAvailabilities",
  path: "/service/product/{id}/availabilities",
  summary: "A product's availabilities (formats, prices, status, coming-soon dates), in catalogue order.",
  tag: "Commerce",
  access: "public",
  params: z.object({
    id: z
      .string()
      .regex(/^\d{1,9}$/, "Please enter a valid number.")
      .transform(Number),
  }),
  answers: {
    200: {
      description: "The product's availabilities.",
      schema: z.object({ productId: z.number().int(), title: z.string(), availabilities: z.array(availabilitySchema) }),
    },
    404: { description: "No such product.", schema: apiErrorSchema },
  },
});

export const cartHead = endpoint({
  method: "head",
  operationId: "countCartItems",
  path: "/service/commerce/shopping-cart",
  summary:
    "Whether the caller has a cart with items, without a body: the item count the header's mini cart shows " +
    "(a guest's cart by the cart cookie, a reader's by their session). Only HEAD: GET /api/shopping-cart gives the cart itself.",
  tag: "Commerce",
  access: "public",
  answers: {
    200: {
      description: "The count is in X-Cart-Item-Count (0 when there is no cart yet).",
      headers: { "X-Cart-Item-Count": "How many items the cart holds (quantities added up), as a decimal integer." },
    },
  },
});

// Checkout (spec 7: commerce/shipping-payment, commerce/address, commerce/order/shipping-method,
// commerce/order/promo-code, commerce/order/submit), for a guest or a reader, on the cart the
// caller shops with.

/** What the review page shows before the order is placed; `totals.total.cents` is what submit's shownTotal must be. */
export const reviewSchema = z.object({
  email: z.string(),
  address: z.object({
    firstName: z.string(),
    lastName: z.string(),
    address1: z.string(),
    address2: z.string(),
    city: z.string(),
    state: z.string(),
    postalCode: z.string(),
    countryCode: z.string(),
  }),
  shippingMethod: z.object({ id: z.string(), name: z.string(), delivery: z.string() }).nullable(),
  promo: z.object({ code: z.string(), applied: z.boolean(), message: z.string() }).nullable(),
  lines: z.array(cartLineSchema),
  totals: z.object({ subtotal: money, discount: money, tax: money, shipping: money, total: money }),
});

const emptyCart = { description: "The caller's cart is empty: nothing to check out.", schema: apiErrorSchema };
const closed = { description: "The store is closed for maintenance; the cart is kept as it is.", schema: apiErrorSchema };

export const address = endpoint({
  method: "post",
  operationId: "confirmAddress",
  path: "/service/commerce/address",
  summary:
    "The shipping-and-payment step, as POST /service/commerce/shipping-payment takes it (the same input and rules), answering " +
    "whether the details were confirmed and the review once they are.",
  tag: "Commerce",
  access: "public",
  body: shippingPaymentFields,
  answers: {
    200: {
      description: "Kept. When confirmed, the review of the order as it would be placed.",
      schema: z.object({ confirmed: z.boolean(), review: reviewSchema.nullable() }),
    },
    404: { description: "The saved address chosen is not one of the caller's.", schema: apiErrorSchema },
    409: emptyCart,
    503: closed,
  },
});

/** A shipping method offered for the destination, with what it costs for the caller's cart. */
const offeredMethodSchema = z.object({ id: z.string(), name: z.string(), delivery: z.string(), price: money });

export const shippingPayment = endpoint({
  method: "post",
  operationId: "shippingPayment",
  path: "/service/commerce/shipping-payment",
  summary:
    "The /shipping-payment form as JSON, with its schema and rules: e-mail (guests), a new address or a saved one (addressChoice), " +
    "the shipping method and promo code. intent continue (the default) checks and confirms them; country and promo only keep " +
    "what was sent, as the page's Update and Apply buttons do.",
  tag: "Commerce",
  access: "public",
  body: shippingPaymentFields,
  answers: {
    200: {
      description:
        "Kept. `next` is the page the shopper would see next: /review-order once confirmed (`review` is that page's order), " +
        "else the form again. `shippingMethods` are those offered where the order now ships (none when nothing ships).",
      schema: z.object({
        confirmed: z.boolean(),
        next: z.string(),
        review: reviewSchema.nullable(),
        shippingMethods: z.array(offeredMethodSchema),
      }),
    },
    404: { description: "The saved address chosen is not one of the caller's; nothing was kept.", schema: apiErrorSchema },
    409: emptyCart,
    503: closed,
  },
});

export const shippingMethodEndpoint = endpoint({
  method: "post",
  operationId: "chooseShippingMethod",
  path: "/service/commerce/order/shipping-method",
  summary:
    "Chooses the shipping method of the caller's checkout (standard, express or international), on the shipping page's rule: " +
    "one offered where the order ships (the address given at the shipping-and-payment step; the United States before one is).",
  tag: "Commerce",
  access: "public",
  body: shippingPaymentFields.pick({ shippingMethod: true }),
  answers: {
    200: {
      description: "Chosen. `review` is the order as it would be placed, once the address step is confirmed.",
      schema: z.object({ shippingMethod: offeredMethodSchema, review: reviewSchema.nullable() }),
    },
    409: {
      description: "Nothing chosen: the cart is empty, nothing in it ships, or the checkout's saved address is no longer the caller's.",
      schema: apiErrorSchema,
    },
  },
});

export const promoCode = endpoint({
  method: "post",
  operationId: "applyPromoCode",
  path: "/service/commerce/order/promo-code",
  summary: "Applies a promo code to the caller's checkout (an empty code removes it), with the page's messages.",
  tag: "Commerce",
  access: "public",
  body: shippingPaymentFields.pick({ promoCode: true }),
  answers: {
    200: {
      description: "Applied (or removed). `review` is the order as it would be placed, once the address step is confirmed.",
      schema: z.object({
        promo: z.object({ code: z.string(), message: z.string(), discount: money }).nullable(),
        review: reviewSchema.nullable(),
      }),
    },
    409: emptyCart,
  },
});

const placedSchema = z.object({
  order: z.object({
    id: z.string(),
    number: z.string(),
    status: z.enum(["pending_payment", "paid", "cancelled"]),
    total: money,
    url: z.string(),
  }),
  next: z.string(),
});

export const submitOrderEndpoint = endpoint({
  method: "post",
  operationId: "submitOrder",
  path: "/service/commerce/order/submit",
  summary:
    "Places the order from the caller's cart as the review page's button does: once per idempotencyKey (22 to 64 letters, digits, - or _; " +
    "the same key again finds the same order), and only at the total the caller was shown (shownTotal, cents).",
  tag: "Commerce",
  access: "public",
  body: placeOrderSchema,
  answers: {
    200: { description: "This key's order, placed before.", schema: placedSchema },
    201: {
      description: "Placed. `next` is where the shopper goes: the payment page, or the order when nothing is left to pay.",
      schema: placedSchema,
      headers: { "Set-Cookie": "A guest's list of their orders (mr_guest_orders), as the page sets it." },
    },
    404: {
      description: "Not placed: the key is one another shopper's order was placed with. Nothing of that order is given, nothing changes.",
      schema: apiErrorSchema,
    },
    409: {
      description:
        "Not placed: the key is expired (malformed), prices changed, an item is not on sale yet, the promo code no longer applies, " +
        "the checkout is incomplete or the cart empty, or the cart's order was placed already (`next` is that order).",
      schema: apiErrorSchema.extend({ next: z.string().optional() }),
    },
    502: { description: "Placed, but the payment could not start; the order can be paid from its page later.", schema: apiErrorSchema },
    503: closed,
  },
});

export const endpoints = [
  getCart,
  addToCartEndpoint,
  removeFromCart,
  estimateEndpoint,
  availabilities,
  cartHead,
  shippingPayment,
  address,
  shippingMethodEndpoint,
  promoCode,
  submitOrderEndpoint,
];
