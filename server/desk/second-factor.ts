import crypto from "node:crypto";
import { checkWithLockout, type LockedCheck, type LockoutRules } from "~/server/accounts/sign-in";
import { hashToken, newToken } from "~/server/accounts/tokens";
import type { Database } from "~/server/db/connection";
import { recordAudit, type AuditActor } from "./audit";
import { matchingStep, newTotpSecret } from "./totp";

// A staff member's second factor (ADR 072): a TOTP secret set up from a single-use enrolment
// link, and ten recovery codes. Every code, at enrolment or at the desk's door, is checked under
// the sign-in lockout (ADR 021), keyed by the account; a TOTP code is accepted only for a time
// step later than the last one accepted, so a code seen over a shoulder cannot be used again.

export const ENROLMENT_LINK_HOURS = 24;
export const RECOVERY_CODE_COUNT = 10;

/** The lockout's key for a staff member's codes: apart from their password's, which a right password clears. */
const lockoutKey = (userId: string) => `second-factor:${userId}`;

/** A new single-use enrolment link's token for the reader (the caller records why, in its transaction). */
export async function createEnrolment(db: Database, userId: string, now: Date): Promise<string> {
  const token = newToken();
  await db
    .insertInto("staff_enrolment")
    .values({
      token_hash: hashToken(token),
      user_id: userId,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + ENROLMENT_LINK_HOURS * 3_600_000).toISOString(),
    })
    .execute();
  return token;
}

export interface OpenEnrolment {
  userId: string;
  /** The secret to show, the same on every visit until enrolment completes. */
  secret: string;
}

/** The enrolment a link opens, if it is unused and unexpired; it gets its secret on first visit. */
export async function openEnrolment(db: Database, token: string, now: Date): Promise<OpenEnrolment | null> {
  const tokenHash = hashToken(token);
  const live = () =>
    db
      .selectFrom("staff_enrolment")
      .select(["user_id", "secret"])
      .where("token_hash", "=", tokenHash)
      .where("used_at", "is", null)
      .where("expires_at", ">", now.toISOString())
      .executeTakeFirst();
  const found = await live();
  if (!found) return null;
  if (found.secret) return { userId: found.user_id, secret: found.secret };
  // Two first visits at once keep whichever secret was stored first.
  await db
    .updateTable("staff_enrolment")
    .set({ secret: newTotpSecret() })
    .where("token_hash", "=", tokenHash)
    .where("secret", "is", null)
    .execute();
  const stored = await live();
  return stored?.secret ? { userId: stored.user_id, secret: stored.secret } : null;
}

export type EnrolmentResult = LockedCheck<{ recoveryCodes: string[] }> | { ok: false; reason: "dead" };

/**
 * Completes an enrolment with a code from the secret the page showed: the reader's second factor
 * becomes that secret (replacing any earlier one), with ten new recovery codes, and the link is
 * used up. The caller checks that the signed-in reader is the link's.
 */
export async function completeEnrolment(
  db: Database,
  token: string,
  actor: AuditActor & { id: string },
  code: string,
  rules: LockoutRules,
  now: Date,
): Promise<EnrolmentResult> {
  const enrolment = await openEnrolment(db, token, now);
  if (!enrolment || enrolment.userId !== actor.id) return { ok: false, reason: "dead" };
  const checked = await checkWithLockout(
    db,
    lockoutKey(actor.id),
    rules,
    now,
    async () => matchingStep(enrolment.secret, code, now) ?? undefined,
  );
  if (!checked.ok) return checked;
  const step = checked.value;
  return db.transaction().execute(async (tx): Promise<EnrolmentResult> => {
    const claimed = await tx
      .updateTable("staff_enrolment")
      .set({ used_at: now.toISOString() })
      .where("token_hash", "=", hashToken(token))
      .where("used_at", "is", null)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return { ok: false, reason: "dead" };
    const replaced = await tx.selectFrom("staff_second_factor").select("enrolled_at").where("user_id", "=", actor.id).executeTakeFirst();
    await tx.deleteFrom("staff_second_factor").where("user_id", "=", actor.id).execute();
    await tx
      .insertInto("staff_second_factor")
      .values({ user_id: actor.id, secret: enrolment.secret, enrolled_at: now.toISOString(), last_step: step })
      .execute();
    const recoveryCodes = await replaceRecoveryCodes(tx, actor.id, now);
    await recordAudit(
      tx,
      {
        actor,
        action: "second-factor.enrol",
        subject: `staff:${actor.label}`,
        before: replaced ? { enrolledAt: replaced.enrolled_at } : null,
        after: { enrolledAt: now.toISOString(), recoveryCodes: RECOVERY_CODE_COUNT },
      },
      now,
    );
    return { ok: true, value: { recoveryCodes } };
  });
}

