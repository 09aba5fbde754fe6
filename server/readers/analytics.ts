import { sql } from "kysely";
import { PRINT_REFERENCE_PREFIX } from "~/server/accounts/print-subscribers";
import type { Database } from "~/server/db/connection";
import { readQuota } from "~/server/paywall/meter";
import { userKey, visitorKey } from "./keys";
import { PLANS } from "~/server/subscriptions/plans";
import { tierOf } from "~/server/subscriptions/tiers";
import type { AnalyticsSubscriptionStatus } from "~/shared/subscription-statuses";

// The analytics data layer (spec section 3, "Analytics user view" and "Visitor scores"): what a
// tag manager may read of the reader on every page. It is built from the reader's own records
// only, goes to no third party, and holds nothing the page itself does not already know of them.

export type UserState = "Guest" | "Registered" | "Subscriber";

export interface AnalyticsSubscription {
  subscriptionSourceCode: string;
  subscriptionStatus: AnalyticsSubscriptionStatus;
  /** Renewals paid: the subscription's renewal invoices. */
  timesRenewed: number;
  /** Its latest payment (the purchase, or the last renewal), tax included, in dollars; null for a print subscription linked to the account. */
  orderValue: number | null;
  country: string | null;
  termTitle: string;
  accountNumber: string | null;
  purchaseDate: string;
  /** The current period: from the start of the one last paid for to the end of access (a past-due plan's grace included). */
  subscriptionAccessPeriod: { start: string; expiration: string };
}

export interface AnalyticsUserView {
  accountID: string | null;
  /**
   * The account id once signed in. Null for a guest: a guest's page is kept in the page cache
   * for every guest at the same point of the meter, so it carries nothing of one browser.
   */
  guid: string | null;
  userState: UserState;
  username: string | null;
  quota: { limit: number; remaining: number } | null;
  subscriptions: AnalyticsSubscription[];
  createdDate: string | null;
  lastVisitDate: string | null;
  /** The topics the reader follows. */
  following: string[];
  optIn: boolean;
}

export interface AnalyticsDataLayer {
  user: AnalyticsUserView;
  /** Spec "Visitor scores": score name to number, or null where there is no score. */
  visitorScores: Record<string, number | null>;
}

export interface AnalyticsReader {
  userId: string | undefined;
  /** A guest's visitor id, which reads their meter (and is not shown). */
  visitorId: string | undefined;
  subscriber: boolean;
  /** The article meter's monthly limits. */
  limits: { guest: number; registered: number };
  /**
   * The page counts a read on the meter itself (an article page). Its loader runs beside this
   * one, so a count made here could fall before or after that read: the meter is left out, and
   * the page gives its own answer (app/root.tsx fills it in from the page's offer).
   */
  pageCountsRead: boolean;
}

const planTitle = (roleCode: string) =>
  PLANS.find((p) => p.roleCode === roleCode)?.name ?? tierOf(roleCode)?.caption ?? tierOf(roleCode)?.name ?? roleCode;

export async function analyticsDataLayer(db: Database, reader: AnalyticsReader, now = new Date()): Promise<AnalyticsDataLayer> {
  const { userId, visitorId, subscriber, limits, pageCountsRead } = reader;
  if (!userId) {
    const quota = visitorId && !pageCountsRead ? await readQuota(db, visitorKey(visitorId), "article", limits.guest, now) : null;
    return {
      user: {
        accountID: null,
        guid: null,
        userState: "Guest",
        username: null,
        quota: quota && { limit: quota.limit, remaining: quota.remaining },
        subscriptions: [],
        createdDate: null,
        lastVisitDate: null,
        following: [],
        optIn: false,
      },
      visitorScores: { articlesReadThisMonth: quota?.count ?? null, topicsFollowed: null },
    };
  }
  const [account, quota, subscriptions, following] = await Promise.all([
    db.selectFrom("app_user").select(["email", "opt_in", "created_at", "last_visit_at"]).where("id", "=", userId).executeTakeFirstOrThrow(),
    subscriber || pageCountsRead ? null : readQuota(db, userKey(userId), "article", limits.registered, now),
    readerSubscriptions(db, userId, now),
    followedTopics(db, userId),
  ]);
  return {
    user: {
      accountID: userId,
      guid: userId,
      userState: subscriber ? "Subscriber" : "Registered",
      username: account.email,
      quota: quota && { limit: quota.limit, remaining: quota.remaining },
      subscriptions,
      createdDate: account.created_at,
      lastVisitDate: account.last_visit_at,
      following,
      optIn: account.opt_in === 1,
    },
    visitorScores: { articlesReadThisMonth: quota?.count ?? null, topicsFollowed: following.length },
  };
}

