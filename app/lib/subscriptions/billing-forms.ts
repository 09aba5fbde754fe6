import { z } from "zod";
import { billingAddressProblems, readBillingAddress } from "~/shared/billing-address";
import { tooLong } from "~/app/lib/forms/messages";

// The billing forms' schemas: the address sales tax follows (ADR 070), at checkout and in
// Subscription and billing. Its rules are shared/billing-address.ts's, which server/billing
// applies again: these give conform their messages before a submit.

const code = z.string().max(8, "Please choose from the list.").default("");
const text = (max: number) =>
  z
    .string()
    .trim()
    .max(max, tooLong(max + 1))
    .default("");

const addressRules = (value: { countryCode: string; region: string }, ctx: z.RefinementCtx) => {
  for (const [path, message] of Object.entries(billingAddressProblems(readBillingAddress(value))))
    ctx.addIssue({ code: "custom", path: [path], message });
};

/** The country and, in the US and Canada, the state or province. */
export const billingAddressSchema = z.object({ countryCode: code, region: code }).superRefine(addressRules);

/** The checkout's last step: the address reviewed, the company and tax id printed on the invoices, and the form's key. */
export const checkoutPaySchema = z
  .object({ countryCode: code, region: code, company: text(100), taxId: text(40), checkoutKey: z.string().max(100).optional() })
  .superRefine(addressRules);
