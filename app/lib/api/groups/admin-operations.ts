import { z } from "zod";
import { apiErrorSchema, endpoint } from "~/app/lib/api/contract";
import { REASON_REQUIRED } from "~/app/lib/desk/reader-forms";
import { QUERY_MAX } from "~/server/desk/service/find";
import { ORDER_FILTERS } from "~/server/store/fulfilment/lifecycle";
import { REASON_MAX } from "~/shared/reader-service";
import { refundReasonSchema, trackingNumberSchema } from "~/app/lib/desk/order-forms.server";
import { ADMIN_PAGE_SIZE, notFoundDoc, TAG } from "./admin";

// The Admin API's operations (issue 39, ADR 088): customer service's reader look-up and unlock,
// and the store's orders, dispatch and refunds, for tools. Each calls what the desk's pages call
// (server/desk/service, server/store/fulfilment, server/store/refunds), with the same desk
// actions, audit rows and mail.

const SERVICE_ROLES = "Needs a key with the Admin or Service role.";
const LIST_ROLES = "Needs a key with the Admin, Store or Service role.";
const PAGE_INVALID = "page is a whole number from 1.";
const DAY_INVALID = "Give a day as YYYY-MM-DD, such as 2026-05-14.";
const READER_ID_INVALID = "id is a reader's id, as GET /desk/api/readers gives it.";
const ORDER_ID_INVALID = "id is an order's number, such as MR2605140001.";
const POSITION_INVALID = "A line is named by its position in the order: a whole number from 1.";
const IDEMPOTENCY_INVALID = "Idempotency-Key is 8 to 100 visible ASCII characters, such as a UUID.";

const page = z.coerce
  .number({ invalid_type_error: PAGE_INVALID })
  .int(PAGE_INVALID)
  .min(1, PAGE_INVALID)
  .max(100_000, "page is at most 100000.")
  .optional();

const listOf = (item: z.ZodTypeAny) =>
  z.object({ page: z.number().int(), pageSize: z.number().int(), total: z.number().int(), items: z.array(item) });

/**
 * The header that makes a change safe to send again: the same key (from the same API key, on the
 * same reader or order) answers what the first call did, and changes nothing more.
 */
const idempotencyHeaders = z.object({
  "Idempotency-Key": z
    .string()
    .regex(/^[\x21-\x7e]{8,100}$/, IDEMPOTENCY_INVALID)
    .optional()
    .describe(
      "Any string of yours, unique to this change (a UUID): sent again with the same key, the call answers as the first one did and changes nothing more.",
    ),
});

const card = z
  .object({ brand: z.string().nullable(), last4: z.string() })
  .nullable()
  .describe("Brand and last four digits: all the site keeps.");

// Readers.

export const adminReaderSummarySchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  status: z.string().describe("active, or restricted (cannot sign in or reset the password)."),
  createdAt: z.string(),
  matched: z.enum(["email", "name", "print account", "order"]).describe("How the query found them."),
});

export const adminReaderSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    displayName: z.string(),
    status: z.string().describe("active, or restricted (cannot sign in or reset the password)."),
    createdAt: z.string(),
    emailVerifiedAt: z.string().nullable(),
    lastVisitAt: z.string().nullable(),
    staff: z.boolean(),
    signIn: z
      .object({
        failures: z.number().int().describe("Failed sign-ins since the last lockout or success."),
        lockouts: z.number().int().describe("Lockouts in the last day."),
        lockedUntil: z.string().nullable(),
        locked: z.boolean(),
        hardLocked: z.boolean().describe("Locked for a day."),
      })
      .nullable()
      .describe("Null when there is no failed sign-in to report."),
    subscriptions: z.array(
      z.object({
        id: z.string(),
        tier: z.string(),
        kind: z.enum(["web", "print", "complimentary"]),
        planName: z.string().nullable(),
        accountNumber: z.string().nullable().describe("A print subscription's account number."),
        status: z.string(),
        billingStatus: z.string().nullable(),
        accessStart: z.string(),
        accessEnd: z.string(),
        givesAccess: z.boolean(),
        card,
      }),
    ),
    invoices: z.array(
      z.object({
        id: z.string(),
        number: z.string(),
        kind: z.string(),
        totalCents: z.number().int(),
        createdAt: z.string(),
        receiptSentAt: z.string().nullable(),
        card,
      }),
    ),
    orders: z.array(
      z.object({
        number: z.string().describe("The order's id in GET /desk/api/orders/{id}."),
        status: z.string(),
        totalCents: z.number().int(),
        createdAt: z.string(),
        paidAt: z.string().nullable(),
        caseStudies: z.array(
          z.object({ position: z.number().int(), title: z.string(), expiresAt: z.string(), extended: z.boolean(), expired: z.boolean() }),
        ),
      }),
    ),
    printRecords: z.array(
      z.object({
        accountNumber: z.string(),
        subscriptionCode: z.string(),
        accessEnd: z.string(),
        active: z.boolean(),
        linked: z.boolean(),
      }),
    ),
    gifts: z.object({
      left: z.number().int().describe("Gift links left to give this month."),
      list: z.array(z.object({ articleTitle: z.string(), articleUrl: z.string(), createdAt: z.string(), revoked: z.boolean() })),
    }),
    meter: z.object({ period: z.string(), count: z.number().int(), limit: z.number().int() }),
    mail: z.array(z.object({ subject: z.string(), sentAt: z.string() })).describe("The newest mail sent to them: subjects only."),
  })
  .describe(
    "A reader as customer service sees them: never a password, a session, a token, or more of a card than its brand and last four.",
  );

