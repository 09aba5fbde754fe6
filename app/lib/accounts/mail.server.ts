import { EMAIL_LINK_HOURS } from "~/shared/email-change";
import { RESET_LINK_MINUTES } from "~/server/accounts/password-reset";
import type { User } from "~/server/accounts/users";
import { mailer } from "~/server/adapters/mail";
import { config } from "~/app/lib/context/db.server";
import { CUSTOMER_SERVICE, SITE_NAME } from "~/app/lib/forms/cross-site";
import { log } from "~/server/log";

// The mail an account change sends: the confirmation link to a new (or unverified) address,
// and the notices that tell the account's owner something changed.

const IF_NOT_YOU = `If you did not make this change, someone else may know your password: contact Customer Service at once (${CUSTOMER_SERVICE.email}, ${CUSTOMER_SERVICE.phoneUsCanada} in the US and Canada, ${CUSTOMER_SERVICE.phoneInternational} elsewhere).`;

function confirmLink(token: string): string {
  return `${config().siteUrl}/confirm-email?token=${encodeURIComponent(token)}`;
}

/** Sent to the address being confirmed; answers false when the mail could not be handed over. */
export async function sendEmailConfirmation(user: User, email: string, token: string, purpose: "change" | "verify"): Promise<boolean> {
  const why =
    purpose === "change"
      ? `You asked to change the email address of your ${SITE_NAME} account to this one. Open this link to confirm it:`
      : `Open this link to confirm that this is the email address of your ${SITE_NAME} account:`;
  try {
    await mailer().send({
      to: email,
      subject: purpose === "change" ? `Confirm your new ${SITE_NAME} email address` : `Confirm your ${SITE_NAME} email address`,
      text: [
        `Hello ${user.firstName},`,
        "",
        why,
        "",
        confirmLink(token),
        "",
        `The link works once and expires in ${EMAIL_LINK_HOURS} hours. If you did not ask for it, ignore this message: nothing changes.`,
      ].join("\n"),
    });
    return true;
  } catch (error) {
    log.error("email confirmation mail failed", { error });
    return false;
  }
}

/** The link to choose a new password (forgot password, or sent again by customer service); rejects when it could not be handed over. */
export async function sendPasswordResetMail(user: User, token: string): Promise<void> {
  await mailer().send({
    to: user.email,
    subject: `Reset your ${SITE_NAME} password`,
    text: [
      `Hello ${user.firstName},`,
      "",
      `Someone (we hope you) asked to reset the password of your ${SITE_NAME} account. Open this link to choose a new one:`,
      "",
      `${config().siteUrl}/reset-password?token=${encodeURIComponent(token)}`,
      "",
      `The link works once and expires in ${RESET_LINK_MINUTES} minutes. If you did not ask for it, ignore this message: your password stays as it is.`,
    ].join("\n"),
  });
}

/** Sent to the address the account had before, once the change has taken effect. */
export function sendEmailChangedNotice(user: User, previousEmail: string): Promise<void> {
  return notify(previousEmail, `Your ${SITE_NAME} email address was changed`, [
    `Hello ${user.firstName},`,
    "",
    `The email address of your ${SITE_NAME} account was changed from ${previousEmail} to ${user.email}. From now on, sign in with the new address.`,
    "",
    IF_NOT_YOU,
  ]);
}

/** Sent to the account's address after its password changed. */
export function sendPasswordChangedNotice(user: User): Promise<void> {
  return notify(user.email, `Your ${SITE_NAME} password was changed`, [
    `Hello ${user.firstName},`,
    "",
    `The password of your ${SITE_NAME} account was changed, and every other browser signed in to it was signed out.`,
    "",
    `${IF_NOT_YOU} You can also choose a new password at ${config().siteUrl}/forgot-password.`,
  ]);
}

/** A notice must not undo the change it reports, so a failed send is logged, not thrown. */
async function notify(to: string, subject: string, lines: string[]): Promise<void> {
  try {
    await mailer().send({ to, subject, text: lines.join("\n") });
  } catch (error) {
    log.error(`account notice "${subject}" failed`, { error });
  }
}
