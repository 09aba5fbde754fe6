import { sql } from "kysely";
import type { Database } from "~/server/db/connection";
import { hashPassword, needsRehash, verifyDecoy, verifyPassword } from "./passwords";
import { findCredentials, normalizeEmail, type User } from "./users";

export interface LockoutRules {
  maxFailures: number;
  lockoutSeconds: number;
}

/** After this many lockouts within a day, an address stays locked for a day (spec: 24 hours). */
const HARD_LOCK_AFTER_LOCKOUTS = 3;
export const HARD_LOCK_SECONDS = 24 * 60 * 60;

export type PasswordCheck =
  { ok: true; user: User } | { ok: false; reason: "invalid"; triesLeft: number } | { ok: false; reason: "locked"; lockoutSeconds: number };

export type SignInResult = PasswordCheck | { ok: false; reason: "restricted" };

/**
 * Checks a password. Failures are counted per address typed, whether or not an account has
 * it, and an unknown address costs one hash like a known one, so neither the answer nor its
 * timing tells whether someone is a member.
 */
export async function signIn(db: Database, email: string, password: string, rules: LockoutRules, now = new Date()): Promise<SignInResult> {
  const checked = await checkPasswordWithLockout(db, email, password, rules, now);
  if (!checked.ok) return checked;
  if (checked.user.status === "restricted") return { ok: false, reason: "restricted" };
  await db.updateTable("app_user").set({ last_visit_at: now.toISOString() }).where("id", "=", checked.user.id).execute();
  return checked;
}

/**
 * The password check behind sign-in and every "current password" question, under one lockout.
 *
 * Each attempt first claims a try with a single conditional upsert (ADR 008, 021): the claim
 * fails while the address is locked, and the claim that uses the last try sets the lock in the
 * same statement. Only then is the (slow) password hash compared. So however many attempts
 * arrive at once, at most `maxFailures` are ever compared per lock period, and an attempt that
 * arrives once the lock is decided is refused even with the right password.
 */
export async function checkPasswordWithLockout(
  db: Database,
  email: string,
  password: string,
  rules: LockoutRules,
  now = new Date(),
): Promise<PasswordCheck> {
  const address = normalizeEmail(email);
  const checked = await checkWithLockout(db, address, rules, now, async () => {
    const account = await findCredentials(db, address);
    const valid = account ? await verifyPassword(password, account.passwordHash) : await verifyDecoy(password);
    return account && valid ? account : undefined;
  });
  if (!checked.ok) return checked;
  const account = checked.value;
  // An older hash is made again at today's cost while the password is at hand (unless the
  // password was changed meanwhile).
  if (needsRehash(account.passwordHash)) {
    await db
      .updateTable("app_user")
      .set({ password_hash: await hashPassword(password) })
      .where("id", "=", account.user.id)
      .where("password_hash", "=", account.passwordHash)
      .execute();
  }
  return { ok: true, user: account.user };
}

export type LockedCheck<T> =
  { ok: true; value: T } | { ok: false; reason: "invalid"; triesLeft: number } | { ok: false; reason: "locked"; lockoutSeconds: number };

/**
 * Any secret checked under the lockout: a password (keyed by the address typed) or a staff
 * member's second-factor code (keyed by their account, ADR 072). A try is claimed first (see
 * above); `check` answers the value behind a right secret, or undefined for a wrong one. A right
 * secret clears the count, except a lock that a concurrent attempt decided after this one
 * claimed its try; the lock this attempt's own claim set is lifted.
 */
export async function checkWithLockout<T>(
  db: Database,
  key: string,
  rules: LockoutRules,
  now: Date,
  check: () => Promise<T | undefined>,
): Promise<LockedCheck<T>> {
  const claim = await claimTry(db, key, rules, now);
  if (claim.refused) return { ok: false, reason: "locked", lockoutSeconds: Math.max(1, await lockSecondsLeft(db, key, now)) };
  const value = await check();
  if (value === undefined) {
    if (claim.lockSeconds) return { ok: false, reason: "locked", lockoutSeconds: claim.lockSeconds };
    return { ok: false, reason: "invalid", triesLeft: rules.maxFailures - claim.failures };
  }
  let clear = db.deleteFrom("login_failure").where("email", "=", key);
  if (!claim.lockSeconds) clear = clear.where((eb) => eb.or([eb("locked_until", "is", null), eb("locked_until", "<=", now.toISOString())]));
  await clear.execute();
  return { ok: true, value };
}

type Claim = { refused: true } | { refused: false; failures: number; lockSeconds: number };

/** Counts one try against the key, in one statement; refused while a lock is in force. */
async function claimTry(db: Database, key: string, rules: LockoutRules, now: Date): Promise<Claim> {
  const at = now.toISOString();
  const dayAgo = new Date(now.getTime() - HARD_LOCK_SECONDS * 1000).toISOString();
  const softUntil = new Date(now.getTime() + rules.lockoutSeconds * 1000).toISOString();
  const hardUntil = new Date(now.getTime() + HARD_LOCK_SECONDS * 1000).toISOString();
  const firstLocks = rules.maxFailures <= 1;

  const reachesLimit = sql<boolean>`login_failure.failures + 1 >= ${rules.maxFailures}`;
  const withinDay = sql<boolean>`login_failure.first_lockout_at is not null and login_failure.first_lockout_at > ${dayAgo}`;
  const lockoutsAfter = sql<number>`(case when ${withinDay} then login_failure.lockouts + 1 else 1 end)`;
  const hardAfter = sql<boolean>`${lockoutsAfter} >= ${HARD_LOCK_AFTER_LOCKOUTS}`;

  const row = await db
    .insertInto("login_failure")
    .values({
      email: key,
      failures: firstLocks ? 0 : 1,
      lockouts: firstLocks ? 1 : 0,
      first_lockout_at: firstLocks ? at : null,
      locked_until: firstLocks ? softUntil : null,
      hard_locked: 0,
    })
    .onConflict((oc) =>
      oc
        .column("email")
        .doUpdateSet({
          failures: sql`case when ${reachesLimit} then 0 else login_failure.failures + 1 end`,
          lockouts: sql`case when ${reachesLimit} then ${lockoutsAfter} else login_failure.lockouts end`,
          first_lockout_at: sql`case when ${reachesLimit} and not (${withinDay}) then ${at} else login_failure.first_lockout_at end`,
          locked_until: sql`case when ${reachesLimit} then (case when ${hardAfter} then ${hardUntil} else ${softUntil} end) else login_failure.locked_until end`,
          hard_locked: sql`case when ${reachesLimit} then (case when ${hardAfter} then 1 else 0 end) else login_failure.hard_locked end`,
        })
        .where((eb) => eb.or([eb("login_failure.locked_until", "is", null), eb("login_failure.locked_until", "<=", at)])),
    )
    .returning(["failures", "locked_until"])
    .executeTakeFirst();
  if (!row) return { refused: true };
  const lockedUntil = row.locked_until && row.locked_until > at ? Date.parse(row.locked_until) : 0;
  return { refused: false, failures: Number(row.failures), lockSeconds: lockedUntil ? Math.ceil((lockedUntil - now.getTime()) / 1000) : 0 };
}

/** Seconds left on a lockout of this address, or 0. */
export function activeLock(db: Database, email: string, now = new Date()): Promise<number> {
  return lockSecondsLeft(db, normalizeEmail(email), now);
}

async function lockSecondsLeft(db: Database, key: string, now: Date): Promise<number> {
  const row = await db.selectFrom("login_failure").select("locked_until").where("email", "=", key).executeTakeFirst();
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
