import type { AppLoadContext } from "@remix-run/node";
import { changePassword, checkCurrentPassword, type CurrentPasswordCheck } from "~/server/accounts/change-password";
import { pendingEmailFor, requestEmailChange, type AddressRefusal } from "~/server/accounts/email-change";
import { requestPasswordReset, resetPassword } from "~/server/accounts/password-reset";
import { register } from "~/server/accounts/registration";
import { signIn } from "~/server/accounts/sign-in";
import { normalizeEmail, updateProfile, updateProfileAttributes, type ProfileAttributes, type User } from "~/server/accounts/users";
import { sendWelcome } from "~/server/accounts/welcome";
import { mailer } from "~/server/adapters/mail";
import { billingMail } from "~/server/billing/mail";
import { followedTargets, followedTopics } from "~/server/library/follows";
import { listCampaigns, listNewsletters } from "~/server/newsletters/catalog";
import { analyticsSubscriptions } from "~/server/readers/analytics";
import { readerById } from "~/server/readers/signed-in";
import { log } from "~/server/log";
import { carryOverReads } from "~/server/paywall/meter";
import {
  accountBlocked,
  ADDRESS_BLOCKED,
  CAPTCHA_REQUIRED,
  CURRENT_PASSWORD_INVALID,
  CURRENT_PASSWORD_REQUIRED,
  LINK_DEAD,
  RESET_LOCKED,
  RESTRICTED_USER,
  tooManyAttempts,
  triesLeft,
  USERNAME_UNAVAILABLE,
} from "./messages";
import { sendEmailConfirmation, sendPasswordChangedNotice, sendPasswordResetMail } from "./mail.server";
import { checkCaptcha, lockoutRules, rateLimit, type GuardedAction } from "./auth.server";
import { mergeCartAtSignIn } from "~/app/lib/store/cart.server";
import { config, db } from "~/app/lib/context/db.server";
import { requestContext } from "~/app/lib/context/request-context.server";
import { endCurrentSession, startSession } from "~/app/lib/context/session.server";
import { GENERIC_ERROR } from "~/app/lib/forms/cross-site";

// The account flows behind both the pages (sign-in, register, forgot and reset password, my
// account) and the service API (app/lib/api/groups/auth-user.ts): rate limits, captcha, lockouts
// and the spec's messages live here once. Each answers what happened; the page turns a problem
// into its form's errors, the API into a JSON error.

/** Why a flow stopped: an HTTP status, a stable code, the spec's message and where it shows. */
export interface AccountProblem {
  status: number;
  code: string;
  message: string;
  /** The form field the message belongs to; none for a message over the whole form. */
  field?: string;
  /** Spec markers: tries left before a lockout, and a lockout's length in seconds. */
  triesLeft?: number;
  lockoutSeconds?: number;
  /** For a 429: when to try again. */
  retryAfterSeconds?: number;
}

/** The per-client and per-account limits, then the captcha, as every guarded form has them. */
async function guard(
  request: Request,
  context: AppLoadContext,
  action: GuardedAction,
  account: string,
  reCaptchaToken: string | undefined,
): Promise<AccountProblem | undefined> {
  const limited = await rateLimit(request, context, action, account);
  if (!limited.allowed)
    return {
      status: 429,
      code: "too_many_attempts",
      message: tooManyAttempts(limited.retryAfterSeconds),
      retryAfterSeconds: limited.retryAfterSeconds,
    };
  const human = await checkCaptcha(request, context, reCaptchaToken, action);
  if (!human.ok)
    return human.reason === "missing"
      ? { status: 400, code: "captcha_required", message: CAPTCHA_REQUIRED }
      : { status: 400, code: "captcha_failed", message: GENERIC_ERROR };
  return undefined;
}

export type SignInOutcome = { ok: true; user: User; setCookie: string } | { ok: false; problem: AccountProblem };

type SignInInput = { username: string; password: string; reCaptchaToken?: string };

/** Sign-in (spec: POST /authenticate): on success a new session, whose Set-Cookie it gives. */
export async function signInFlow(request: Request, context: AppLoadContext, input: SignInInput): Promise<SignInOutcome> {
  const checked = await checkSignIn(request, context, input);
  return checked.ok ? { ...checked, setCookie: await startSession(requestContext({ request, context }), checked.user.id) } : checked;
}

