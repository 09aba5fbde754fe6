// The spec's account copy (section 8), word for word where the spec quotes it.

import { CUSTOMER_SERVICE } from "~/app/lib/forms/cross-site";

export const INVALID_CREDENTIALS = "You have entered an invalid email and password combination. Please try again.";
export const RESTRICTED_USER = "We're having trouble verifying your account. Please contact our Customer Service team for assistance.";
export const USERNAME_UNAVAILABLE = "That username is unavailable. Sign in or choose another email address.";
export const RESET_SENT = "If your email is registered with us, you will receive an email with a link to reset your password.";
export const RESET_LOCKED = "You cannot unlock your account by resetting the password. Please wait 24 hours to unlock and try again.";
export const CURRENT_PASSWORD_REQUIRED = "Current Password is required";
export const CURRENT_PASSWORD_INVALID = "Current Password is invalid";
export const ADDRESS_BLOCKED = "This email address cannot be used for an account. Please contact our Customer Service team for assistance.";
export const PASSWORD_CHANGED = "Password successfully changed.";
export const LINK_DEAD = "This password reset link has expired or has already been used.";
export const CAPTCHA_REQUIRED = "reCAPTCHA is required.";
export const SIGN_IN_PENDING = "Success, you will now be redirected";
export const OPT_IN_DOMESTIC =
  "By registering, you agree to receive occasional emails from Meridian Review about new articles, events and offers. You can unsubscribe at any time.";
export const OPT_IN_OTHER = "Sign me up for email updates from Meridian Review about new articles, events and offers.";
/**
 * Under the opt-in, for EU visitors only. My account has no opt-in control and only newsletters
 * carry an unsubscribe link, so withdrawing goes through Customer Service.
 */
export const OPT_IN_EU_CONSENT = `We will only send you these emails if you tick this box. You can withdraw your consent at any time by writing to ${CUSTOMER_SERVICE.email}.`;

export function triesLeft(n: number): string {
  return `${INVALID_CREDENTIALS} You have ${n} ${n === 1 ? "try" : "tries"} left.`;
}

/** Spec: 3600 s or more in rounded hours, 60 s or more in rounded minutes, else seconds. */
export function formatWait(seconds: number): string {
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  if (seconds >= 3600) return unit(Math.round(seconds / 3600), "hour");
  if (seconds >= 60) return unit(Math.round(seconds / 60), "minute");
  return unit(Math.max(1, Math.round(seconds)), "second");
}

export function accountBlocked(seconds: number): string {
  return `Your account is blocked, please wait ${formatWait(seconds)} to unlock and try again. For immediate assistance, please contact Customer Service.`;
}

export function tooManyAttempts(seconds: number): string {
  return `Too many attempts from this connection or for this account. Please wait ${formatWait(seconds)} and try again.`;
}
