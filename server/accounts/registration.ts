import type { Database } from "~/server/db/connection";
import { log } from "~/server/log";
import { recordWallRegistration } from "~/server/paywall/walls";
import { hasActivePrintSubscription } from "./print-subscribers";
import { emailInUse, insertUser, isRestrictedAddress, type NewUser, type User } from "./users";

export type RegistrationResult = { ok: true; user: User } | { ok: false; reason: "taken" | "print-subscriber" | "restricted" };

/**
 * Opens an account. A blocked address is refused; an address already in use is "taken"; an
 * address with an active print subscription and no web account goes to subscriber
 * registration, where the subscription is linked; a lapsed subscriber registers as a reader.
 * `wallTag`: the account is opened from the registration wall's form, under that A/B tag, which
 * the meter funnel counts (ADR 090); a failure to count never fails the registration.
 */
export async function register(db: Database, input: NewUser & { wallTag?: string | null }, now = new Date()): Promise<RegistrationResult> {
  const { wallTag, ...account } = input;
  if (await isRestrictedAddress(db, account.email)) return { ok: false, reason: "restricted" };
  if (await emailInUse(db, account.email)) return { ok: false, reason: "taken" };
  if (await hasActivePrintSubscription(db, account.email, now)) return { ok: false, reason: "print-subscriber" };
  const user = await insertUser(db, account, now);
  if (!user) return { ok: false, reason: "taken" };
  if (wallTag)
    await recordWallRegistration(db, wallTag, now).catch((error: unknown) => log.warn("wall registration not recorded", { error }));
  return { ok: true, user };
}
