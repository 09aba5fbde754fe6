import crypto from "node:crypto";
import { sql } from "kysely";
import type { Database } from "~/server/db/connection";
import type { DB } from "~/server/db/schema";
import type { ProviderSubscriptionRef, SavedCard } from "~/server/payments/provider";
import { byRank, tierOf, type Tier } from "./tiers";

export interface Entitlement {
  roleCode: string;
  source: "web" | "print";
  accessEnd: string;
}

export interface SubscriberStatus {
  /** The reader's tier, from the first of their role codes (highest first). */
  tier: Tier;
  roleCodes: string[];
  entitlements: Entitlement[];
}

/** What of a subscription giving access the reader's status is made of. */
export interface EntitlementRow {
  role_code: string;
  source: "web" | "print";
  access_end: string;
  billing_status: string | null;
  grace_end: string | null;
}

/**
 * Whether a subscription gives access at `now` (an ISO time): active, and inside its access
 * period, or past due within its grace (ADR 066, "Dunning"); restricted, lapsed or ended ones give
 * none (an ended plan by its billing state, whatever the clock: the provider's may run ahead of
 * ours). A condition on the `subscription` table in scope, for a where or, as a column, a select.
 */
export function givesAccess(now: string) {
  const column = (name: keyof DB["subscription"]) => sql.ref(`subscription.${name}`);
  const billing = column("billing_status");
  return sql<boolean>`(${column("status")} = 'active' and ${column("access_start")} <= ${now}
    and (${billing} is null or ${billing} != 'ended')
    and (${column("access_end")} > ${now} or (${billing} = 'past_due' and ${column("grace_end")} > ${now})))`;
}

/** The reader's status from their subscriptions that give access, or null if none does. */
export function statusFrom(rows: readonly EntitlementRow[]): SubscriberStatus | null {
  const entitlements = rows
    .map((r) => ({
      roleCode: r.role_code,
      source: r.source,
      accessEnd: r.billing_status === "past_due" && r.grace_end && r.grace_end > r.access_end ? r.grace_end : r.access_end,
    }))
    .sort((a, b) => byRank(a.roleCode, b.roleCode));
  const first = entitlements[0];
  const tier = first && tierOf(first.roleCode);
  if (!first || !tier) return null;
  return { tier, roleCodes: entitlements.map((e) => e.roleCode), entitlements };
}

/** The reader's subscriptions that give access now (givesAccess), as their status. */
export async function subscriberStatus(db: Database, userId: string, now = new Date()): Promise<SubscriberStatus | null> {
  const rows = await db
    .selectFrom("subscription")
    .select(["role_code", "source", "access_end", "billing_status", "grace_end"])
    .where(givesAccess(now.toISOString()))
    .where("user_id", "=", userId)
    .execute();
  return statusFrom(rows);
}

/** How many readers one query asks about: far below either database's limit on parameters. */
const AMONG_CHUNK = 500;

/** Which of these readers subscribe at `now` (those subscriberStatus gives a status), a query per 500 of them. */
export async function subscribersAmong(db: Database, userIds: readonly string[], now = new Date()): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < userIds.length; i += AMONG_CHUNK) {
    const rows = await db
      .selectFrom("subscription")
      .select(["user_id", "role_code"])
      .where(givesAccess(now.toISOString()))
      .where("user_id", "in", userIds.slice(i, i + AMONG_CHUNK))
      .execute();
    for (const row of rows) if (row.user_id && tierOf(row.role_code)) found.add(row.user_id);
  }
  return found;
}

/**
 * Grants a subscription once per reference (a checkout id, or a print account number): a second
 * grant with the same reference changes nothing and answers false. A reader has one web plan at
 * a time: a new one replaces (cancels) the one they had, which the database enforces with a
 * unique index on the active web subscription. Given `months` rather than an end, the access
 * runs that long from `accessStart`, after the time left on the plan it replaces.
 */
export async function grantSubscription(
  db: Database,
  input: {
    userId: string;
    roleCode: string;
    source: "web" | "print";
    reference: string;
    accessStart: Date;
    /** A web plan's id, and the card kept on file when it renews by itself. */
    planId?: string;
    card?: SavedCard | null;
    /** The provider's subscription, when the provider renews it (Stripe Billing). */
    providerSubscription?: ProviderSubscriptionRef | null;
  } & ({ accessEnd: Date } | { months: number }),
  now = new Date(),
): Promise<boolean> {
  if (await db.selectFrom("subscription").select("id").where("reference", "=", input.reference).executeTakeFirst()) return false;
  const replaced = input.source === "web" ? await endWebPlan(db, input.userId) : undefined;
  const accessEnd = "accessEnd" in input ? input.accessEnd : accessEndAfterPaying(input.months, replaced?.accessEnd, input.accessStart);
  const result = await db
    .insertInto("subscription")
    .values({
      id: crypto.randomUUID(),
      user_id: input.userId,
      role_code: input.roleCode,
      source: input.source,
      reference: input.reference,
      status: "active",
      access_start: input.accessStart.toISOString(),
      access_end: accessEnd.toISOString(),
      created_at: now.toISOString(),
      plan_id: input.planId ?? null,
      billing_status: input.card || input.providerSubscription ? "active" : null,
      payment_method_id: input.card?.id ?? null,
      card_brand: input.card?.brand ?? null,
      card_last4: input.card?.last4 ?? null,
      provider_subscription_id: input.providerSubscription?.id ?? null,
      provider_customer_id: input.providerSubscription?.customerId ?? null,
    })
    .onConflict((oc) => oc.column("reference").doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

/**
 * Ends (cancels) the reader's web plan, to be replaced, and says when it would have ended.
 * Reading the end from the update itself matters: a plan activated by another request at the
 * same moment is either ended here (and its time carried over) or not seen at all (and the new
 * plan then meets it at the unique index).
 */
export async function endWebPlan(db: Database, userId: string): Promise<{ accessEnd: string } | undefined> {
  const ended = await db
    .updateTable("subscription")
    .set({ status: "cancelled" })
    .where("user_id", "=", userId)
    .where("source", "=", "web")
    .where("status", "=", "active")
    .returning("access_end")
    .execute();
  const latest = ended
    .map((r) => r.access_end)
    .sort()
    .at(-1);
  return latest ? { accessEnd: latest } : undefined;
}

/** The reader's web plan (the one a new plan would replace), whether or not its time has run out. */
export async function currentWebSubscription(db: Database, userId: string): Promise<{ roleCode: string; accessEnd: string } | undefined> {
  const row = await db
    .selectFrom("subscription")
    .select(["role_code", "access_end"])
    .where("user_id", "=", userId)
    .where("source", "=", "web")
    .where("status", "=", "active")
    .executeTakeFirst();
  return row && { roleCode: row.role_code, accessEnd: row.access_end };
}

/**
 * When access ends after paying for `months` now: the time left on the reader's current web
 * plan (its end, if still ahead) carries over onto the new one.
 */
export function accessEndAfterPaying(months: number, currentEnd: string | undefined, now: Date): Date {
  const from = currentEnd && currentEnd > now.toISOString() ? new Date(currentEnd) : now;
  return addMonths(from, months);
}

/** The date `months` calendar months after `from` (the end of a paid period). */
export function addMonths(from: Date, months: number): Date {
  const end = new Date(from);
  end.setUTCMonth(end.getUTCMonth() + months);
  return end;
}