const readerParams = z.object({ id: z.string().regex(/^[\w-]{1,64}$/, READER_ID_INVALID) });
const reader = (description: string) => ({ description, schema: adminReaderSchema });

export const listReaders = endpoint({
  method: "get",
  operationId: "adminListReaders",
  path: "/desk/api/readers",
  summary:
    `Finds readers as the desk's Readers page does: \`q\` is an e-mail address (in full or how it starts), a name, a print account number or an order number; the best matches first, ${ADMIN_PAGE_SIZE} a page. ` +
    SERVICE_ROLES,
  tag: TAG,
  access: "desk-key",
  deskAction: "readers.find",
  query: z
    .object({
      q: z
        .string({ required_error: "q is what to search for: an address, a name or a number.", invalid_type_error: "q is text." })
        .trim()
        .min(1, "q is what to search for: an address, a name or a number.")
        .max(QUERY_MAX, `q is at most ${QUERY_MAX} characters.`),
      page,
    })
    .strict("The parameters are q and page."),
  answers: { 200: { description: "One page of readers, and how many match in all.", schema: listOf(adminReaderSummarySchema) } },
});

export const getReader = endpoint({
  method: "get",
  operationId: "adminGetReader",
  path: "/desk/api/readers/{id}",
  summary:
    "A reader as the desk's reader page shows them: account, sign-in failures and lockout, subscriptions, invoices, orders, print records, gift links, this month's meter and the mail sent to them. " +
    SERVICE_ROLES,
  tag: TAG,
  access: "desk-key",
  deskAction: "readers.find",
  params: readerParams,
  answers: { 200: reader("The reader."), 404: notFoundDoc("reader") },
});

export const unlockReader = endpoint({
  method: "post",
  operationId: "adminUnlockReader",
  path: "/desk/api/readers/{id}/unlock",
  summary:
    "Clears the reader's failed sign-ins and any lockout, the day-long one too, as the desk's Unlock does: the `reason` goes into the audit log and the reader is mailed. " +
    "An account with nothing to clear answers 409 `wrong_state`. Needs a key with the Admin or Service role.",
  tag: TAG,
  access: "desk-key",
  deskAction: "readers.act",
  params: readerParams,
  headers: idempotencyHeaders,
  body: z
    .object({
      reason: z
        .string({ required_error: REASON_REQUIRED, invalid_type_error: REASON_REQUIRED })
        .trim()
        .min(1, REASON_REQUIRED)
        .max(REASON_MAX, `Keep the reason within ${REASON_MAX} characters.`),
    })
    .strict("The only field is reason."),
  answers: {
    200: reader("Unlocked (or, for a key sent again, unlocked before): the reader as they are now."),
    404: notFoundDoc("reader"),
    409: { description: "`wrong_state`: the account is not locked and has no failed sign-ins to clear.", schema: apiErrorSchema },
  },
});

// Orders.

const STAGES = ["pending", "paid", "fulfilled", "delivered", "cancelled"] as const;
const REFUND_STATES = ["none", "partly-refunded", "refunded"] as const;

