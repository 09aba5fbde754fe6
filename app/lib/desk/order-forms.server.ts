import { z } from "zod";
import { CARRIERS } from "~/server/store/fulfilment/carriers";

// The desk order page's forms (ADR 086). Each carries a token from the page it was shown on: the
// same form sent twice (a double click, a reload after a failed answer) is one dispatch or refund.

const token = z.string({ required_error: "This form has expired: reload the page and try again." }).regex(/^[A-Za-z0-9_-]{16,64}$/, {
  message: "This form has expired: reload the page and try again.",
});

const reason = z
  .string({ required_error: "Say why, for the audit log: up to 500 characters." })
  .trim()
  .min(1, "Say why, for the audit log: up to 500 characters.")
  .max(500, "Say why, for the audit log: up to 500 characters.");

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
    trackingNumber: z
      .string({ required_error: "Enter the tracking number: letters, digits, spaces and hyphens, up to 40." })
      .trim()
      .regex(/^[A-Za-z0-9][A-Za-z0-9 -]{0,39}$/, "Enter the tracking number: letters, digits, spaces and hyphens, up to 40."),
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
