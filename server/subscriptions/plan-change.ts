import type { Database } from "~/server/db/connection";
import { accessEndAfterPaying, currentWebSubscription } from "./entitlements";
import { planForRole, type Plan } from "./plans";

export interface PlanChange {
  /** The web plan the reader has now, while it still gives access. */
  current: { plan: Plan; accessEnd: string };
  /** "renew": the same plan again; "change": another plan replaces it. */
  kind: "renew" | "change";
  /** When access would end after paying for the chosen plan now. */
  newAccessEnd: string;
}

/**
 * What choosing `plan` means for a reader who already has a web plan: it replaces that plan
 * (or renews it), and the time left carries over. Null for a reader without a current web plan.
 */
export async function planChangeFor(db: Database, userId: string, plan: Plan, now = new Date()): Promise<PlanChange | null> {
  const current = await currentWebPlan(db, userId, now);
  if (!current) return null;
  return {
    current,
    kind: current.plan.id === plan.id ? "renew" : "change",
    newAccessEnd: accessEndAfterPaying(plan.months, current.accessEnd, now).toISOString(),
  };
}

/** The reader's current web plan, while it gives access. */
export async function currentWebPlan(db: Database, userId: string, now = new Date()): Promise<{ plan: Plan; accessEnd: string } | null> {
  const subscription = await currentWebSubscription(db, userId);
  const plan = subscription && subscription.accessEnd > now.toISOString() ? planForRole(subscription.roleCode) : undefined;
  return subscription && plan ? { plan, accessEnd: subscription.accessEnd } : null;
}
