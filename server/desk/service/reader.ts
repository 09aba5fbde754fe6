import type { Database } from "~/server/db/connection";
import { LINKABLE_SOURCES, PRINT_REFERENCE_PREFIX } from "~/server/accounts/print-subscribers";
import { findUserById, type User } from "~/server/accounts/users";
import { mailSentTo, type LoggedMail } from "~/server/adapters/mail-log";
import { invoiceNumber } from "~/server/billing/invoices";
import { meterPeriod, readQuota } from "~/server/paywall/meter";
import { userKey } from "~/server/readers/keys";
import { giftsLeft, listGifts, type Gift } from "~/server/share/gifts";
import { extendedExpiries, laterExpiry } from "~/server/store/download-extensions";
import { CASE_STUDY, expiryOf } from "~/server/store/downloads";
import { findPlan } from "~/server/subscriptions/plans";
import { tierOf } from "~/server/subscriptions/tiers";
import { COMP_REFERENCE_PREFIX } from "./rules";

// A reader as customer service sees them (ADR 087): what a support agent needs, and never a
// password hash, a token or more of a card than its brand and last four digits.

export interface ReaderSubscription {
  id: string;
  tier: string;
  kind: "web" | "print" | "complimentary";
  planName: string | null;
  /** A print subscription's account number. */
  accountNumber: string | null;
  status: string;
  billingStatus: string | null;
  accessStart: string;
  accessEnd: string;
  givesAccess: boolean;
  card: { brand: string | null; last4: string } | null;
  /** Whether the desk can move its end (not print, not renewed by Stripe, not past due or ended). */
  extendable: boolean;
}

export interface ReaderInvoice {
  id: string;
  number: string;
  kind: string;
  totalCents: number;
  createdAt: string;
  receiptSentAt: string | null;
  card: { brand: string | null; last4: string } | null;
}

export interface ReaderOrder {
  id: string;
  number: string;
  status: string;
  totalCents: number;
  createdAt: string;
  paidAt: string | null;
  caseStudies: { position: number; title: string; expiresAt: string; extended: boolean; expired: boolean }[];
}

export interface PrintRecord {
  accountNumber: string;
  subscriptionCode: string;
  accessEnd: string;
  active: boolean;
  linked: boolean;
}

export interface ReaderOverview {
  account: Pick<User, "id" | "email" | "firstName" | "lastName" | "displayName" | "status" | "createdAt" | "emailVerifiedAt"> & {
    lastVisitAt: string | null;
    staff: boolean;
  };
  signIn: { failures: number; lockouts: number; lockedUntil: string | null; locked: boolean; hardLocked: boolean } | null;
  subscriptions: ReaderSubscription[];
  invoices: ReaderInvoice[];
  orders: ReaderOrder[];
  printRecords: PrintRecord[];
  gifts: { list: Gift[]; left: number };
  meter: { period: string; count: number; limit: number };
  mail: LoggedMail[];
}

export interface OverviewLimits {
  meterLimit: number;
  giftsPerMonth: number;
}

const card = (brand: string | null, last4: string | null) => (last4 ? { brand, last4 } : null);

function subscriptionKind(source: "web" | "print", reference: string): ReaderSubscription["kind"] {
  if (source === "print") return "print";
  return reference.startsWith(COMP_REFERENCE_PREFIX) ? "complimentary" : "web";
}