/** Sign-in's checks (rate limit, captcha, lockout, password, restriction), starting no session. */
export async function checkSignIn(
  request: Request,
  context: AppLoadContext,
  input: SignInInput,
): Promise<{ ok: true; user: User } | { ok: false; problem: AccountProblem }> {
  const stopped = await guard(request, context, "sign-in", input.username, input.reCaptchaToken);
  if (stopped) return { ok: false, problem: stopped };
  const outcome = await signIn(await db(), input.username, input.password, lockoutRules());
  if (outcome.ok) return { ok: true, user: outcome.user };
  switch (outcome.reason) {
    case "locked":
      return {
        ok: false,
        problem: { status: 423, code: "locked", message: accountBlocked(outcome.lockoutSeconds), lockoutSeconds: outcome.lockoutSeconds },
      };
    case "restricted":
      return { ok: false, problem: { status: 403, code: "user_restricted", message: RESTRICTED_USER } };
    case "invalid":
      return {
        ok: false,
        problem: {
          status: 401,
          code: "invalid_credentials",
          // Spec §8: every wrong password counts the tries left, the first one too (ADR 056).
          message: triesLeft(outcome.triesLeft),
          triesLeft: outcome.triesLeft,
        },
      };
  }
}

export type RegisterOutcome =
  | { ok: true; user: User; setCookie: string }
  /** Codes: taken, user_restricted, print_subscriber (the address has a print subscription to link), or a guard's. */
  | { ok: false; problem: AccountProblem };

/**
 * Registration: on success the guest's reads this month move to the account, the welcome is
 * mailed (a failure is logged: the account is open either way), and a session starts.
 */
export async function registerFlow(
  request: Request,
  context: AppLoadContext,
  input: { firstName: string; lastName: string; emailAddress: string; password: string; optIn: boolean; reCaptchaToken?: string },
  /** Sent from the registration wall's form: its A/B tag, for the meter funnel (ADR 090). */
  wallTag: string | null = null,
): Promise<RegisterOutcome> {
  const stopped = await guard(request, context, "register", input.emailAddress, input.reCaptchaToken);
  if (stopped) return { ok: false, problem: stopped };
  const outcome = await register(await db(), {
    firstName: input.firstName,
    lastName: input.lastName,
    email: input.emailAddress,
    password: input.password,
    optIn: input.optIn,
    wallTag,
  });
  if (!outcome.ok) {
    switch (outcome.reason) {
      case "taken":
        return { ok: false, problem: { status: 409, code: "taken", message: USERNAME_UNAVAILABLE, field: "emailAddress" } };
      case "restricted":
        return { ok: false, problem: { status: 403, code: "user_restricted", message: RESTRICTED_USER } };
      case "print-subscriber":
        return { ok: false, problem: { status: 409, code: "print_subscriber", message: USERNAME_UNAVAILABLE, field: "emailAddress" } };
    }
  }
  // What the guest read this month stays counted on their new account.
  const visitor = await requestContext({ request, context }).knownVisitorId();
  if (visitor) await carryOverReads(await db(), visitor, outcome.user.id);
  const c = config();
  await sendWelcome(billingMail(c, mailer()), outcome.user, {
    kind: "registered",
    meter: { registered: c.METER_REGISTERED_LIMIT, guest: c.METER_GUEST_LIMIT },
  });
  return { ok: true, user: outcome.user, setCookie: await startSession(requestContext({ request, context }), outcome.user.id) };
}

/**
 * Forgot password: mails a reset link when the address has an account. Success says nothing
 * about whether it has (spec: the same sentence always); a locked or restricted one is refused.
 */
