import { z } from "zod";
import {
  changePasswordSchema,
  forgotPasswordSchema,
  modalRegistrationSchema,
  profileSchema,
  resetPasswordSchema,
  signInSchema,
} from "~/app/lib/accounts/account-forms";
import { apiErrorSchema, endpoint } from "~/app/lib/api/contract";
import { SUBSCRIPTION_STATUSES } from "~/shared/subscription-statuses";

// Signing in and out, registering, passwords and the reader's profile (spec 7), over the same
// flows as the pages (app/lib/accounts/flows.server.ts).

/** The spec sends the device with sign-in, registration and forgot password; only WEB_SITE is known. */
const deviceType = z.string().max(40).optional();

const accountSchema = z.object({ id: z.string(), name: z.string(), email: z.string() });

/** A refusal: `{ code, message }`, with `fields` when it belongs to a field of the page form. */
const refusal = (description: string) => ({ description, schema: apiErrorSchema });

const rateLimited = {
  description: "Too many attempts from this client or for this account (code too_many_attempts); Retry-After says when to try again.",
  schema: apiErrorSchema,
  headers: { "Retry-After": "Seconds to wait." },
};

const messageSchema = z.object({ message: z.string() });

export const authenticate = endpoint({
  method: "post",
  operationId: "authenticate",
  path: "/authenticate",
  summary:
    "Signs in with the e-mail address and password (a form or JSON), under the sign-in page's rate limit, captcha and lockout. Success starts a new session (Set-Cookie) and answers the account.",
  tag: "User",
  access: "public",
  body: signInSchema.extend({ deviceType }),
  answers: {
    200: { description: "Signed in.", schema: accountSchema, headers: { "Set-Cookie": "The new session cookie." } },
    400: refusal("The input is not valid (`fields`), or the captcha is missing (captcha_required) or failed (captcha_failed)."),
    401: {
      description: "Wrong e-mail address or password (code invalid_credentials); `tries_left` counts the tries before a lockout.",
      schema: apiErrorSchema.extend({ tries_left: z.number().int().min(0) }),
    },
    403: refusal("A restricted account (code user_restricted), or another site started the request (cross_site)."),
    423: {
      description: "The account is locked (code locked); `lockout_duration` is the wait in seconds.",
      schema: apiErrorSchema.extend({ lockout_duration: z.number().int().min(0) }),
    },
    429: rateLimited,
  },
});

export const logout = endpoint({
  method: "get",
  operationId: "logout",
  path: "/logout",
  summary:
    "Signs out and goes to `return` (a path on this site). Against cross-site sign-out, a GET signs out only when it comes from this site: Sec-Fetch-Site same-origin or none (a browser's address bar; a client that is not a browser sends `Sec-Fetch-Site: none`), or, from a browser that sends no Sec-Fetch-Site, a Referer on this site. Any other GET answers the HTML page with a Sign out button (a same-site POST) and signs nobody out.",
  tag: "User",
  access: "public",
  query: z.object({ return: z.string().max(2000).optional() }),
  answers: {
    200: { description: "Not signed out: the HTML page asking to confirm with its Sign out button." },
    303: {
      description: "Signed out: the session has ended and its cookie is cleared.",
      headers: {
        Location: "The `return` path (the home page if it is not a path on this site).",
        "Set-Cookie": "Clears the session cookie.",
      },
    },
  },
});

/** The profile's attributes, each one of the my-account form's choices ("" when not answered). */
const attributesFields = z.object({ industry: z.string(), jobTitle: z.string(), companySize: z.string() });

