import crypto from "node:crypto";
import type { Database } from "~/server/db/connection";
import { findPlan } from "~/server/subscriptions/plans";

/** Rows per insert: under SQLite's 32,766 bound parameters for the widest table here (17 columns). */
const CHUNK = 1_000;

export interface DueSubscriptionsOptions {
  count: number;
  /** When every one of them falls due (the end of their paid period). */
  dueAt: Date;
  planId?: string;
  /** Distinguishes readers seeded into the same database more than once. */
  label?: string;
}

/**
 * Readers with a renewing web subscription bought through the sandbox (a saved 4242 card) whose
 * period ends at `dueAt`, written with multi-row inserts: 100,000 in seconds rather than the
 * hours the checkout would take. Answers the subscriptions' ids.
 */
export async function seedDueSubscriptions(db: Database, { count, dueAt, planId = "digital", label = "due" }: DueSubscriptionsOptions) {
  const plan = findPlan(planId);
  if (!plan) throw new Error(`no plan ${planId}`);
  const now = new Date(dueAt.getTime() - 31 * 86_400_000).toISOString();
  const ids: string[] = [];
  for (let from = 0; from < count; from += CHUNK) {
    const rows = Array.from({ length: Math.min(CHUNK, count - from) }, (_, k) => {
      const n = from + k;
      return { n, user: crypto.randomUUID(), card: `pm_${crypto.randomBytes(16).toString("base64url")}`, sub: crypto.randomUUID() };
    });
    const email = (n: number) => `${label}.${n}@renewals.example`;
    await db.transaction().execute(async (tx) => {
      await tx
        .insertInto("app_user")
        .values(
          rows.map(({ n, user }) => ({
            id: user,
            email: email(n),
            first_name: "Renewing",
            last_name: `Reader ${n}`,
            // Nobody signs in as them.
            password_hash: "!",
            created_at: now,
            updated_at: now,
            last_visit_at: null,
            email_verified_at: now,
          })),
        )
        .execute();
      await tx
        .insertInto("sandbox_payment_method")
        .values(
          rows.map(({ n, card }) => ({
            id: card,
            customer_email: email(n),
            brand: "Visa",
            last4: "4242",
            declines_off_session: 0,
            created_at: now,
          })),
        )
        .execute();
      await tx
        .insertInto("subscription")
        .values(
          rows.map(({ user, card, sub }) => ({
            id: sub,
            user_id: user,
            role_code: plan.roleCode,
            source: "web" as const,
            reference: `seeded_${sub}`,
            status: "active" as const,
            access_start: now,
            access_end: dueAt.toISOString(),
            created_at: now,
            plan_id: plan.id,
            billing_status: "active" as const,
            payment_method_id: card,
            card_brand: "Visa",
            card_last4: "4242",
          })),
        )
        .execute();
    });
    ids.push(...rows.map((r) => r.sub));
  }
  return ids;
}