export async function forgotPasswordFlow(
  request: Request,
  context: AppLoadContext,
  input: { emailAddress: string; reCaptchaToken?: string },
): Promise<AccountProblem | undefined> {
  const stopped = await guard(request, context, "forgot-password", input.emailAddress, input.reCaptchaToken);
  if (stopped) return stopped;
  const outcome = await requestPasswordReset(await db(), input.emailAddress);
  if (outcome.outcome === "hard-locked") return { status: 423, code: "locked", message: RESET_LOCKED };
  if (outcome.outcome === "restricted") return { status: 403, code: "user_restricted", message: RESTRICTED_USER };
  if (outcome.outcome === "sent") {
    // Not awaited: an address with an account must not answer slower than one without.
    sendPasswordResetMail(outcome.user, outcome.token).catch((error: unknown) => log.error("password reset mail failed", { error }));
  }
  return undefined;
}

/**
 * A new password from a mailed link. Every session of the account ends, this browser's too:
 * the Set-Cookie clears it.
 */
export async function resetPasswordFlow(
  request: Request,
  context: AppLoadContext,
  input: { token: string; password: string },
): Promise<{ ok: true; setCookie: string } | { ok: false; problem: AccountProblem }> {
  const user = await resetPassword(await db(), input.token, input.password);
  if (!user) return { ok: false, problem: { status: 410, code: "link_dead", message: LINK_DEAD } };
  return { ok: true, setCookie: await endCurrentSession(requestContext({ request, context })) };
}

/** The current-password question is limited like sign-in: first a rate limit per account and client address… */
async function currentPasswordLimit(request: Request, context: AppLoadContext, user: User): Promise<AccountProblem | undefined> {
  const limited = await rateLimit(request, context, "current-password", user.email);
  return limited.allowed
    ? undefined
    : {
        status: 429,
        code: "too_many_attempts",
        message: tooManyAttempts(limited.retryAfterSeconds),
        field: "currentPassword",
        retryAfterSeconds: limited.retryAfterSeconds,
      };
}

/** …then the sign-in lockout itself. */
function currentPasswordProblem(checked: CurrentPasswordCheck | { outcome: "changed" }): AccountProblem | undefined {
  if (checked.outcome === "locked")
    return {
      status: 423,
      code: "locked",
      message: accountBlocked(checked.lockoutSeconds),
      field: "currentPassword",
      lockoutSeconds: checked.lockoutSeconds,
    };
  if (checked.outcome === "wrong-current")
    return { status: 400, code: "current_password_invalid", message: CURRENT_PASSWORD_INVALID, field: "currentPassword" };
  return undefined;
}

/**
 * The current-password question on its own (deleting the account, ADR 089): the same rate limit
 * and the same lockout as changing the password, and the same answers.
 */
export async function currentPasswordFlow(
  request: Request,
  context: AppLoadContext,
  user: User,
  password: string,
): Promise<AccountProblem | undefined> {
  return (
    (await currentPasswordLimit(request, context, user)) ??
    currentPasswordProblem(await checkCurrentPassword(await db(), user, password, lockoutRules()))
  );
}

/**
 * Changes the signed-in reader's password after checking the current one (this session stays,
 * every other one ends) and mails a notice.
 */
export async function changePasswordFlow(
  request: Request,
  context: AppLoadContext,
  user: User,
  input: { currentPassword: string; newPassword: string },
): Promise<AccountProblem | undefined> {
  const token = (await requestContext({ request, context }).sessionToken())!;
  const problem =
    (await currentPasswordLimit(request, context, user)) ??
    currentPasswordProblem(
      await changePassword(await db(), user, { current: input.currentPassword, next: input.newPassword }, token, lockoutRules()),
    );
  if (problem) return problem;
  await sendPasswordChangedNotice(user);
  return undefined;
}

const REFUSALS: Record<AddressRefusal, AccountProblem> = {
  taken: { status: 409, code: "taken", message: USERNAME_UNAVAILABLE, field: "emailAddress" },
  "print-subscriber": { status: 409, code: "taken", message: USERNAME_UNAVAILABLE, field: "emailAddress" },
  restricted: { status: 403, code: "address_blocked", message: ADDRESS_BLOCKED, field: "emailAddress" },
};

/**
 * Saves the profile (my account). A new address needs the current password and takes effect only
 * from the link mailed to it; `changesEmail` says the address is changing.
 */
