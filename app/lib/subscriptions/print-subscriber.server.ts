import type { AppLoadContext } from "@remix-run/node";
import { requestAddressVerification } from "~/server/accounts/email-change";
import {
  linkPrintSubscription,
  lookUpPrintSubscriber,
  recordOptIn,
  registerPrintSubscriber,
  type PrintSubscriberLookup,
} from "~/server/accounts/print-subscribers";
import type { User } from "~/server/accounts/users";
import { sendWelcome } from "~/server/accounts/welcome";
import { mailer } from "~/server/adapters/mail";
import { billingMail } from "~/server/billing/mail";
import { subscriberStatus } from "~/server/subscriptions/entitlements";
import { checkSignIn, type AccountProblem } from "~/app/lib/accounts/flows.server";
import { sendEmailConfirmation } from "~/app/lib/accounts/mail.server";
import { tooManyAttempts, USERNAME_UNAVAILABLE } from "~/app/lib/accounts/messages";
import { rateLimit } from "~/app/lib/accounts/auth.server";
import { config, db } from "~/app/lib/context/db.server";
import { requestContext } from "~/app/lib/context/request-context.server";
import { startSession } from "~/app/lib/context/session.server";
import { GENERIC_ERROR } from "~/app/lib/forms/cross-site";

// The print-subscriber flows behind both /subscriber-registration and the service API's
// subscriber calls (app/lib/api/groups/subscriber.ts): the lookup's rate limit, registering or
// linking a print subscription, and the spec's refusals, once.

/** Spec section 8: no active subscriber found. */
export const NO_ACTIVE_SUBSCRIPTION = "No Active Subscriptions Found";

const noActiveSubscription: AccountProblem = { status: 404, code: "no_active_subscription", message: NO_ACTIVE_SUBSCRIPTION };

type Outcome<T> = ({ ok: true } & T) | { ok: false; problem: AccountProblem };

/**
 * Every look at a print subscription counts against the registration limits of the address (and
 * of the client), so account numbers cannot be tried one after another.
 */
async function lookupLimit(request: Request, context: AppLoadContext, email: string): Promise<AccountProblem | undefined> {
  const limited = await rateLimit(request, context, "register", email);
  if (limited.allowed) return undefined;
  return {
    status: 429,
    code: "too_many_attempts",
    message: tooManyAttempts(limited.retryAfterSeconds),
    retryAfterSeconds: limited.retryAfterSeconds,
  };
}

/** Spec "Subscriber lookup": the active subscription with this address and account number. */
export async function subscriberLookupFlow(
  request: Request,
  context: AppLoadContext,
  input: { emailAddress: string; accountNumber: string },
): Promise<Outcome<{ lookup: PrintSubscriberLookup }>> {
  const stopped = await lookupLimit(request, context, input.emailAddress);
  if (stopped) return { ok: false, problem: stopped };
  const lookup = await lookUpPrintSubscriber(await db(), input.emailAddress, input.accountNumber);
  return lookup ? { ok: true, lookup } : { ok: false, problem: noActiveSubscription };
}

/** A print subscriber opens a web account (named as on their record), is mailed the welcome and is signed in. */
export async function registerSubscriberFlow(
  request: Request,
  context: AppLoadContext,
  input: { emailAddress: string; accountNumber: string; password: string; optIn: boolean },
): Promise<Outcome<{ user: User; setCookie: string }>> {
  const stopped = await lookupLimit(request, context, input.emailAddress);
  if (stopped) return { ok: false, problem: stopped };
  const outcome = await registerPrintSubscriber(await db(), {
    email: input.emailAddress,
    accountNumber: input.accountNumber,
    password: input.password,
    optIn: input.optIn,
  });
  if (!outcome.ok)
    return {
      ok: false,
      problem:
        outcome.reason === "taken"
          ? { status: 409, code: "taken", message: USERNAME_UNAVAILABLE, field: "emailAddress" }
          : noActiveSubscription,
    };
  const status = await subscriberStatus(await db(), outcome.user.id);
  await sendWelcome(billingMail(config(), mailer()), outcome.user, {
    kind: "subscriber",
    tier: status?.tier.caption ?? status?.tier.name ?? "Meridian Review",
  });
  return { ok: true, user: outcome.user, setCookie: await startSession(requestContext({ request, context }), outcome.user.id) };
}

/**
 * A signed-in reader connects a print subscription recorded under their own address. An address
 * never proven is sent a link first ("verification-sent"): the subscription moves only once it
 * has been followed.
 */
export async function linkSubscriptionFlow(
  request: Request,
  context: AppLoadContext,
  user: User,
  accountNumber: string,
): Promise<Outcome<{ outcome: "linked" | "verification-sent" }>> {
  const stopped = await lookupLimit(request, context, user.email);
  if (stopped) return { ok: false, problem: stopped };
  const outcome = await linkPrintSubscription(await db(), user, accountNumber);
  if (outcome === "no-active-subscription") return { ok: false, problem: noActiveSubscription };
  if (outcome === "linked") return { ok: true, outcome };
  const token = await requestAddressVerification(await db(), user);
  if (!(await sendEmailConfirmation(user, user.email, token, "verify")))
    return { ok: false, problem: { status: 503, code: "mail_failed", message: GENERIC_ERROR } };
  return { ok: true, outcome: "verification-sent" };
}

/**
 * An existing account connects its print subscription by its e-mail address and password (spec:
 * POST /api/user/subscribe): sign-in's checks and lockout, then the page's linking. The caller
 * is signed in once the subscription is connected; a tick in `optIn` is kept then too.
 */
export async function subscribeFlow(
  request: Request,
  context: AppLoadContext,
  input: { emailAddress: string; accountNumber: string; password: string; optIn: boolean; reCaptchaToken?: string },
): Promise<Outcome<{ user: User } & ({ outcome: "linked"; setCookie: string } | { outcome: "verification-sent" })>> {
  const checked = await checkSignIn(request, context, {
    username: input.emailAddress,
    password: input.password,
    reCaptchaToken: input.reCaptchaToken,
  });
  if (!checked.ok) return checked;
  const { user } = checked;
  const linked = await linkSubscriptionFlow(request, context, user, input.accountNumber);
  if (!linked.ok) return linked;
  if (linked.outcome === "verification-sent") return { ok: true, user, outcome: linked.outcome };
  if (input.optIn) await recordOptIn(await db(), user.id);
  return { ok: true, user, outcome: linked.outcome, setCookie: await startSession(requestContext({ request, context }), user.id) };
}

/** The reader's subscription as the API shows it: the tier they read at and when that access ends. */
export async function subscriberState(userId: string): Promise<{ tier: string; accessEnd: string } | null> {
  const status = await subscriberStatus(await db(), userId);
  return status && { tier: status.tier.name, accessEnd: status.entitlements[0]!.accessEnd };
}
