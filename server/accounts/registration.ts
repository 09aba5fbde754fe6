import type { Database } from "../db/connection";
import { emailInUse, hasPrintSubscription, insertUser, isRestrictedAddress, type NewUser, type User } from "./users";

export type RegistrationResult =
  | { ok: true; user: User }
  | { ok: false; reason: "taken" | "print-subscriber" | "restricted" };

/**
 * Opens an account. A blocked address is refused; an address already in use is "taken"; an
 * address on a print-subscription record without a web account goes to subscriber
 * registration, where the subscription is linked.
 */
export async function register(db: Database, input: NewUser, now = new Date()): Promise<RegistrationResult> {
  if (await isRestrictedAddress(db, input.email)) return { ok: false, reason: "restricted" };
  if (await emailInUse(db, input.email)) return { ok: false, reason: "taken" };
  if (await hasPrintSubscription(db, input.email)) return { ok: false, reason: "print-subscriber" };
  const user = await insertUser(db, input, now);
  return user ? { ok: true, user } : { ok: false, reason: "taken" };
}