export const adminOrderSummarySchema = z.object({
  number: z.string().describe("The order's id in GET /desk/api/orders/{id}."),
  createdAt: z.string(),
  email: z.string(),
  name: z.string().nullable().describe("Who it ships to; null for an order with nothing to ship."),
  itemCount: z.number().int(),
  totalCents: z.number().int(),
  refundedCents: z.number().int(),
  stage: z.enum(STAGES),
  refundState: z.enum(REFUND_STATES),
});

const positions = z.array(z.number().int());

export const adminShipmentSchema = z.object({
  id: z.string(),
  carrier: z.string().describe("A known carrier's id (usps, ups, fedex, dhl, royal-mail), or another carrier's name as given."),
  carrierName: z.string(),
  trackingNumber: z.string(),
  trackingUrl: z.string().url().nullable().describe("The carrier's tracking page; null for a carrier the site does not know."),
  lines: positions.describe("The positions of the lines in the parcel."),
  shippedAt: z.string(),
  shippedBy: z.string(),
  deliveredAt: z.string().nullable(),
  mailSentAt: z.string().nullable().describe("When the buyer's dispatch notice went."),
});

export const adminRefundSchema = z.object({
  id: z.string(),
  kind: z.enum(["lines", "order", "cancel", "late-payment"]),
  amountCents: z.number().int(),
  status: z.enum(["pending", "succeeded", "failed"]).describe("pending: the provider has not confirmed it yet (Stripe)."),
  reason: z.string(),
  requestedBy: z.string(),
  createdAt: z.string(),
  succeededAt: z.string().nullable(),
  failure: z.string().nullable(),
  creditNote: z.string().nullable().describe("The credit note's number (CN-000001), once it succeeded."),
  mailSentAt: z.string().nullable().describe("When the buyer's refund receipt went."),
  lines: z.array(z.object({ position: z.number().int(), quantity: z.number().int() })),
});

const adminPreorderSchema = z
  .object({
    status: z
      .enum(["awaiting-date", "charge-failed", "released"])
      .describe(
        "awaiting-date: held until its date (no download, no dispatch); charge-failed: the card was declined on the date and the line waits " +
          "for staff (the buyer was asked to pay another way); released: its date came, so its download opened or it can be dispatched. " +
          "A line refunded in full before its date keeps awaiting-date (see refundedQuantity): it is never charged or released.",
      ),
    availableDate: z.string().describe("The availability date the buyer was given when ordering (YYYY-MM-DD)."),
    chargePolicy: z
      .enum(["payment", "ship"])
      .describe(
        "How this line is paid: payment, with the order; ship, charged on its availability date to the card the checkout saved. " +
          "The line's own, fixed when it was ordered, not its format's today: where the provider could not charge later, it was charged with the order.",
      ),
    chargeCents: z
      .number()
      .int()
      .nullable()
      .describe(
        "With ship: its share of the order (price less its share of the discount, plus its tax), charged on the date; null with payment.",
      ),
    chargedAt: z
      .string()
      .nullable()
      .describe("When it was paid: the order's paidAt with payment, its own charge's time with ship; null until then."),
    chargeFailedAt: z.string().nullable().describe("When its charge on the date was declined."),
    releasedAt: z.string().nullable().describe("When its date came and it was released."),
  })
  .nullable()
  .describe("A pre-order (ordered while its format was coming soon); null for any other line.");

export const adminOrderSchema = z
  .object({
    number: z.string(),
    status: z.enum(["pending_payment", "paid", "cancelled"]).describe("The payment's state."),
    stage: z
      .enum(STAGES)
      .describe("How far it got: fulfilled is every line dispatched (digital lines at payment), delivered every parcel."),
    refundState: z.enum(REFUND_STATES),
    kind: z.enum(["purchase", "voucher"]),
    email: z.string(),
    readerId: z.string().nullable().describe("The buyer's account (GET /desk/api/readers/{id}); null for a guest's order."),
    createdAt: z.string(),
    paidAt: z.string().nullable(),
    cancelledAt: z.string().nullable(),
    shippedAt: z.string().nullable(),
    fulfilledAt: z.string().nullable(),
    deliveredAt: z.string().nullable(),
    provider: z.string().nullable(),
    promoCode: z.string().nullable(),
    shippingMethod: z.string().nullable(),
    address: z
      .object({
        firstName: z.string(),
        lastName: z.string(),
        address1: z.string(),
        address2: z.string(),
        city: z.string(),
        state: z.string(),
        postalCode: z.string(),
        countryCode: z.string(),
      })
      .nullable(),
    subtotalCents: z.number().int(),
    discountCents: z.number().int(),
    taxCents: z.number().int(),
    shippingCents: z.number().int(),
    totalCents: z.number().int(),
    refundedCents: z.number().int(),
    lines: z.array(
      z.object({
        position: z.number().int(),
        title: z.string(),
        format: z.string(),
        productType: z.string(),
        kind: z.enum(["item", "perm"]),
        quantity: z.number().int(),
        unitPriceCents: z.number().int(),
        lineTotalCents: z.number().int(),
        ships: z.boolean().describe("Goes by post; other lines are fulfilled at payment."),
        fulfilledAt: z.string().nullable(),
        refundedQuantity: z.number().int(),
        refundable: z.number().int().describe("How many of it can still be refunded."),
        dispatchable: z.boolean().describe("Can go in a parcel now."),
        preorder: adminPreorderSchema,
      }),
    ),
    shipments: z.array(adminShipmentSchema),
    refunds: z.array(adminRefundSchema),
  })
  .describe("An order as the desk's order page shows it.");

