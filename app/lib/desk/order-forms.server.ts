import { z } from "zod";
import { CARRIERS } from "~/server/store/fulfilment/carriers";
import type { FulfilOutcome } from "~/server/store/fulfilment/shipments";
import type { RefundProblem } from "~/server/store/refunds/refunds";

// The desk order page's forms (ADR 086). Each carries a token from the page it was shown on: the
// same form sent twice (a double click, a reload after a failed answer) is one dispatch or refund.

/** Why a refund or cancellation did nothing: its HTTP status and what the desk (and the Admin API) says. */
export const REFUND_PROBLEMS: Record<RefundProblem, [number, string]> = {
  "not-found": [404, "No such order."],
  "not-refundable": [409, "This order has not been paid, so there is nothing to refund."],
  "nothing-left": [409, "Everything paid for this order has been refunded already."],
  "bad-lines": [400, "Refund at most what is left of each line."],
  shipped: [409, "Part of this order has been dispatched, so it can no longer be cancelled: refund its lines instead."],
  provider: [503, "The payment provider did not accept the refund just now, so nothing was refunded. Please try again in a few minutes."],
};

/** Why a dispatch did nothing. */
export const FULFIL_PROBLEMS: Record<Exclude<Extract<FulfilOutcome, { ok: false }>["problem"], "not-found">, string> = {
  "not-paid": "This order is not paid, or was cancelled, so nothing in it can be dispatched.",
  "not-shippable": "Choose lines that go by post and have not been refunded.",
  "already-shipped": "Some of these lines have been dispatched already.",
};

/** A tracking number as the desk and the Admin API take it. */
export const TRACKING_NUMBER_INVALID = "Enter the tracking number: letters, digits, spaces and hyphens, up to 40.";
export const trackingNumberSchema = z
  .string({ required_error: TRACKING_NUMBER_INVALID, invalid_type_error: TRACKING_NUMBER_INVALID })
  .trim()
  .regex(/^[A-Za-z0-9][A-Za-z0-9 -]{0,39}$/, TRACKING_NUMBER_INVALID);

export const REASON_INVALID = "Say why, for the audit log: up to 500 characters.";

const token = z.string({ required_error: "This form has expired: reload the page and try again." }).regex(/^[A-Za-z0-9_-]{16,64}$/, {
  message: "This form has expired: reload the page and try again.",
});

/** A refund's or a cancellation's reason, for the audit log. */
export const refundReasonSchema = z
  .string({ required_error: REASON_INVALID, invalid_type_error: REASON_INVALID })
  .trim()
  .min(1, REASON_INVALID)
  .max(500, REASON_INVALID);
const reason = refundReasonSchema;

export const CARRIER_OTHER = "other";

export const fulfilSchema = z
  .object({
    token,
    lines: z
      .array(z.coerce.number().int().min(0).max(9999), { required_error: "Choose the lines in this parcel." })
      .min(1, "Choose the lines in this parcel."),
    carrier: z.enum([CARRIER_OTHER, ...CARRIERS.map((c) => c.id)], {
      errorMap: () => ({ message: "Choose the carrier." }),
    }),
    otherCarrier: z.string().trim().max(60, "Name the carrier in up to 60 characters.").optional(),
    trackingNumber: trackingNumberSchema,
  })
  .refine((v) => v.carrier !== CARRIER_OTHER || Boolean(v.otherCarrier), {
    path: ["otherCarrier"],
    message: "Name the carrier.",
  });

export const deliverSchema = z.object({ shipment: z.string().uuid() });

export const cancelSchema = z.object({ token, reason });

/** Quantities arrive as `qty-{position}` fields; a blank or 0 leaves the line out. */
export const refundSchema = z.object({ token, reason });

export function refundQuantities(form: FormData): { lines: { position: number; quantity: number }[]; unreadable: boolean } {
  const lines: { position: number; quantity: number }[] = [];
  let unreadable = false;
  for (const [name, value] of form) {
    const m = /^qty-(\d{1,4})$/.exec(name);
    if (!m || typeof value !== "string" || value.trim() === "") continue;
    const quantity = Number(value);
    if (!Number.isInteger(quantity) || quantity < 0 || quantity > 10_000) unreadable = true;
    else if (quantity > 0) lines.push({ position: Number(m[1]), quantity });
  }
  return { lines, unreadable };
}
