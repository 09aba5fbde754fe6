import type { LockoutRules } from "~/server/accounts/sign-in";
import { normalizeEmail } from "~/server/accounts/users";
import { captcha } from "~/server/adapters/captcha";
import { hitAll, type RateLimitResult, type RateLimitRule } from "~/server/http/rate-limit";
import type { AppLoadContext } from "@remix-run/node";
import { requestContext } from "~/app/lib/context/request-context.server";
import { config, db } from "~/app/lib/context/db.server";

/** Sign-in and every current-password question share one lockout (ADR 008, 021). */
export function lockoutRules(): LockoutRules {
  const c = config();
  return { maxFailures: c.LOGIN_MAX_FAILURES, lockoutSeconds: c.LOGIN_LOCKOUT_SECONDS };
}

/** "second-factor": a staff member's code at the desk's door or at enrolment (ADR 072). */
export type GuardedAction = "sign-in" | "register" | "forgot-password" | "current-password" | "second-factor";

/**
 * Counts a post against the per-address and per-account limits. The address is the client's own
 * (see clientAddress); where no address is known (remix-serve without a proxy header) only the
 * per-account limit applies: one shared bucket would let one client lock everybody out.
 */
export async function rateLimit(
  request: Request,
  context: AppLoadContext,
  action: GuardedAction,
  account: string,
): Promise<RateLimitResult> {
  const c = config();
  const window = c.RATE_LIMIT_WINDOW_SECONDS;
  const ip = requestContext({ request, context }).clientAddress;
  const hits: [string, RateLimitRule][] = [
    [`${action}:account:${normalizeEmail(account)}`, { limit: c.RATE_LIMIT_PER_ACCOUNT, windowSeconds: window }],
  ];
  if (ip) hits.push([`${action}:ip:${ip}`, { limit: c.RATE_LIMIT_PER_IP, windowSeconds: window }]);
  return hitAll(await db(), hits);
}

/** Spec actions: sign in, register and forgot password each have their own captcha action. */
export async function checkCaptcha(request: Request, context: AppLoadContext, token: string | undefined, action: GuardedAction) {
  return captcha().verify(token, action.replace("-", "_"), requestContext({ request, context }).clientAddress ?? undefined);
}