/** Everything the reader's page shows, or undefined for an unknown reader. */
export async function readerOverview(
  db: Database,
  userId: string,
  limits: OverviewLimits,
  now = new Date(),
): Promise<ReaderOverview | undefined> {
  const user = await findUserById(db, userId);
  if (!user) return undefined;
  const at = now.toISOString();
  const [extra, staff, failure, subscriptions, invoices, orderRows, prints, gifts, left, meter, mail] = await Promise.all([
    db.selectFrom("app_user").select("last_visit_at").where("id", "=", userId).executeTakeFirstOrThrow(),
    db.selectFrom("staff_role").select("role").where("user_id", "=", userId).executeTakeFirst(),
    db
      .selectFrom("login_failure")
      .select(["failures", "lockouts", "locked_until", "hard_locked"])
      .where("email", "=", user.email)
      .executeTakeFirst(),
    db
      .selectFrom("subscription")
      .select([
        "id",
        "role_code",
        "source",
        "reference",
        "status",
        "billing_status",
        "access_start",
        "access_end",
        "grace_end",
        "plan_id",
        "card_brand",
        "card_last4",
        "provider_subscription_id",
      ])
      .where("user_id", "=", userId)
      .orderBy("created_at", "desc")
      .execute(),
    db
      .selectFrom("invoice")
      .select(["id", "number", "kind", "amount_cents", "tax_cents", "created_at", "receipt_sent_at", "card_brand", "card_last4"])
      .where("user_id", "=", userId)
      .orderBy("number", "desc")
      .limit(50)
      .execute(),
    db
      .selectFrom("store_order")
      .select(["id", "number", "status", "total_cents", "created_at", "paid_at"])
      .where((eb) => eb.or([eb("user_id", "=", userId), eb.and([eb("user_id", "is", null), eb("email", "=", user.email)])]))
      .orderBy("created_at", "desc")
      .limit(50)
      .execute(),
    db
      .selectFrom("print_subscriber")
      .select(["account_number", "subscription_code", "access_end", "active", "source"])
      .where("email", "=", user.email)
      .execute(),
    listGifts(db, userId, 20),
    giftsLeft(db, userId, limits.giftsPerMonth, now),
    readQuota(db, userKey(userId), "article", limits.meterLimit, now),
    mailSentTo(db, user.email),
  ]);

  const linkedNumbers = new Set(
    subscriptions.filter((s) => s.source === "print").map((s) => s.reference.slice(PRINT_REFERENCE_PREFIX.length)),
  );
  const recordNumbers = new Set(prints.map((p) => p.account_number));
  const printRecords: PrintRecord[] = [
    ...prints.map((p) => ({
      accountNumber: p.account_number,
      subscriptionCode: p.subscription_code,
      accessEnd: p.access_end,
      active: Number(p.active) === 1 && (LINKABLE_SOURCES as readonly string[]).includes(p.source) && p.access_end >= at.slice(0, 10),
      linked: linkedNumbers.has(p.account_number),
    })),
  ];
  // A record linked while it was under another address.
  const elsewhere = [...linkedNumbers].filter((n) => !recordNumbers.has(n));
  if (elsewhere.length > 0) {
    const rows = await db
      .selectFrom("print_subscriber")
      .select(["account_number", "subscription_code", "access_end", "active", "source"])
      .where("account_number", "in", elsewhere)
      .execute();
    for (const p of rows)
      printRecords.push({
        accountNumber: p.account_number,
        subscriptionCode: p.subscription_code,
        accessEnd: p.access_end,
        active: Number(p.active) === 1,
        linked: true,
      });
  }

  const orders: ReaderOrder[] = [];
  for (const o of orderRows) {
    let caseStudies: ReaderOrder["caseStudies"] = [];
    if (o.status === "paid" && o.paid_at) {
      const paidAt = o.paid_at;
      const [lines, extended] = await Promise.all([
        db
          .selectFrom("store_order_line")
          .select(["position", "title", "kind", "product_type"])
          .where("order_id", "=", o.id)
          .where("product_type", "=", CASE_STUDY)
          .orderBy("position")
          .execute(),
        extendedExpiries(db, o.id),
      ]);
      caseStudies = lines.flatMap((l) => {
        const own = expiryOf(l, paidAt);
        const expiresAt = laterExpiry(own, extended.get(l.position));
        return own && expiresAt
          ? [{ position: l.position, title: l.title, expiresAt, extended: expiresAt !== own, expired: at >= expiresAt }]
          : [];
      });
    }
    orders.push({
      id: o.id,
      number: o.number,
      status: o.status,
      totalCents: o.total_cents,
      createdAt: o.created_at,
      paidAt: o.paid_at,
      caseStudies,
    });
  }

  const lockedUntil = failure?.locked_until ?? null;
  return {
    account: {
      id: user.id,
      email: user.email,
      firstName: user.firstName,
      lastName: user.lastName,
      displayName: user.displayName,
      status: user.status,
      createdAt: user.createdAt,
      emailVerifiedAt: user.emailVerifiedAt,
      lastVisitAt: extra.last_visit_at,
      staff: Boolean(staff),
    },
    signIn: failure
      ? {
          failures: Number(failure.failures),
          lockouts: Number(failure.lockouts),
          lockedUntil,
          locked: lockedUntil !== null && lockedUntil > at,
          hardLocked: Number(failure.hard_locked) === 1 && lockedUntil !== null && lockedUntil > at,
        }
      : null,
    subscriptions: subscriptions.map((s) => {
      const kind = subscriptionKind(s.source, s.reference);
      const pastDueGrace = s.billing_status === "past_due" && s.grace_end !== null && s.grace_end > at;
      return {
        id: s.id,
        tier: tierOf(s.role_code)?.name ?? s.role_code,
        kind,
        planName: s.plan_id ? (findPlan(s.plan_id)?.name ?? s.plan_id) : null,
        accountNumber: s.source === "print" ? s.reference.slice(PRINT_REFERENCE_PREFIX.length) : null,
        status: s.status,
        billingStatus: s.billing_status,
        accessStart: s.access_start,
        accessEnd: s.access_end,
        givesAccess: s.status === "active" && s.access_start <= at && s.billing_status !== "ended" && (s.access_end > at || pastDueGrace),
        card: card(s.card_brand, s.card_last4),
        extendable: extendable(s),
      };
    }),
    invoices: invoices.map((i) => ({
      id: i.id,
      number: invoiceNumber(Number(i.number)),
      kind: i.kind,
      totalCents: i.amount_cents + i.tax_cents,
      createdAt: i.created_at,
      receiptSentAt: i.receipt_sent_at,
      card: card(i.card_brand, i.card_last4),
    })),
    orders,
    printRecords,
    gifts: { list: gifts, left },
    meter: { period: meterPeriod(now), count: meter.count, limit: meter.limit },
    mail,
  };
}

/** Whether the desk may move a subscription's end: a web plan the site itself keeps, in good standing. */
export function extendable(s: {
  source: "web" | "print";
  status: string;
  billing_status: string | null;
  provider_subscription_id: string | null;
}): boolean {
  return (
    s.source === "web" &&
    s.status === "active" &&
    s.provider_subscription_id === null &&
    s.billing_status !== "past_due" &&
    s.billing_status !== "ended"
  );
}
