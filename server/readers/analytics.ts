import { PRINT_REFERENCE_PREFIX } from "~/server/accounts/print-subscribers";
import type { Database } from "~/server/db/connection";
import { readQuota, type Quota } from "~/server/paywall/meter";
import { userKey, visitorKey } from "./keys";
import type { SignedInReader, SubscriptionRecord } from "./signed-in";
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
  /** The signed-in reader as their request read them, and the names of the topics they follow; undefined for a guest. */
  signedIn: { reader: SignedInReader; following: string[] } | undefined;
  /** Where the reader's meter stands (layerQuota). */
  quota: Quota | null;
}

export interface MeterAsked {
  /** The signed-in reader as their request read them; undefined for a guest. */
  reader: SignedInReader | undefined;
  /** A guest's visitor id, which reads their meter (and is not shown). */
  visitorId: string | undefined;
  /** The article meter's monthly limits. */
  limits: { guest: number; registered: number };
  /**
   * The page counts a read on the meter itself (an article page). Its loader runs beside this
   * one, so a count made here could fall before or after that read: the meter is left out, and
   * the page gives its own answer (app/root.tsx fills it in from the page's offer).
   */
  pageCountsRead: boolean;
}

/**
 * Where the reader's article meter stands, for the layer: null for a subscriber, a guest with no
 * visitor id yet, and a page that counts a read itself. Its own read, so that a page runs it
 * beside its others instead of after them.
 */
export async function layerQuota(db: Database, asked: MeterAsked, now = new Date()): Promise<Quota | null> {
  const { reader, visitorId, limits, pageCountsRead } = asked;
  if (pageCountsRead) return null;
  if (!reader) return visitorId ? readQuota(db, visitorKey(visitorId), "article", limits.guest, now) : null;
  return reader.subscriber !== null ? null : readQuota(db, userKey(reader.user.id), "article", limits.registered, now);
}

const planTitle = (roleCode: string) =>
  PLANS.find((p) => p.roleCode === roleCode)?.name ?? tierOf(roleCode)?.caption ?? tierOf(roleCode)?.name ?? roleCode;

export function analyticsDataLayer({ signedIn, quota }: AnalyticsReader, now = new Date()): AnalyticsDataLayer {
  if (!signedIn) {
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
  const { reader: account, following } = signedIn;
  const userId = account.user.id;
  const subscriber = account.subscriber !== null;
  return {
    user: {
      accountID: userId,
      guid: userId,
      userState: subscriber ? "Subscriber" : "Registered",
      username: account.user.email,
      quota: quota && { limit: quota.limit, remaining: quota.remaining },
      subscriptions: analyticsSubscriptions(account.subscriptions, now),
      createdDate: account.user.createdAt,
      lastVisitDate: account.lastVisitAt,
      following,
      optIn: account.user.optIn,
    },
    visitorScores: { articlesReadThisMonth: quota?.count ?? null, topicsFollowed: following.length },
  };
}

/**
 * The reader's subscriptions, oldest first, as the data layer and the service API's profile both
 * tell them: status, renewals and latest payment from the subscription's invoices.
 */
export function analyticsSubscriptions(records: readonly SubscriptionRecord[], now: Date): AnalyticsSubscription[] {
  return records.map((r) => {
    const print = r.source === "print";
    const checkoutValue = r.checkoutCents === null ? null : r.checkoutCents / 100;
    const inGrace = r.billingStatus === "past_due" && r.graceEnd !== null && r.graceEnd > r.accessEnd;
    return {
      subscriptionSourceCode: print ? (r.printSource ?? "PRINT") : "WEB",
      subscriptionStatus: statusOf(r, now),
      timesRenewed: r.renewals,
      orderValue: r.latestInvoice ? r.latestInvoice.paidCents / 100 : checkoutValue,
      country: print && r.printSource ? countryOfSource(r.printSource) : null,
      termTitle: planTitle(r.roleCode),
      accountNumber: print ? r.reference.slice(PRINT_REFERENCE_PREFIX.length) : null,
      purchaseDate: r.createdAt,
      subscriptionAccessPeriod: { start: r.latestInvoice?.periodStart ?? r.accessStart, expiration: inGrace ? r.graceEnd! : r.accessEnd },
    };
  });
}

function statusOf(r: SubscriptionRecord, now: Date): AnalyticsSubscriptionStatus {
  if (r.status === "restricted") return "restricted";
  if (r.status === "cancelled") return "replaced";
  const over = r.accessEnd <= now.toISOString();
  switch (r.billingStatus) {
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

/** Print source codes name the fulfilment country (CDS_US, CDS_UK). */
function countryOfSource(source: string): string | null {
  const match = /_([A-Z]{2})$/.exec(source.toUpperCase());
  return match ? (match[1] === "UK" ? "GB" : match[1]!) : null;
}
