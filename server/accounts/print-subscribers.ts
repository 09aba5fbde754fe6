import type { Database } from "~/server/db/connection";
import { grantSubscription } from "~/server/subscriptions/entitlements";
import { roleCodeFor, roleCodeForPrintCode, tierOf, type TierName } from "~/server/subscriptions/tiers";
import { emailInUse, insertUser, normalizeEmail, type User } from "./users";

/** Spec: only subscriptions from these sources count when linking a print subscriber. */
export const LINKABLE_SOURCES = ["CDS_US", "CDS_UK"] as const;

export interface PrintSubscription {
  accountNumber: string;
  firstName: string;
  lastName: string;
  subscriptionCode: string;
  accessStart: string;
  accessEnd: string;
}

/** Print-subscription records under this address that are active, unexpired and linkable. */
function activeRecords(db: Database, email: string, now: Date) {
  return db
    .selectFrom("print_subscriber")
    .where("email", "=", normalizeEmail(email))
    .where("active", "=", 1)
    .where("source", "in", [...LINKABLE_SOURCES])
    .where("access_end", ">=", now.toISOString().slice(0, 10));
}

/**
 * Whether registration should send this address to subscriber registration: only an active
 * print subscription does; a lapsed subscriber registers as an ordinary reader.
 */
export async function hasActivePrintSubscription(db: Database, email: string, now = new Date()): Promise<boolean> {
  return Boolean(await activeRecords(db, email, now).select("account_number").executeTakeFirst());
}

/** The active, unexpired, linkable print subscription with this account number, under whatever address. */
export async function findActivePrintRecord(db: Database, accountNumber: string, now = new Date()): Promise<PrintSubscription | undefined> {
  const row = await db
    .selectFrom("print_subscriber")
    .select(["account_number", "first_name", "last_name", "subscription_code", "access_start", "access_end"])
    .where("account_number", "=", accountNumber.trim().toUpperCase())
    .where("active", "=", 1)
    .where("source", "in", [...LINKABLE_SOURCES])
    .where("access_end", ">=", now.toISOString().slice(0, 10))
    .executeTakeFirst();
  return (
    row && {
      accountNumber: row.account_number,
      firstName: row.first_name,
      lastName: row.last_name,
      subscriptionCode: row.subscription_code,
      accessStart: row.access_start,
      accessEnd: row.access_end,
    }
  );
}

/** The active, unexpired print subscription with this address and account number, if any. */
export async function findActivePrintSubscription(
  db: Database,
  email: string,
  accountNumber: string,
  now = new Date(),
): Promise<PrintSubscription | undefined> {
  const row = await activeRecords(db, email, now)
    .select(["account_number", "first_name", "last_name", "subscription_code", "access_start", "access_end"])
    .where("account_number", "=", accountNumber.trim().toUpperCase())
    .executeTakeFirst();
  return (
    row && {
      accountNumber: row.account_number,
      firstName: row.first_name,
      lastName: row.last_name,
      subscriptionCode: row.subscription_code,
      accessStart: row.access_start,
      accessEnd: row.access_end,
    }
  );
}

/** Spec "Subscriber lookup": the active subscription found, whether it is linked yet, and whether the address has an account. */
export interface PrintSubscriberLookup {
  subscription: PrintSubscription & { tier: TierName };
  /** Already connected to a web account. */
  linked: boolean;
  userAccountExists: boolean;
}

/** The subscriber lookup behind subscriber registration: undefined when no active subscription matches. */
export async function lookUpPrintSubscriber(
  db: Database,
  email: string,
  accountNumber: string,
  now = new Date(),
): Promise<PrintSubscriberLookup | undefined> {
  const subscription = await findActivePrintSubscription(db, email, accountNumber, now);
  if (!subscription) return undefined;
  const [grant, userAccountExists] = await Promise.all([
    db.selectFrom("subscription").select("id").where("reference", "=", printReference(subscription.accountNumber)).executeTakeFirst(),
    emailInUse(db, email),
  ]);
  return { subscription: { ...subscription, tier: tierOf(printRoleCode(subscription))!.name }, linked: Boolean(grant), userAccountExists };
}

export type LinkResult = { ok: true; user: User } | { ok: false; reason: "no-active-subscription" | "taken" };

/** Opens a web account for a print subscriber, named as on their subscription record. */
export async function registerPrintSubscriber(
  db: Database,
  input: { email: string; accountNumber: string; password: string; optIn: boolean },
  now = new Date(),
): Promise<LinkResult> {
  const subscription = await findActivePrintSubscription(db, input.email, input.accountNumber, now);
  if (!subscription) return { ok: false, reason: "no-active-subscription" };
  const user = await insertUser(
    db,
    {
      firstName: subscription.firstName,
      lastName: subscription.lastName,
      email: input.email,
      password: input.password,
      optIn: input.optIn,
    },
    now,
  );
  if (!user) return { ok: false, reason: "taken" };
  await grantPrintSubscription(db, user.id, subscription);
  return { ok: true, user };
}

export type LinkOutcome = "linked" | "no-active-subscription" | "unverified";

/**
 * Connects a print subscription to an existing account: the subscription must be active and be
 * recorded under the account's own address, and that address must have been verified by a
 * mailed link, so nobody can claim another reader's subscription with an account number and
 * an address they merely typed.
 */
export async function linkPrintSubscription(db: Database, user: User, accountNumber: string, now = new Date()): Promise<LinkOutcome> {
  const subscription = await findActivePrintSubscription(db, user.email, accountNumber, now);
  if (!subscription) return "no-active-subscription";
  if (!user.emailVerifiedAt) return "unverified";
  await grantPrintSubscription(db, user.id, subscription);
  return "linked";
}

/** Keeps a subscriber's "email updates" tick; an unticked box withdraws nothing (that goes through Customer Service). */
export async function recordOptIn(db: Database, userId: string): Promise<void> {
  await db.updateTable("app_user").set({ opt_in: 1 }).where("id", "=", userId).execute();
}

/** Account numbers of the print records under this address that are not linked to the user. */
export async function unlinkedPrintRecords(db: Database, email: string, userId: string): Promise<string[]> {
  const records = await db.selectFrom("print_subscriber").select("account_number").where("email", "=", normalizeEmail(email)).execute();
  if (records.length === 0) return [];
  const linked = await db
    .selectFrom("subscription")
    .select("reference")
    .where("user_id", "=", userId)
    .where("source", "=", "print")
    .execute();
  const references = new Set(linked.map((row) => row.reference));
  return records.map((row) => row.account_number).filter((number) => !references.has(printReference(number)));
}

/** A linked print subscription's `subscription.reference`: its account number, marked as print. */
export const PRINT_REFERENCE_PREFIX = "print:";
export const printReference = (accountNumber: string) => `${PRINT_REFERENCE_PREFIX}${accountNumber}`;

/** The role a print subscription brings: its code's tier, Good when the code names none. */
const printRoleCode = (subscription: PrintSubscription) => roleCodeForPrintCode(subscription.subscriptionCode) ?? roleCodeFor("GOOD");

/** The web access a print subscription brings: its tier, until the print access ends. */
export async function grantPrintSubscription(db: Database, userId: string, subscription: PrintSubscription): Promise<void> {
  await grantSubscription(db, {
    userId,
    roleCode: printRoleCode(subscription),
    source: "print",
    reference: printReference(subscription.accountNumber),
    accessStart: new Date(`${subscription.accessStart}T00:00:00Z`),
    // Access lasts through the last day of the print term.
    accessEnd: new Date(`${subscription.accessEnd}T23:59:59.999Z`),
  });
}
