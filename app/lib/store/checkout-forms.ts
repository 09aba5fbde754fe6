import { z } from "zod";
import { ADDRESS_FIELDS, addressProblems, normalizeAddress } from "~/shared/address";
import { findShippingMethod } from "~/shared/shipping";
import { NEW_ADDRESS } from "~/app/lib/store/address-choice";
import { EMAIL_INVALID, REQUIRED, tooLong } from "~/app/lib/forms/messages";
import { EMAIL_PATTERN } from "~/app/lib/forms/validation";

/** What the shipping-and-payment form's buttons ask for. */
export const CHECKOUT_INTENTS = ["continue", "country", "promo"] as const;

export const CHOOSE_SHIPPING = "Please choose a shipping method.";

const text = z.string().max(2000, tooLong(2000)).default("");

/** The shipping-and-payment form's fields, before the checks that depend on the shopper and cart. */
export const shippingPaymentFields = z.object({
  intent: z.enum(CHECKOUT_INTENTS).default("continue"),
  email: text,
  addressChoice: text,
  firstName: text,
  lastName: text,
  address1: text,
  address2: text,
  city: text,
  state: text,
  postalCode: text,
  countryCode: text,
  saveAddress: z.string().optional(),
  shippingMethod: text,
  promoCode: text,
});

/**
 * The shipping-and-payment form. Only Continue validates: "Update" (the country's states,
 * without JS) and "Apply" (the promo code) keep whatever has been typed so far.
 */
export function shippingPaymentSchema(context: { guest: boolean; physical: boolean }) {
  return shippingPaymentFields.superRefine((v, ctx) => {
    if (v.intent !== "continue") return;
    if (context.guest) {
      const email = v.email.trim();
      if (!email) ctx.addIssue({ code: "custom", path: ["email"], message: REQUIRED });
      else if (email.length > 254 || !EMAIL_PATTERN.test(email)) ctx.addIssue({ code: "custom", path: ["email"], message: EMAIL_INVALID });
    }
    const usesNew = !v.addressChoice || v.addressChoice === NEW_ADDRESS;
    if (usesNew) {
      const problems = addressProblems(normalizeAddress(v));
      for (const field of ADDRESS_FIELDS) {
        const message = problems[field];
        if (message) ctx.addIssue({ code: "custom", path: [field], message });
      }
    }
    // A saved address's country is checked on the server, which knows the address.
    if (context.physical && (usesNew ? !findShippingMethod(v.countryCode.trim().toUpperCase(), v.shippingMethod) : !v.shippingMethod)) {
      ctx.addIssue({ code: "custom", path: ["shippingMethod"], message: CHOOSE_SHIPPING });
    }
  });
}

export const placeOrderSchema = z.object({
  idempotencyKey: z.string().min(1).max(100),
  shownTotal: z.coerce.number().int().min(0).max(100_000_000),
});
