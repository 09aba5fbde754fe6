import type { Database } from "~/server/db/connection";
import { hasActivePrintSubscription } from "./print-subscribers";
import { emailInUse, insertUser, isRestrictedAddress, type NewUser, type User } from "./users";

export type RegistrationResult = { ok: true; user: User } | { ok: false; reason: "taken" | "print-subscriber" | "restricted" };

/**
 * Opens an account. A blocked address is refused; an address already in use is "taken"; an
 * address with an active print subscription and no web account goes to subscriber
 * registration, where the subscription is linked; a lapsed subscriber registers as a reader.
 */
export async function register(db: Database, input: NewUser, now = new Date()): Promise<RegistrationResult> {
  if (await isRestrictedAddress(db, input.email)) return { ok: false, reason: "restricted" };
  if (await emailInUse(db, input.email)) return { ok: false, reason: "taken" };
  if (await hasActivePrintSubscription(db, input.email, now)) return { ok: false, reason: "print-subscriber" };
  const user = await insertUser(db, input, now);
  return user ? { ok: true, user } : { ok: false, reason: "taken" };
}