const orderParams = z.object({
  id: z
    .string()
    .regex(/^[A-Za-z0-9-]{1,40}$/, ORDER_ID_INVALID)
    .transform((number) => number.toUpperCase()),
});

const order = (description: string) => ({ description, schema: adminOrderSchema });
const orderNotFound = notFoundDoc("order");

const day = z
  .string({ invalid_type_error: DAY_INVALID })
  .regex(/^\d{4}-\d{2}-\d{2}$/, DAY_INVALID)
  .refine((d) => {
    const at = Date.parse(`${d}T00:00:00Z`);
    return !Number.isNaN(at) && new Date(at).toISOString().startsWith(d);
  }, DAY_INVALID)
  .optional();

export const listOrders = endpoint({
  method: "get",
  operationId: "adminListOrders",
  path: "/desk/api/orders",
  summary:
    `Orders, newest first, ${ADMIN_PAGE_SIZE} a page, as the desk's Orders page filters them: \`status\` is a stage or a refund state, ` +
    `\`from\` and \`to\` the first and last day placed (UTC, both included). ${LIST_ROLES}`,
  tag: TAG,
  access: "desk-key",
  deskAction: "orders.list",
  query: z
    .object({
      status: z.enum(ORDER_FILTERS, { errorMap: () => ({ message: `status is one of ${ORDER_FILTERS.join(", ")}.` }) }).optional(),
      from: day,
      to: day,
      page,
    })
    .strict("The parameters are status, from, to and page.")
    .refine((q) => !q.from || !q.to || q.from <= q.to, { path: ["to"], message: "to is the same day as from or later." }),
  answers: { 200: { description: "One page of orders, and how many match in all.", schema: listOf(adminOrderSummarySchema) } },
});

export const getOrder = endpoint({
  method: "get",
  operationId: "adminGetOrder",
  path: "/desk/api/orders/{id}",
  summary: `An order by its number, with its lines (a pre-ordered one with its date, charge and release), payment, shipments and refunds. ${LIST_ROLES}`,
  tag: TAG,
  access: "desk-key",
  deskAction: "orders.list",
  params: orderParams,
  answers: { 200: order("The order."), 404: orderNotFound },
});

/** A 409 about an order: `conflict` with the order as it is now (and who changed it, when), or `wrong_state`. */
const orderConflict = (description: string) => ({
  description,
  schema: apiErrorSchema.extend({
    current: adminOrderSchema.optional().describe("With `conflict`: the order as it is now."),
    by: z.string().optional().describe("With `conflict`: who dispatched or refunded it last."),
    at: z.string().optional().describe("With `conflict`: when (ISO time)."),
  }),
});

const orderAnd = (what: "shipment" | "refund", schema: z.ZodTypeAny) => z.object({ [what]: schema, order: adminOrderSchema });

