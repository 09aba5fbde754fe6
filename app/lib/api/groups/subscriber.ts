import { z } from "zod";
import { signInSchema, subscriberRegistrationSchema } from "~/app/lib/accounts/account-forms";
import { REQUIRED } from "~/app/lib/forms/messages";
import { requiredText } from "~/app/lib/forms/validation";
import { apiErrorSchema, endpoint, type Answer } from "~/app/lib/api/contract";

// Print subscribers and the subscription checkout (spec 7, "Auth and user"), over the same flows
// as /subscriber-registration and the subscription checkout's pages.

const TAG = "Subscriber";

const refusal = (description: string): Answer => ({ description, schema: apiErrorSchema });

const rateLimited: Answer = {
  description: "Too many attempts from this client or for this address (code too_many_attempts); Retry-After says when to try again.",
  schema: apiErrorSchema,
  headers: { "Retry-After": "Seconds to wait." },
};

const noActiveSubscription = refusal(
  'No active print subscription has this address and account number: "No Active Subscriptions Found" (code no_active_subscription).',
);

const subscriberState = z.object({
  tier: z.string().describe("The tier the reader reads at (Good, Better, Best, Executive, All Access)."),
  accessEnd: z.string().describe("When that access ends (ISO 8601)."),
});

const accountWithSubscription = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  subscriber: subscriberState.nullable().describe("The reader's subscription; null only while a print term has not begun."),
});

export const search = endpoint({
  method: "post",
  operationId: "searchSubscriber",
  path: "/api/user/subscriber/search",
  summary:
    "The subscriber lookup: the active print subscription (source CDS_US or CDS_UK, access not ended) with this address and account number. Each lookup counts against the subscriber registration page's rate limit.",
  tag: TAG,
  access: "public",
  body: subscriberRegistrationSchema.pick({ emailAddress: true, accountNumber: true }),
  answers: {
    200: {
      description:
        "Found. `new`: not yet connected to a web account; `userAccountExists`: a web account has this address (connect with /api/user/subscribe, else register with /api/user/subscriber/register).",
      schema: z.object({
        active: z.literal(true),
        subscriptions: z.array(
          z.object({
            accountNumber: z.string(),
            subscriptionCode: z.string(),
            tier: z.string(),
            accessStart: z.string().describe("The first day of the print term (YYYY-MM-DD)."),
            accessEnd: z.string().describe("The last day of the print term (YYYY-MM-DD)."),
          }),
        ),
        firstName: z.string(),
        lastName: z.string(),
        new: z.boolean(),
        userAccountExists: z.boolean(),
      }),
    },
    404: noActiveSubscription,
    429: rateLimited,
  },
});

/** The client's own id for one registration attempt, echoed in X-Registration-Id. */
export const registrationId = z
  .string({ required_error: REQUIRED })
  .regex(/^[A-Za-z0-9-]{8,64}$/, "Please enter a valid value into this field.");

/** The subscriber registration page's form, plus the client's id. */
export const registrationBody = subscriberRegistrationSchema.extend({ id: registrationId });

const registrationHeaders = {
  "X-Subscriber-Registration": "`success` when the account was made, `failed` on every refusal: this header decides success.",
  "X-Registration-Id": "The client's `id`, echoed (when the body held a valid one).",
};

const refusedRegistration = (description: string): Answer => ({ ...refusal(description), headers: registrationHeaders });

export const register = endpoint({
  method: "post",
  operationId: "registerSubscriber",
  path: "/api/user/subscriber/register",
  summary:
    "Opens a web account for a print subscriber, as /subscriber-registration does: the account is named as on the subscription record, gets the subscription's tier and signs in. `id` is a random id the client makes for the attempt (8 to 64 letters, digits or hyphens).",
  tag: TAG,
  access: "public",
  body: registrationBody,
  answers: {
    201: {
      description: "Registered, subscribed and signed in.",
      schema: accountWithSubscription,
      headers: { ...registrationHeaders, "Set-Cookie": "The new session cookie." },
    },
    400: refusedRegistration("The input is not valid: `fields` holds each field's errors."),
    404: refusedRegistration(
      'No active print subscription has this address and account number: "No Active Subscriptions Found" (code no_active_subscription).',
    ),
    409: refusedRegistration("The address already has a web account (code taken): connect it with /api/user/subscribe."),
    429: { ...rateLimited, headers: { ...registrationHeaders, ...rateLimited.headers } },
  },
});