export const profileFields = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  displayName: z.string(),
  email: z.string(),
  /** A new address waiting for its mailed link to be followed. */
  pendingEmail: z.string().nullable(),
  attributes: attributesFields,
  optIn: z.boolean(),
  createdDate: z.string(),
  newsletters: z.array(z.object({ slug: z.string(), name: z.string() })),
  following: z.array(z.object({ id: z.number().int(), name: z.string(), url: z.string() })),
  marketingCampaigns: z.array(z.object({ id: z.string(), name: z.string() })),
  subscriber: z.object({ tier: z.string(), roleCodes: z.array(z.string()), accessEnd: z.string() }).nullable(),
  /** Every subscription of the reader, oldest first, told as the analytics data layer tells them (spec section 3). */
  subscriptions: z.array(
    z.object({
      subscriptionSourceCode: z.string(),
      subscriptionStatus: z.enum(SUBSCRIPTION_STATUSES),
      timesRenewed: z.number().int(),
      orderValue: z.number().nullable(),
      country: z.string().nullable(),
      termTitle: z.string(),
      accountNumber: z.string().nullable(),
      purchaseDate: z.string(),
      subscriptionAccessPeriod: z.object({ start: z.string(), expiration: z.string() }),
    }),
  ),
});

export const profile = endpoint({
  method: "get",
  operationId: "getProfile",
  path: "/service/user/profile",
  summary: "The signed-in reader's profile, with the newsletters, topics and marketing campaigns they follow and their subscription.",
  tag: "User",
  access: "reader",
  answers: { 200: { description: "The profile.", schema: profileFields } },
});

export const profileHead = endpoint({
  method: "head",
  operationId: "checkSignedIn",
  path: "/service/user/profile",
  summary: "Whether a reader is signed in: 200, or 401 when not; no body.",
  tag: "User",
  access: "reader",
  answers: { 200: { description: "Signed in." } },
});

export const saveProfile = endpoint({
  method: "post",
  operationId: "saveProfile",
  path: "/service/user/profile",
  summary:
    "Saves the profile as the my-account page does. A new e-mail address needs `currentPassword` and takes effect only from the link mailed to it (see `pendingEmail`).",
  tag: "User",
  access: "reader",
  body: profileSchema,
  answers: {
    200: { description: "Saved: the profile as it now is.", schema: profileFields },
    400: refusal("The input is not valid, or the current password is missing or wrong: `fields` holds each field's errors."),
    403: refusal("The new address cannot be used (address_blocked), or another site started the request (cross_site)."),
    409: refusal("The new address belongs to another account (code taken)."),
    423: refusal("The current-password question is locked, as sign-in is (code locked)."),
    429: rateLimited,
    503: refusal("The confirmation mail to the new address could not be sent; nothing was changed."),
  },
});

export const attributes = endpoint({
  method: "get",
  operationId: "getAttributes",
  path: "/service/user/attributes",
  summary: "The signed-in reader's profile attributes: industry, job title and company size.",
  tag: "User",
  access: "reader",
  answers: { 200: { description: "The attributes.", schema: attributesFields } },
});

export const saveAttributes = endpoint({
  method: "post",
  operationId: "saveAttributes",
  path: "/service/user/attributes",
  summary:
    "Saves the profile attributes with the my-account form's fields and choices. The three are saved together: one left out or blank is cleared, as on the form.",
  tag: "User",
  access: "reader",
  body: profileSchema.pick({ industry: true, jobTitle: true, companySize: true }),
  answers: { 200: { description: "Saved: the attributes as they now are.", schema: attributesFields } },
});

export const migrate = endpoint({
  method: "post",
  operationId: "migrateGuestData",
  path: "/service/user/migrate",
  summary:
    "Carries what this browser collected as a guest into the signed-in account, as signing in does: the guest cart (cart cookie) moves into the reader's cart. " +
    "A guest's meter reads move only at registration, so none are waiting. A second call finds nothing left and moves nothing.",
  tag: "User",
  access: "reader",
  answers: {
    200: {
      description:
        "What was carried over: `cartLines` counts the guest cart's lines now in the reader's cart (0 when there was nothing to carry).",
      schema: z.object({ cartLines: z.number().int().min(0), message: z.string() }),
    },
  },
});

const changePasswordFields = changePasswordSchema.innerType().shape;

export const changePassword = endpoint({
  method: "post",
  operationId: "changePassword",
  path: "/service/user/password",
  summary:
    "Changes the signed-in reader's password (spec: current, password) under the same lockout as sign-in; their other sessions end and a notice is mailed.",
  tag: "User",
  access: "reader",
  body: z.object({ current: changePasswordFields.currentPassword, password: changePasswordFields.newPassword }),
  answers: {
    200: { description: "Changed.", schema: messageSchema },
    400: refusal(
      'The input is not valid, or the current password is wrong ("Current Password is invalid", code current_password_invalid).',
    ),
    423: refusal("Locked after too many wrong answers (code locked)."),
    429: rateLimited,
  },
});