export const fulfilOrder = endpoint({
  method: "post",
  operationId: "adminFulfilOrder",
  path: "/desk/api/orders/{id}/fulfilments",
  summary:
    "Dispatches lines of a paid order in one parcel, as the desk's Dispatch form does: `lines` are the lines' positions, `carrier` a known " +
    "carrier's id or name (USPS, UPS, FedEx, DHL, Royal Mail: the buyer gets its tracking link) or another's name, `trackingNumber` the parcel's. " +
    "The buyer is mailed the tracking details. Lines that do not go by post or are refunded are 400; lines dispatched already are 409 " +
    "`conflict`; an unpaid or cancelled order is 409 `wrong_state`. Needs a key with the Admin or Store role.",
  tag: TAG,
  access: "desk-key",
  deskAction: "orders.fulfil",
  params: orderParams,
  headers: idempotencyHeaders,
  body: z
    .object({
      lines: z
        .array(
          z.number({ invalid_type_error: POSITION_INVALID }).int(POSITION_INVALID).min(1, POSITION_INVALID).max(9999, POSITION_INVALID),
          {
            required_error: "lines lists the positions of the lines in this parcel.",
            invalid_type_error: "lines lists the positions of the lines in this parcel.",
          },
        )
        .min(1, "lines lists the positions of the lines in this parcel.")
        .max(100, "lines lists at most 100 lines."),
      carrier: z
        .string({ required_error: "carrier names the carrier.", invalid_type_error: "carrier names the carrier." })
        .trim()
        .min(1, "carrier names the carrier.")
        .max(60, "Name the carrier in up to 60 characters."),
      trackingNumber: trackingNumberSchema,
    })
    .strict("The fields are lines, carrier and trackingNumber."),
  answers: {
    201: { description: "Dispatched: the parcel, and the order as it is now.", schema: orderAnd("shipment", adminShipmentSchema) },
    200: {
      description: "The same Idempotency-Key was sent before: that parcel, unchanged.",
      schema: orderAnd("shipment", adminShipmentSchema),
    },
    404: orderNotFound,
    409: orderConflict(
      "`conflict`: some of the lines have been dispatched already; `wrong_state`: the order is not paid, or was cancelled.",
    ),
  },
});

export const refundOrder = endpoint({
  method: "post",
  operationId: "adminRefundOrder",
  path: "/desk/api/orders/{id}/refunds",
  summary:
    "Refunds chosen lines and quantities of a paid order through the payment provider, or (without `lines`) all that is left of it, as the " +
    "desk's Refund does: the `reason` goes into the audit log, the buyer is mailed a refund receipt with its credit note, and refunded lines' " +
    "downloads close. Never more than was paid: with nothing left to refund the answer is 409 `conflict`; an unpaid order is 409 " +
    "`wrong_state`; a provider that refuses is 503 and nothing is refunded. Needs a key with the Admin, Store or Service role.",
  tag: TAG,
  access: "desk-key",
  deskAction: "orders.refund",
  params: orderParams,
  headers: idempotencyHeaders,
  body: z
    .object({
      lines: z
        .array(
          z
            .object({
              position: z
                .number({ required_error: POSITION_INVALID, invalid_type_error: POSITION_INVALID })
                .int(POSITION_INVALID)
                .min(1, POSITION_INVALID)
                .max(9999, POSITION_INVALID),
              quantity: z
                .number({
                  required_error: "quantity is how many of the line to refund: a whole number from 1.",
                  invalid_type_error: "quantity is how many of the line to refund: a whole number from 1.",
                })
                .int("quantity is how many of the line to refund: a whole number from 1.")
                .min(1, "quantity is how many of the line to refund: a whole number from 1.")
                .max(10_000, "quantity is at most 10000."),
            })
            .strict("A line is { position, quantity }."),
          { invalid_type_error: "lines lists { position, quantity }; leave it out to refund the whole order." },
        )
        .min(1, "lines lists { position, quantity }; leave it out to refund the whole order.")
        .max(100, "lines lists at most 100 lines.")
        .optional()
        .describe("The lines and how many of each; left out, everything not refunded yet (the last refund adds the shipping)."),
      reason: refundReasonSchema,
    })
    .strict("The fields are lines and reason."),
  answers: {
    201: {
      description: "Refunded (or, at Stripe, asked for: `status` pending): the refund, and the order as it is now.",
      schema: orderAnd("refund", adminRefundSchema),
    },
    200: {
      description: "The same Idempotency-Key was sent before: that refund, as it is now.",
      schema: orderAnd("refund", adminRefundSchema),
    },
    404: orderNotFound,
    409: orderConflict("`conflict`: nothing is left to refund; `wrong_state`: the order has not been paid."),
    503: { description: "The payment provider did not accept the refund: nothing was refunded.", schema: apiErrorSchema },
  },
});

export const endpoints = [listReaders, getReader, unlockReader, listOrders, getOrder, fulfilOrder, refundOrder];
