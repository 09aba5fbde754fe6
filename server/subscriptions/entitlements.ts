import crypto from "node:crypto";
import type { Database } from "../db/connection";
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

/**
 * The reader's subscriptions that give access now: active, and inside their access period
 * (restricted or lapsed ones give none).
 */
export async function subscriberStatus(db: Database, userId: string, now = new Date()): Promise<SubscriberStatus | null> {
  const rows = await db
    .selectFrom("subscription")
    .select(["role_code", "source", "access_end"])
    .where("user_id", "=", userId)
    .where("status", "=", "active")
    .where("access_start", "<=", now.toISOString())
    .where("access_end", ">", now.toISOString())
    .execute();
  const entitlements = rows
    .map((r) => ({ roleCode: r.role_code, source: r.source, accessEnd: r.access_end }))
    .sort((a, b) => byRank(a.roleCode, b.roleCode));
  const first = entitlements[0];
  const tier = first && tierOf(first.roleCode);
  if (!first || !tier) return null;
  return { tier, roleCodes: entitlements.map((e) => e.roleCode), entitlements };
}

/**
 * Grants a subscription once per reference (a checkout id, or a print account number): a second
 * grant with the same reference changes nothing and answers false.
 */
export async function grantSubscription(
  db: Database,
  input: { userId: string; roleCode: string; source: "web" | "print"; reference: string; accessStart: Date; accessEnd: Date },
  now = new Date(),
): Promise<boolean> {
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
      access_end: input.accessEnd.toISOString(),
      created_at: now.toISOString(),
    })
    .onConflict((oc) => oc.column("reference").doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

/** The date `months` calendar months after `from` (the end of a paid period). */
export function addMonths(from: Date, months: number): Date {
  const end = new Date(from);
  end.setUTCMonth(end.getUTCMonth() + months);
  return end;
}