export const subscribe = endpoint({
  method: "post",
  operationId: "linkSubscription",
  path: "/api/user/subscribe",
  summary:
    "An existing web account connects its print subscription. The password is checked as sign-in checks it (rate limit, captcha, lockout); the subscription must be recorded under the account's address, and that address must have been confirmed by a mailed link. A ticked `optIn` is kept.",
  tag: TAG,
  access: "public",
  body: z.object({
    emailAddress: subscriberRegistrationSchema.shape.emailAddress,
    accountNumber: subscriberRegistrationSchema.shape.accountNumber,
    password: signInSchema.shape.password,
    optIn: subscriberRegistrationSchema.shape.optIn,
    reCaptchaToken: signInSchema.shape.reCaptchaToken,
  }),
  answers: {
    200: {
      description: "Connected; the caller is signed in.",
      schema: accountWithSubscription,
      headers: { "Set-Cookie": "The new session cookie." },
    },
    202: refusal(
      "Nothing connected yet: the account's address has never been confirmed, so a link was mailed to it (code verify_email). Follow it, then call again.",
    ),
    400: refusal("The input is not valid (`fields`), or the captcha is missing (captcha_required) or failed (captcha_failed)."),
    401: {
      description: "Wrong e-mail address or password (code invalid_credentials); `tries_left` counts the tries before a lockout.",
      schema: apiErrorSchema.extend({ tries_left: z.number().int().min(0) }),
    },
    403: refusal("A restricted account (code user_restricted), or another site started the request (cross_site)."),
    404: noActiveSubscription,
    423: {
      description: "The account is locked (code locked); `lockout_duration` is the wait in seconds.",
      schema: apiErrorSchema.extend({ lockout_duration: z.number().int().min(0) }),
    },
    429: rateLimited,
    503: refusal("The confirmation link could not be mailed; nothing changed."),
  },
});

export const userRef = endpoint({
  method: "get",
  operationId: "getUserRef",
  path: "/service/user/userRef",
  summary: "The signed-in reader's references: as the payment provider knows them (checkout's customer) and as analytics does (guid).",
  tag: TAG,
  access: "reader",
  answers: {
    200: {
      description: "The references.",
      schema: z.object({
        userRef: z.string().describe("The customer the subscription checkout names to the payment provider: the account's e-mail address."),
        guid: z.string().describe("The account id, as the analytics data layer's `guid` and `accountID`."),
      }),
    },
  },
});

export const checkoutComplete = endpoint({
  method: "post",
  operationId: "checkoutComplete",
  path: "/api/user/subscribe/checkoutComplete",
  summary:
    "What the return from the payment provider does: asks the provider whether the reader's subscription checkout was paid and, once it was, grants the subscription. Safe to repeat: it grants once.",
  tag: TAG,
  access: "reader",
  body: z.object({ checkoutId: requiredText(100).describe("The checkout id (chk_…), as in /subscriptions/complete?checkout=…") }),
  answers: {
    200: {
      description:
        "The checkout: `active` once paid and granted (`subscriber` is the reader's subscription), `pending` while the provider does not report it paid. `uid` is the transaction id for /api/digitaldata/piano/transactionComplete.",
      schema: z.object({ status: z.enum(["active", "pending"]), subscriber: subscriberState.nullable(), uid: z.string() }),
    },
    404: refusal("No checkout of this reader has that id (code no_such_checkout)."),
  },
});

export const transactionComplete = endpoint({
  method: "get",
  operationId: "transactionComplete",
  path: "/api/digitaldata/piano/transactionComplete",
  summary: "The analytics data of one of the reader's completed subscription purchases (the receipt's facts).",
  tag: TAG,
  access: "reader",
  query: z.object({ uid: requiredText(100).describe("The transaction id: checkoutComplete's `uid`.") }),
  answers: {
    200: {
      description: "The transaction.",
      schema: z.object({
        transactionId: z.string(),
        plan: z.string().describe("The plan's name, as on the receipt."),
        planId: z.string(),
        tier: z.string(),
        term: z.enum(["month", "year"]).describe("What one payment buys."),
        price: z.number().describe("The amount paid, in `currency`."),
        currency: z.literal("USD"),
        date: z.string().describe("When the purchase completed (ISO 8601)."),
      }),
    },
    404: refusal("No completed purchase of this reader has that id (code no_such_transaction)."),
  },
});

export const endpoints = [search, register, subscribe, userRef, checkoutComplete, transactionComplete];
