import type { Database } from "../db/connection";
import { verifyDecoy, verifyPassword } from "./passwords";
import { findCredentials, normalizeEmail, type User } from "./users";

export interface LockoutRules {
  maxFailures: number;
  lockoutSeconds: number;
}

/** After this many lockouts within a day, an address stays locked for a day (spec: 24 hours). */
const HARD_LOCK_AFTER_LOCKOUTS = 3;
export const HARD_LOCK_SECONDS = 24 * 60 * 60;

export type SignInResult =
  | { ok: true; user: User }
  | { ok: false; reason: "invalid"; triesLeft: number }
  | { ok: false; reason: "locked"; lockoutSeconds: number }
  | { ok: false; reason: "restricted" };

/**
 * Checks a password. Failures are counted per address typed, whether or not an account has
 * it, and an unknown address costs one hash like a known one, so neither the answer nor its
 * timing tells whether someone is a member.
 */
export async function signIn(db: Database, email: string, password: string, rules: LockoutRules, now = new Date()): Promise<SignInResult> {
  const address = normalizeEmail(email);
  const lock = await activeLock(db, address, now);
  if (lock) return { ok: false, reason: "locked", lockoutSeconds: lock };

  const account = await findCredentials(db, address);
  const valid = account ? await verifyPassword(password, account.passwordHash) : await verifyDecoy(password);
  if (!account || !valid) return recordFailure(db, address, rules, now);

  await db.deleteFrom("login_failure").where("email", "=", address).execute();
  if (account.user.status === "restricted") return { ok: false, reason: "restricted" };
  await db.updateTable("app_user").set({ last_visit_at: now.toISOString() }).where("id", "=", account.user.id).execute();
  return { ok: true, user: account.user };
}

/** Seconds left on a lockout of this address, or 0. */
export async function activeLock(db: Database, email: string, now = new Date()): Promise<number> {
  const row = await db.selectFrom("login_failure").select("locked_until").where("email", "=", normalizeEmail(email)).executeTakeFirst();
  if (!row?.locked_until) return 0;
  return Math.max(0, Math.ceil((Date.parse(row.locked_until) - now.getTime()) / 1000));
}

/** Whether the address is under the day-long lock that a password reset does not lift. */
export async function isHardLocked(db: Database, email: string, now = new Date()): Promise<boolean> {
  const row = await db
    .selectFrom("login_failure")
    .select(["locked_until", "hard_locked"])
    .where("email", "=", normalizeEmail(email))
    .executeTakeFirst();
  return Boolean(row && Number(row.hard_locked) === 1 && row.locked_until && Date.parse(row.locked_until) > now.getTime());
}

/** Clears failures and any short lockout (after a successful password reset). */
export async function clearSoftLock(db: Database, email: string): Promise<void> {
  await db.deleteFrom("login_failure").where("email", "=", normalizeEmail(email)).where("hard_locked", "=", 0).execute();
}

async function recordFailure(db: Database, email: string, rules: LockoutRules, now: Date): Promise<SignInResult> {
  const row = await db
    .insertInto("login_failure")
    .values({ email, failures: 1 })
    .onConflict((oc) => oc.column("email").doUpdateSet((eb) => ({ failures: eb("login_failure.failures", "+", 1) })))
    .returning(["failures", "lockouts", "first_lockout_at"])
    .executeTakeFirstOrThrow();
  const failures = Number(row.failures);
  if (failures < rules.maxFailures) return { ok: false, reason: "invalid", triesLeft: rules.maxFailures - failures };

  const withinDay = row.first_lockout_at && now.getTime() - Date.parse(row.first_lockout_at) < HARD_LOCK_SECONDS * 1000;
  const lockouts = withinDay ? Number(row.lockouts) + 1 : 1;
  const hard = lockouts >= HARD_LOCK_AFTER_LOCKOUTS;
  const seconds = hard ? HARD_LOCK_SECONDS : rules.lockoutSeconds;
  await db
    .updateTable("login_failure")
    .set({
      failures: 0,
      lockouts,
      first_lockout_at: withinDay ? row.first_lockout_at : now.toISOString(),
      locked_until: new Date(now.getTime() + seconds * 1000).toISOString(),
      hard_locked: hard ? 1 : 0,
    })
    .where("email", "=", email)
    .execute();
  return { ok: false, reason: "locked", lockoutSeconds: seconds };
}
