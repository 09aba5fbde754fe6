import { z } from "zod";
import { COMP_TIERS, MAX_DAYS, MAX_MONTHS, REASON_MAX, REQUEST_KEY, type CompTier } from "~/shared/reader-service";

// Customer service's forms on a reader's page (ADR 087). Every one asks for a reason and carries
// the page's key, from which the action's own key is made (a replay then changes nothing).

export const REASON_REQUIRED = "Give a reason: it goes into the audit log.";
export const FORM_EXPIRED = "This form has expired: reload the page and try again.";
export const MAIL_REQUIRED = "Choose the mail to send again.";
export const ACCOUNT_NUMBER_REQUIRED = "Enter the print account number, as printed on the mailing label.";
export const DURATION_INVALID = `Enter how long: from 1 to ${MAX_DAYS} days, or from 1 to ${MAX_MONTHS} months.`;
export const TIER_REQUIRED = "Choose the tier.";
export const ENDS_ON_INVALID = "Enter the day it ends, as YYYY-MM-DD: after today, and within 5 years.";

const base = {
  key: z.string({ required_error: FORM_EXPIRED }).regex(REQUEST_KEY, FORM_EXPIRED),
  reason: z
    .string({ required_error: REASON_REQUIRED })
    .trim()
    .min(1, REASON_REQUIRED)
    .max(REASON_MAX, `Keep the reason within ${REASON_MAX} characters.`),
};

export const reasonSchema = z.object(base);

export const resendSchema = z.object({
  ...base,
  mail: z
    .string({ required_error: MAIL_REQUIRED })
    .regex(/^(verification|reset|receipt:[\w-]{1,64}|order:ord_[A-Za-z0-9_-]{22})$/, MAIL_REQUIRED),
});

const accountNumber = z
  .string({ required_error: ACCOUNT_NUMBER_REQUIRED })
  .trim()
  .regex(/^[A-Za-z0-9-]{1,32}$/, ACCOUNT_NUMBER_REQUIRED);

export const printSchema = z.object({ ...base, accountNumber });

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

const duration = {
  amount: z.coerce
    .number({ invalid_type_error: DURATION_INVALID, required_error: DURATION_INVALID })
    .int(DURATION_INVALID)
    .min(1, DURATION_INVALID),
  unit: z.enum(["days", "months"], { errorMap: () => ({ message: DURATION_INVALID }) }),
};

const withinLimit = <T extends { amount: number; unit: "days" | "months" }>(value: T, ctx: z.RefinementCtx) => {
  if (value.amount > (value.unit === "days" ? MAX_DAYS : MAX_MONTHS))
    ctx.addIssue({ code: "custom", path: ["amount"], message: DURATION_INVALID });
};

export const extendSchema = z
  .object({
    ...base,
    ...duration,
    subscription: z.string().regex(/^[\w-]{1,64}$/),
    accessEnd: z.string().regex(ISO_TIME),
  })
  .superRefine(withinLimit);

export const extendDownloadSchema = z
  .object({
    ...base,
    ...duration,
    order: z.string().regex(/^ord_[A-Za-z0-9_-]{22}$/),
    position: z.coerce.number().int().min(0).max(9999),
    expiresAt: z.string().regex(ISO_TIME),
  })
  .superRefine(withinLimit);

export const compSchema = z.object({
  ...base,
  tier: z.enum(Object.keys(COMP_TIERS) as [CompTier, ...CompTier[]], { errorMap: () => ({ message: TIER_REQUIRED }) }),
  endsOn: z
    .string({ required_error: ENDS_ON_INVALID })
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, ENDS_ON_INVALID),
});
