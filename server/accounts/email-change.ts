import { EMAIL_LINK_HOURS } from "~/shared/email-change";
import type { Database } from "~/server/db/connection";
import { unlinkedPrintRecords } from "./print-subscribers";
import { hashToken, newToken } from "./tokens";
import { emailInUse, findUserById, isRestrictedAddress, normalizeEmail, type User } from "./users";

/** Why an address cannot become an account's address. */
export type AddressRefusal = "taken" | "restricted" | "print-subscriber";

/**
 * Whether the address may become this account's: not blocked, not another account's, and not
 * on a print-subscription record that this account has not linked (else a stranger could take
 * the subscriber's place at registration, or slip past a block).
 */
export async function refuseAddress(db: Database, userId: string, email: string): Promise<AddressRefusal | undefined> {
  if (await isRestrictedAddress(db, email)) return "restricted";
  if (await emailInUse(db, email, userId)) return "taken";
  if ((await unlinkedPrintRecords(db, email, userId)).length > 0) return "print-subscriber";
  return undefined;
}

export type EmailChangeRequest =
  { outcome: "sent"; token: string; email: string } | { outcome: "unchanged" } | { outcome: "refused"; reason: AddressRefusal };

/**
 * Starts an address change (the caller has checked the current password). Nothing changes until
 * the link mailed to the new address is followed; a newer request replaces an older one.
 */
export async function requestEmailChange(db: Database, user: User, newEmail: string, now = new Date()): Promise<EmailChangeRequest> {
  const email = normalizeEmail(newEmail);
  if (email === user.email) return { outcome: "unchanged" };
  const refusal = await refuseAddress(db, user.id, email);
  if (refusal) return { outcome: "refused", reason: refusal };
  return { outcome: "sent", token: await issueLink(db, user.id, email, now), email };
}

/** A link to the account's own address: following it marks the address verified. */
export async function requestAddressVerification(db: Database, user: User, now = new Date()): Promise<string> {
  return issueLink(db, user.id, user.email, now);
}

async function issueLink(db: Database, userId: string, email: string, now: Date): Promise<string> {
  const token = newToken();
  await db.deleteFrom("email_change").where("user_id", "=", userId).where("used_at", "is", null).execute();
  await db
    .insertInto("email_change")
    .values({
      token_hash: hashToken(token),
      user_id: userId,
      new_email: email,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + EMAIL_LINK_HOURS * 3_600_000).toISOString(),
    })
    .execute();
  return token;
}

/** The unused, unexpired change a link stands for, to show before it is confirmed. */
export async function pendingChangeForToken(
  db: Database,
  token: string,
  now = new Date(),
): Promise<{ user: User; newEmail: string } | undefined> {
  const row = await db
    .selectFrom("email_change")
    .select(["user_id", "new_email"])
    .where("token_hash", "=", hashToken(token))
    .where("used_at", "is", null)
    .where("expires_at", ">", now.toISOString())
    .executeTakeFirst();
  const user = row && (await findUserById(db, row.user_id));
  return user && { user, newEmail: row.new_email };
}

/** The address a reader has asked to move to and not yet confirmed, if any. */
export async function pendingEmailFor(db: Database, user: User, now = new Date()): Promise<string | undefined> {
  const row = await db
    .selectFrom("email_change")
    .select("new_email")
    .where("user_id", "=", user.id)
    .where("used_at", "is", null)
    .where("expires_at", ">", now.toISOString())
    .where("new_email", "!=", user.email)
    .executeTakeFirst();
  return row?.new_email;
}

export type EmailConfirmation =
  | { outcome: "changed"; user: User; previousEmail: string }
  | { outcome: "verified"; user: User }
  | { outcome: "dead" }
  | { outcome: "refused"; reason: AddressRefusal };

/**
 * Spends the link and applies it. The token is claimed with a conditional update, so a link
 * followed twice (or by two tabs at once) applies once; the address is checked again, since
 * another account may have taken it, or the publisher blocked it, while the mail waited.
 */
export async function confirmEmailChange(db: Database, token: string, now = new Date()): Promise<EmailConfirmation> {
  const pending = await pendingChangeForToken(db, token, now);
  if (!pending) return { outcome: "dead" };
  const claimed = await db
    .updateTable("email_change")
    .set({ used_at: now.toISOString() })
    .where("token_hash", "=", hashToken(token))
    .where("used_at", "is", null)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return { outcome: "dead" };

  const { user, newEmail } = pending;
  const at = now.toISOString();
  if (newEmail === user.email) {
    await db.updateTable("app_user").set({ email_verified_at: at }).where("id", "=", user.id).execute();
    return { outcome: "verified", user: { ...user, emailVerifiedAt: at } };
  }
  const refusal = await refuseAddress(db, user.id, newEmail);
  if (refusal) return { outcome: "refused", reason: refusal };
  try {
    await db.updateTable("app_user").set({ email: newEmail, email_verified_at: at, updated_at: at }).where("id", "=", user.id).execute();
  } catch (error) {
    // A concurrent registration took the address between the check and the update.
    if (await emailInUse(db, newEmail, user.id)) return { outcome: "refused", reason: "taken" };
    throw error;
  }
  return { outcome: "changed", user: { ...user, email: newEmail, emailVerifiedAt: at }, previousEmail: user.email };
}

/** A followed password-reset link proves the address too. */
export async function markEmailVerified(db: Database, userId: string, now = new Date()): Promise<void> {
  await db.updateTable("app_user").set({ email_verified_at: now.toISOString() }).where("id", "=", userId).execute();
}
