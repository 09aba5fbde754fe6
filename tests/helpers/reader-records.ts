import crypto from "node:crypto";
import type { Database } from "~/server/db/connection";

// Readers and their plan checkouts written straight into the database, for tests that count
// them (the desk's reports) rather than go through registration and the provider.

/** An `app_user` row for a reader made at `at`, its address verified, with no password to sign in with. */
export function readerRow(reader: { id: string; email: string; firstName: string; lastName: string }, at: string) {
  return {
    id: reader.id,
    email: reader.email,
    first_name: reader.firstName,
    last_name: reader.lastName,
    password_hash: "!",
    created_at: at,
    updated_at: at,
    last_visit_at: null,
    email_verified_at: at,
  };
}

/** A reader's account made at `at` (readerRow). Answers its id. */
export async function insertReader(db: Database, name: string, at: string): Promise<string> {
  const id = crypto.randomUUID();
  await db
    .insertInto("app_user")
    .values(readerRow({ id, email: `${name}.${id.slice(0, 8)}@reports.example`, firstName: name, lastName: "Reports" }, at))
    .execute();
  return id;
}

/**
 * A checkout of the digital plan ($12) through the sandbox by `userId`, from an offer tagged
 * `tag`: activated at `activatedAt`, or only opened at `createdAt` when that is null.
 */
export async function insertPlanCheckout(
  db: Database,
  checkout: { userId: string; tag: string; activatedAt: string | null; createdAt: string },
): Promise<void> {
  await db
    .insertInto("subscription_checkout")
    .values({
      id: `chk_${crypto.randomBytes(16).toString("base64url")}`,
      user_id: checkout.userId,
      plan_id: "digital",
      ab_tag: checkout.tag,
      amount_cents: 1_200,
      provider: "sandbox",
      provider_session_id: null,
      status: checkout.activatedAt ? "activated" : "created",
      created_at: checkout.activatedAt ?? checkout.createdAt,
      activated_at: checkout.activatedAt,
      idempotency_key: null,
      provider_checkout_url: null,
      company: null,
      tax_id: null,
      billing_country: null,
      billing_region: null,
    })
    .execute();
}
