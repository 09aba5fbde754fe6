import { PRINT_REFERENCE_PREFIX } from "~/server/accounts/print-subscribers";
import type { Database } from "~/server/db/connection";
import type { BillingStatus } from "~/server/db/schema";
import { findPlan, planForRole } from "~/server/subscriptions/plans";
import type { BillingAddress } from "~/shared/billing-address";
import { invoiceNumber } from "./invoices";
import { billingAddressOf, subscriptionTax, type SubscriptionTax } from "./tax";

export interface InvoiceLine {
  id: string;
  number: string;
  issued: string;
  amountCents: number;
}

/** What the subscriber's "Subscription and billing" page shows. */
export type BillingOverview =
  | {
      kind: "web";
      planName: string;
      period: "month" | "year";
      priceCents: number;
      /** Null for a plan that does not renew through the site (bought before billing, or through Stripe for now). */
      billingStatus: BillingStatus | null;
      /** The end of the paid period: the next renewal, or when a cancelled plan ends. */
      accessEnd: string;
      card: { brand: string; last4: string } | null;
      /** A downgrade chosen for the next renewal. */
      scheduledPlan: { name: string; priceCents: number; period: "month" | "year" } | null;
      /** What the next renewal (or the overdue one) charges: the price of the plan it renews as, and its sales tax. */
      renewal: { priceCents: number; tax: SubscriptionTax };
      /** Where the subscriber is billed; null for a plan bought before addresses were asked (not taxed until one is added). */
      billingAddress: BillingAddress | null;
      /** While past due: when access ends unless paid, and the next retry (null when none is left). */
      dunning: { graceEnd: string; nextRetry: string | null } | null;
      invoices: InvoiceLine[];
    }
  | { kind: "print"; accountNumber: string; accessEnd: string; invoices: InvoiceLine[] }
  | { kind: "none"; invoices: InvoiceLine[] };

/**
 * The reader's current plan as of `now`: their web plan if it renews or still gives access
 * (an ended one shows as none), else a print subscription still running; and all their invoices,
 * newest first.
 */
export async function billingOverview(db: Database, userId: string, now: Date): Promise<BillingOverview> {
  const [rows, invoiceRows] = await Promise.all([
    db
      .selectFrom("subscription")
      .select([
        "source",
        "reference",
        "role_code",
        "plan_id",
        "billing_status",
        "access_end",
        "card_brand",
        "card_last4",
        "grace_end",
        "next_retry_at",
        "scheduled_plan_id",
        "billing_country",
        "billing_region",
      ])
      .where("user_id", "=", userId)
      .where("status", "=", "active")
      .orderBy("access_end", "desc")
      .execute(),
    db
      .selectFrom("invoice")
      .select(["id", "number", "created_at", "amount_cents", "tax_cents"])
      .where("user_id", "=", userId)
      .orderBy("number", "desc")
      .execute(),
  ]);
  const invoices = invoiceRows.map((i) => ({
    id: i.id,
    number: invoiceNumber(i.number),
    issued: i.created_at,
    amountCents: i.amount_cents + i.tax_cents,
  }));
  const current = (r: (typeof rows)[number]) =>
    r.billing_status === "active" || r.billing_status === "past_due" || (r.billing_status !== "ended" && r.access_end > now.toISOString());
  const web = rows.find((r) => r.source === "web" && current(r));
  const plan = web && (findPlan(web.plan_id ?? "") ?? planForRole(web.role_code));
  if (web && plan) {
    const renewsAs = findPlan(web.scheduled_plan_id ?? "") ?? plan;
    const address = billingAddressOf(web);
    return {
      kind: "web",
      planName: plan.name,
      period: plan.period,
      priceCents: plan.priceCents,
      billingStatus: web.billing_status,
      accessEnd: web.access_end,
      card: web.card_brand && web.card_last4 ? { brand: web.card_brand, last4: web.card_last4 } : null,
      scheduledPlan: scheduledPlan(web.scheduled_plan_id),
      dunning: web.billing_status === "past_due" && web.grace_end ? { graceEnd: web.grace_end, nextRetry: web.next_retry_at } : null,
      renewal: { priceCents: renewsAs.priceCents, tax: subscriptionTax(renewsAs.priceCents, address) },
      billingAddress: address,
      invoices,
    };
  }
  const print = rows.find((r) => r.source === "print" && r.access_end > now.toISOString());
  if (print)
    return { kind: "print", accountNumber: print.reference.slice(PRINT_REFERENCE_PREFIX.length), accessEnd: print.access_end, invoices };
  return { kind: "none", invoices };
}

/** Whether the invoice is the reader's own: false for anyone else's, or no such invoice. */
export async function isOwnInvoice(db: Database, userId: string, invoiceId: string): Promise<boolean> {
  const row = await db.selectFrom("invoice").select("id").where("id", "=", invoiceId).where("user_id", "=", userId).executeTakeFirst();
  return Boolean(row);
}

function scheduledPlan(planId: string | null) {
  const plan = planId ? findPlan(planId) : undefined;
  return plan ? { name: plan.name, priceCents: plan.priceCents, period: plan.period } : null;
}
