import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { signIn, type SignInResult } from "../../server/accounts/sign-in";
import { normalizeEmail } from "../../server/accounts/users";
import { captcha } from "../../server/adapters/captcha";
import { clientIp } from "../../server/client-ip";
import { hitAll, type RateLimitResult } from "../../server/rate-limit";
import { config, db } from "./db.server";

/** Password sign-in through remix-auth's form strategy; the answer says why a sign-in failed. */
export const authenticator = new Authenticator<SignInResult>();

authenticator.use(
  new FormStrategy(async ({ form }) => {
    const c = config();
    return signIn(await db(), String(form.get("username") ?? ""), String(form.get("password") ?? ""), {
      maxFailures: c.LOGIN_MAX_FAILURES,
      lockoutSeconds: c.LOGIN_LOCKOUT_SECONDS,
    });
  }),
  "password",
);

export type GuardedAction = "sign-in" | "register" | "forgot-password";

/**
 * Counts a post against the per-address and per-account limits. Without CLIENT_IP_HEADER the
 * client address is unknown and all such posts share one "direct" bucket.
 */
export async function rateLimit(request: Request, action: GuardedAction, account: string): Promise<RateLimitResult> {
  const c = config();
  const window = c.RATE_LIMIT_WINDOW_SECONDS;
  const ip = clientIp(request, c.CLIENT_IP_HEADER) ?? "direct";
  return hitAll(await db(), [
    [`${action}:ip:${ip}`, { limit: c.RATE_LIMIT_PER_IP, windowSeconds: window }],
    [`${action}:account:${normalizeEmail(account)}`, { limit: c.RATE_LIMIT_PER_ACCOUNT, windowSeconds: window }],
  ]);
}

/** Spec actions: sign in, register and forgot password each have their own captcha action. */
export async function checkCaptcha(request: Request, token: string | undefined, action: GuardedAction) {
  return captcha().verify(token, action.replace("-", "_"), clientIp(request, config().CLIENT_IP_HEADER) ?? undefined);
}
