import type { Database } from "~/server/db/connection";
import { endOtherSessions } from "./sessions";
import { checkPasswordWithLockout, type LockoutRules } from "./sign-in";
import { setPassword, type User } from "./users";

export type CurrentPasswordCheck = { outcome: "ok" } | { outcome: "wrong-current" } | { outcome: "locked"; lockoutSeconds: number };

/**
 * The "current password" question before a change to the account. Wrong answers count towards
 * the same lockout as sign-in (a stolen session must not become a way to guess the password).
 */
export async function checkCurrentPassword(
  db: Database,
  user: User,
  password: string,
  rules: LockoutRules,
  now = new Date(),
): Promise<CurrentPasswordCheck> {
  const checked = await checkPasswordWithLockout(db, user.email, password, rules, now);
  if (checked.ok) return { outcome: "ok" };
  return checked.reason === "locked" ? { outcome: "locked", lockoutSeconds: checked.lockoutSeconds } : { outcome: "wrong-current" };
}

/** Sets a new password after checking the current one; the reader's other sessions end. */
export async function changePassword(
  db: Database,
  user: User,
  passwords: { current: string; next: string },
  keepSessionToken: string,
  rules: LockoutRules,
  now = new Date(),
): Promise<CurrentPasswordCheck | { outcome: "changed" }> {
  const checked = await checkCurrentPassword(db, user, passwords.current, rules, now);
  if (checked.outcome !== "ok") return checked;
  await setPassword(db, user.id, passwords.next, now);
  await endOtherSessions(db, user.id, keepSessionToken);
  return { outcome: "changed" };
}
