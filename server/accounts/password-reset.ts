import type { Database } from "~/server/db/connection";
import { markEmailVerified } from "./email-change";
import { endOtherSessions } from "./sessions";
import { clearSoftLock, isHardLocked } from "./sign-in";
import { hashToken, newToken } from "./tokens";
import { findCredentials, findUserById, normalizeEmail, setPassword, type User } from "./users";

export const RESET_LINK_MINUTES = 60;

export type ResetRequest =
  { outcome: "sent"; user: User; token: string } | { outcome: "unknown" } | { outcome: "restricted" } | { outcome: "hard-locked" };

/**
 * Issues a single-use reset token for the address. The caller answers "unknown" exactly like
 * "sent", so the form never tells whether an address has an account.
 */
export async function requestPasswordReset(db: Database, email: string, now = new Date()): Promise<ResetRequest> {
  const address = normalizeEmail(email);
  if (await isHardLocked(db, address, now)) return { outcome: "hard-locked" };
  const account = await findCredentials(db, address);
  if (!account) return { outcome: "unknown" };
  if (account.user.status === "restricted") return { outcome: "restricted" };
  const token = newToken();
  await db
    .insertInto("password_reset")
    .values({
      token_hash: hashToken(token),
      user_id: account.user.id,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + RESET_LINK_MINUTES * 60_000).toISOString(),
    })
    .execute();
  return { outcome: "sent", user: account.user, token };
}

/** The account a reset token opens, if it is unused and unexpired. */
export async function userForResetToken(db: Database, token: string, now = new Date()): Promise<User | undefined> {
  const row = await db
    .selectFrom("password_reset")
    .select("user_id")
    .where("token_hash", "=", hashToken(token))
    .where("used_at", "is", null)
    .where("expires_at", ">", now.toISOString())
    .executeTakeFirst();
  return row ? findUserById(db, row.user_id) : undefined;
}

/**
 * Spends the token and sets the password; every session of the account ends, and the address
 * counts as verified. The token is
 * claimed with a conditional update, so two submissions of one link change the password once.
 */
export async function resetPassword(db: Database, token: string, password: string, now = new Date()): Promise<User | undefined> {
  const user = await userForResetToken(db, token, now);
  if (!user) return undefined;
  const claimed = await db
    .updateTable("password_reset")
    .set({ used_at: now.toISOString() })
    .where("token_hash", "=", hashToken(token))
    .where("used_at", "is", null)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return undefined;
  await setPassword(db, user.id, password, now);
  // The link went to the account's address, so following it proves the address.
  await markEmailVerified(db, user.id, now);
  await db.deleteFrom("password_reset").where("user_id", "=", user.id).where("used_at", "is", null).execute();
  await endOtherSessions(db, user.id);
  await clearSoftLock(db, user.email);
  return user;
}