/** A recovery code: sixteen characters (79 random bits) in four groups, without look-alikes (0/o, 1/l/i). */
function newRecoveryCode(): string {
  const alphabet = "abcdefghjkmnpqrstuvwxyz23456789";
  const chars = Array.from({ length: 16 }, () => alphabet[crypto.randomInt(alphabet.length)]);
  return [0, 4, 8, 12].map((at) => chars.slice(at, at + 4).join("")).join("-");
}

/** What a recovery code is compared as: lower case, without spaces or hyphens. */
const canonicalRecoveryCode = (code: string) => code.toLowerCase().replace(/[\s-]/g, "");

async function replaceRecoveryCodes(db: Database, userId: string, now: Date): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await db.deleteFrom("staff_recovery_code").where("user_id", "=", userId).execute();
  await db
    .insertInto("staff_recovery_code")
    .values(codes.map((code) => ({ user_id: userId, code_hash: hashToken(canonicalRecoveryCode(code)), created_at: now.toISOString() })))
    .execute();
  return codes;
}

/** Ten new recovery codes for a staff member, the old ones void; shown once, stored hashed. */
export async function renewRecoveryCodes(db: Database, actor: AuditActor & { id: string }, now: Date): Promise<string[]> {
  return db.transaction().execute(async (tx) => {
    const unused = await unusedRecoveryCodes(tx, actor.id);
    const codes = await replaceRecoveryCodes(tx, actor.id, now);
    await recordAudit(
      tx,
      { actor, action: "recovery-codes.renew", subject: `staff:${actor.label}`, before: { unused }, after: { unused: codes.length } },
      now,
    );
    return codes;
  });
}

export async function unusedRecoveryCodes(db: Database, userId: string): Promise<number> {
  const row = await db
    .selectFrom("staff_recovery_code")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("user_id", "=", userId)
    .where("used_at", "is", null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export type CodeKind = "totp" | "recovery";

/**
 * Checks a code typed at the desk's door: six digits are a TOTP code, anything else a recovery
 * code. A TOTP code is taken by moving `last_step` forward in one conditional update, and a
 * recovery code by marking it used in another, so two requests with the same code cannot both
 * pass. A replayed code counts as a wrong one.
 */
export async function checkSecondFactor(
  db: Database,
  userId: string,
  code: string,
  rules: LockoutRules,
  now: Date,
): Promise<LockedCheck<CodeKind>> {
  const typed = code.trim().replace(/\s/g, "");
  return checkWithLockout(db, lockoutKey(userId), rules, now, async (): Promise<CodeKind | undefined> => {
    if (/^\d+$/.test(typed)) {
      const factor = await db.selectFrom("staff_second_factor").select("secret").where("user_id", "=", userId).executeTakeFirst();
      const step = factor ? matchingStep(factor.secret, typed, now) : null;
      if (step === null) return undefined;
      const taken = await db
        .updateTable("staff_second_factor")
        .set({ last_step: step })
        .where("user_id", "=", userId)
        .where("last_step", "<", step)
        .executeTakeFirst();
      return Number(taken.numUpdatedRows) === 1 ? "totp" : undefined;
    }
    const used = await db
      .updateTable("staff_recovery_code")
      .set({ used_at: now.toISOString() })
      .where("user_id", "=", userId)
      .where("code_hash", "=", hashToken(canonicalRecoveryCode(typed)))
      .where("used_at", "is", null)
      .executeTakeFirst();
    return Number(used.numUpdatedRows) === 1 ? "recovery" : undefined;
  });
}

/** An enrolment link's address on the public origin (SITE_URL), as the command line prints it and the desk shows it. */
export function enrolmentUrl(siteUrl: string, token: string): string {
  return `${siteUrl}/desk/enrol?token=${encodeURIComponent(token)}`;
}