const forgotAnswers = {
  200: {
    description: "Always the spec's sentence, whether or not the address has an account; a link is mailed when it has.",
    schema: messageSchema,
  },
  400: refusal("The input is not valid (`fields`), or the captcha is missing or failed."),
  403: refusal("A restricted account (code user_restricted), or another site started the request (cross_site)."),
  423: refusal("The account is locked for a day; a reset cannot unlock it (code locked)."),
  429: rateLimited,
};

export const forgotPassword = endpoint({
  method: "post",
  operationId: "forgotPassword",
  path: "/service/user/forgot-password",
  summary: "Mails a link to choose a new password (spec: email), as the forgot-password page does.",
  tag: "User",
  access: "public",
  body: z.object({ email: forgotPasswordSchema.shape.emailAddress, reCaptchaToken: forgotPasswordSchema.shape.reCaptchaToken }),
  answers: forgotAnswers,
});

export const forgotPasswordApi = endpoint({
  method: "post",
  operationId: "forgotPasswordApi",
  path: "/api/user/forgotpassword",
  summary: "The same as /service/user/forgot-password, with the spec's field names (emailAddress, reCaptchaToken, deviceType).",
  tag: "User",
  access: "public",
  body: forgotPasswordSchema.extend({ deviceType }),
  answers: forgotAnswers,
});

export const resetPassword = endpoint({
  method: "post",
  operationId: "resetPassword",
  path: "/service/user/reset-password",
  summary:
    "Sets a new password with the token from a mailed link (spec: password, token). Every session of the account ends, the caller's too (its cookie is cleared).",
  tag: "User",
  access: "public",
  body: z.object({ token: resetPasswordSchema.innerType().shape.token, password: resetPasswordSchema.innerType().shape.newPassword }),
  answers: {
    200: { description: "Changed; sign in with the new password.", schema: messageSchema },
    410: refusal("The link has expired or has already been used (code link_dead)."),
  },
});

export const register = endpoint({
  method: "post",
  operationId: "register",
  path: "/api/user/register",
  summary:
    "Creates an account as the registration page does (rate limit, captcha); success signs the reader in (Set-Cookie) and keeps the reads of this month's meter. " +
    "`optIn` is a JSON boolean, or a form's \"on\" for a ticked box; `deviceType` is the client's (WEB_SITE for the site).",
  tag: "User",
  access: "public",
  body: modalRegistrationSchema.extend({ deviceType }),
  answers: {
    201: { description: "Registered and signed in.", schema: accountSchema, headers: { "Set-Cookie": "The new session cookie." } },
    400: refusal("The input is not valid (`fields`), or the captcha is missing or failed."),
    403: refusal("The address cannot be used (code user_restricted), or another site started the request (cross_site)."),
    409: refusal(
      "That username is unavailable (code taken), or the address has a print subscription to link through subscriber registration (print_subscriber).",
    ),
    429: rateLimited,
  },
});

export const serviceRegister = endpoint({
  ...register,
  operationId: "serviceRegister",
  path: "/service/user/register",
  summary: "The twin of POST /api/user/register (spec: user/register under /service/): the same body, flow and answers.",
});

export const recaptchaEnabled = endpoint({
  method: "get",
  operationId: "getRecaptchaEnabled",
  path: "/api/recaptcha/enabled",
  summary:
    "Whether sign-in, registration and forgot password ask for a reCAPTCHA token. A client that cannot reach this call should assume they do.",
  tag: "User",
  access: "public",
  answers: { 200: { description: "Whether the captcha is on.", schema: z.object({ enabled: z.boolean() }) } },
});

export const endpoints = [
  authenticate,
  logout,
  profile,
  profileHead,
  saveProfile,
  attributes,
  saveAttributes,
  migrate,
  changePassword,
  forgotPassword,
  forgotPasswordApi,
  resetPassword,
  register,
  serviceRegister,
  recaptchaEnabled,
];