async function followedTopics(db: Database, userId: string): Promise<string[]> {
  const ids = (await db.selectFrom("follow").select("target").where("user_id", "=", userId).where("kind", "=", "topic").execute())
    .map((f) => Number(f.target))
    .filter(Number.isSafeInteger);
  if (ids.length === 0) return [];
  const topics = await db.selectFrom("topic").select("name").where("id", "in", ids).orderBy("name").execute();
  return topics.map((t) => t.name);
}

/**
 * The reader's subscriptions, oldest first, as the data layer and the service API's profile both
 * tell them: status, renewals and latest payment from the subscription's invoices.
 */
export async function readerSubscriptions(db: Database, userId: string, now = new Date()): Promise<AnalyticsSubscription[]> {
  const [rows, invoices] = await Promise.all([subscriptionRows(db, userId), invoicesOf(db, userId)]);
  return rows.map((r) => {
    const paid = invoices.filter((i) => i.subscription_id === r.id);
    const latest = paid.at(-1);
    const print = r.source === "print";
    const checkoutValue = r.amount_cents === null ? null : r.amount_cents / 100;
    const inGrace = r.billing_status === "past_due" && r.grace_end !== null && r.grace_end > r.access_end;
    return {
      subscriptionSourceCode: print ? (r.print_source ?? "PRINT") : "WEB",
      subscriptionStatus: statusOf(r, now),
      timesRenewed: paid.filter((i) => i.kind === "renewal").length,
      orderValue: latest ? (latest.amount_cents + latest.tax_cents) / 100 : checkoutValue,
      country: print && r.print_source ? countryOfSource(r.print_source) : null,
      termTitle: planTitle(r.role_code),
      accountNumber: print ? r.reference.slice(PRINT_REFERENCE_PREFIX.length) : null,
      purchaseDate: r.created_at,
      subscriptionAccessPeriod: { start: latest?.period_start ?? r.access_start, expiration: inGrace ? r.grace_end! : r.access_end },
    };
  });
}

type SubscriptionRow = Awaited<ReturnType<typeof subscriptionRows>>[number];

function statusOf(r: SubscriptionRow, now: Date): AnalyticsSubscriptionStatus {
  if (r.status === "restricted") return "restricted";
  if (r.status === "cancelled") return "replaced";
  const over = r.access_end <= now.toISOString();
  switch (r.billing_status) {
    case "active":
      return "active";
    case "past_due":
      return "past_due";
    case "cancel_at_period_end":
      return over ? "expired" : "cancelled";
    case "ended":
      return "expired";
    case null:
      return over ? "expired" : "active";
  }
}

const invoicesOf = (db: Database, userId: string) =>
  db
    .selectFrom("invoice")
    .select(["subscription_id", "kind", "amount_cents", "tax_cents", "period_start"])
    .where("user_id", "=", userId)
    .orderBy("number")
    .execute();

function subscriptionRows(db: Database, userId: string) {
  return db
    .selectFrom("subscription")
    .leftJoin("subscription_checkout", (join) =>
      join.onRef("subscription_checkout.id", "=", "subscription.reference").on("subscription.source", "=", "web"),
    )
    .leftJoin("print_subscriber", (join) =>
      join
        .on("subscription.reference", "=", sql<string>`${PRINT_REFERENCE_PREFIX} || print_subscriber.account_number`)
        .on("subscription.source", "=", "print"),
    )
    .select([
      "subscription.id",
      "subscription.role_code",
      "subscription.source",
      "subscription.reference",
      "subscription.status",
      "subscription.access_start",
      "subscription.access_end",
      "subscription.created_at",
      "subscription.billing_status",
      "subscription.grace_end",
      "subscription_checkout.amount_cents",
      "print_subscriber.source as print_source",
    ])
    .where("subscription.user_id", "=", userId)
    .orderBy("subscription.created_at")
    .execute();
}

/** Print source codes name the fulfilment country (CDS_US, CDS_UK). */
function countryOfSource(source: string): string | null {
  const match = /_([A-Z]{2})$/.exec(source.toUpperCase());
  return match ? (match[1] === "UK" ? "GB" : match[1]!) : null;
}