export async function saveProfileFlow(
  request: Request,
  context: AppLoadContext,
  user: User,
  value: { displayName: string; emailAddress: string; industry: string; jobTitle: string; companySize: string; currentPassword?: string },
): Promise<{ ok: true; changesEmail: boolean } | { ok: false; problem: AccountProblem }> {
  const changesEmail = normalizeEmail(value.emailAddress) !== user.email;
  if (changesEmail) {
    if (!value.currentPassword)
      return {
        ok: false,
        problem: { status: 400, code: "current_password_required", message: CURRENT_PASSWORD_REQUIRED, field: "currentPassword" },
      };
    const problem =
      (await currentPasswordLimit(request, context, user)) ??
      currentPasswordProblem(await checkCurrentPassword(await db(), user, value.currentPassword, lockoutRules()));
    if (problem) return { ok: false, problem };
    const change = await requestEmailChange(await db(), user, value.emailAddress);
    if (change.outcome === "refused") return { ok: false, problem: REFUSALS[change.reason] };
    if (change.outcome === "sent" && !(await sendEmailConfirmation(user, change.email, change.token, "change")))
      return { ok: false, problem: { status: 503, code: "mail_failed", message: GENERIC_ERROR, field: "emailAddress" } };
  }
  await updateProfile(await db(), user.id, {
    displayName: value.displayName,
    industry: value.industry,
    jobTitle: value.jobTitle,
    companySize: value.companySize,
  });
  return { ok: true, changesEmail };
}

/** The reader's profile attributes (spec: "update profile attributes"). */
export function profileAttributes(user: User): ProfileAttributes {
  return { industry: user.industry, jobTitle: user.jobTitle, companySize: user.companySize };
}

/**
 * Saves only the profile's attributes, checked by the my-account form's own fields (the service
 * API's user/attributes); answers them as they now are.
 */
export async function saveProfileAttributesFlow(user: User, attributes: ProfileAttributes): Promise<ProfileAttributes> {
  await updateProfileAttributes(await db(), user.id, attributes);
  return attributes;
}

/**
 * Carries what this browser collected as a guest into the signed-in account, as signing in does
 * (startSession): the guest cart, whose lines it counts. A second call finds no guest cart and
 * moves nothing. A guest's meter reads are not carried: only registration does that.
 */
export async function carryOverGuestFlow(request: Request, context: AppLoadContext, user: User): Promise<{ cartLines: number }> {
  return { cartLines: await mergeCartAtSignIn(requestContext({ request, context }), user.id) };
}

/** A problem as a page form shows it: on its field, or over the whole form. */
export function formErrors(problem: AccountProblem): { formErrors?: string[]; fieldErrors?: Record<string, string[]> } {
  return problem.field ? { fieldErrors: { [problem.field]: [problem.message] } } : { formErrors: [problem.message] };
}

/** What a user fetch answers (spec: with newsletters, following and marketing campaigns), and the reader's subscriptions as the data layer tells them. */
export async function userProfile(user: User) {
  const database = await db();
  const now = new Date();
  const [pendingEmail, newsletterSlugs, topics, campaignIds, account] = await Promise.all([
    pendingEmailFor(database, user),
    followedTargets(database, user.id, "newsletter"),
    followedTopics(database, user.id),
    followedTargets(database, user.id, "campaign"),
    readerById(database, user.id, now),
  ]);
  const status = account?.subscriber ?? null;
  const [newsletters, campaigns] = await Promise.all([listNewsletters(database), listCampaigns(database)]);
  return {
    id: user.id,
    firstName: user.firstName,
    lastName: user.lastName,
    displayName: user.displayName,
    email: user.email,
    pendingEmail: pendingEmail ?? null,
    attributes: profileAttributes(user),
    optIn: user.optIn,
    createdDate: user.createdAt,
    newsletters: newsletters.filter((n) => newsletterSlugs.has(n.slug)).map((n) => ({ slug: n.slug, name: n.name })),
    following: topics.map((t) => ({ id: t.id, name: t.name, url: t.url })),
    marketingCampaigns: campaigns.filter((c) => campaignIds.has(c.id)).map((c) => ({ id: c.id, name: c.name })),
    subscriber: status ? { tier: status.tier.name, roleCodes: status.roleCodes, accessEnd: status.entitlements[0]!.accessEnd } : null,
    subscriptions: analyticsSubscriptions(account?.subscriptions ?? [], now),
  };
}
