import { sql, type RawBuilder } from "kysely";
import { PRINT_REFERENCE_PREFIX } from "~/server/accounts/print-subscribers";
import { hashToken } from "~/server/accounts/tokens";
import { toUser, userColumns, type User } from "~/server/accounts/users";
import type { Database } from "~/server/db/connection";
import { compiledOnce } from "~/server/db/compiled-once";
import { dismissedColumn, dismissedIn, type Dismissible } from "./dismissals";
import { userKeyOf } from "./keys";
import { givesAccess, statusFrom, type SubscriberStatus } from "~/server/subscriptions/entitlements";

// What a request knows of its signed-in reader, read in one statement (ADR 095): the account,
// the cart's id, the messages they dismissed, and every subscription with what the data layer
// tells of it, marked where it gives access now (the subscriber status is made of those). Read
// once per request, by the request context, and kept no longer: a change shows on the next page.

/** A subscription as the reader's status and the analytics data layer both read it. */
export interface SubscriptionRecord {
  id: string;
  roleCode: string;
  source: "web" | "print";
  reference: string;
  status: "active" | "cancelled" | "restricted";
  accessStart: string;
  accessEnd: string;
  createdAt: string;
  billingStatus: "active" | "past_due" | "cancel_at_period_end" | "ended" | null;
  graceEnd: string | null;
  /** What the checkout that bought it charged, if a web checkout did. */
  checkoutCents: number | null;
  /** The print subscriber's source code (CDS_US…), for a print subscription. */
  printSource: string | null;
  /** Its renewal invoices. */
  renewals: number;
  /** Its latest invoice (by number): what it charged, tax included, and the period it began. */
  latestInvoice: { paidCents: number; periodStart: string } | null;
}

export interface SignedInReader {
  user: User;
  lastVisitAt: string | null;
  /** Their cart, if they have one. */
  cartId: string | null;
  /** The messages they closed for good. */
  dismissed: Dismissible[];
  /** What their subscriptions that give access now make them, or null. */
  subscriber: SubscriberStatus | null;
  /** Every subscription of theirs, oldest first. */
  subscriptions: SubscriptionRecord[];
}

/** The reader, one row per subscription (one with nulls if none): a user may have a few, never many. */
function readerRows(db: Database, now: string) {
  return db
    .selectFrom("app_user")
    .leftJoin("subscription", "subscription.user_id", "app_user.id")
    .select(userColumns)
    .select((eb) => {
      const latestInvoice = <T>(column: RawBuilder<T>) =>
        eb
          .selectFrom("invoice")
          .select(column.as("v"))
          .whereRef("invoice.user_id", "=", "app_user.id")
          .whereRef("invoice.subscription_id", "=", "subscription.id")
          .orderBy("invoice.number", "desc")
          .limit(1);
      return [
        "app_user.last_visit_at",
        dismissedColumn(db, userKeyOf(eb.ref("app_user.id"))).as("dismissed"),
        eb.selectFrom("cart").select("cart.id").whereRef("cart.user_id", "=", "app_user.id").as("cart_id"),
        "subscription.id as subscription_id",
        "subscription.role_code",
        "subscription.source",
        "subscription.reference",
        "subscription.status as subscription_status",
        "subscription.access_start",
        "subscription.access_end",
        "subscription.created_at as subscription_created_at",
        "subscription.billing_status",
        "subscription.grace_end",
        givesAccess(now).as("gives_access"),
        eb
          .selectFrom("subscription_checkout")
          .select("subscription_checkout.amount_cents")
          .whereRef("subscription_checkout.id", "=", "subscription.reference")
          .where("subscription.source", "=", "web")
          .as("checkout_cents"),
        eb
          .selectFrom("print_subscriber")
          .select("print_subscriber.source")
          // Its account number is the reference after the prefix: looked up by key, not found by a scan.
          .where(
            "print_subscriber.account_number",
            "=",
            sql<string>`substr(${sql.ref("subscription.reference")}, ${sql.lit(PRINT_REFERENCE_PREFIX.length + 1)})`,
          )
          .where("subscription.source", "=", "print")
          .as("print_source"),
        eb
          .selectFrom("invoice")
          .select((inner) => inner.fn.countAll<number>().as("n"))
          .whereRef("invoice.user_id", "=", "app_user.id")
          .whereRef("invoice.subscription_id", "=", "subscription.id")
          .where("invoice.kind", "=", "renewal")
          .as("renewals"),
        latestInvoice(sql<number>`${sql.ref("invoice.amount_cents")} + ${sql.ref("invoice.tax_cents")}`).as("latest_paid_cents"),
        latestInvoice(sql<string>`${sql.ref("invoice.period_start")}`).as("latest_period_start"),
      ] as const;
    })
    .orderBy("subscription.created_at");
}

type ReaderRow = Awaited<ReturnType<ReturnType<typeof readerRows>["execute"]>>[number];

function toReader(rows: ReaderRow[]): SignedInReader | undefined {
  const first = rows[0];
  if (!first || first.status !== "active") return undefined;
  const subscriptions = rows.filter((r) => r.subscription_id !== null);
  const entitlements = subscriptions
    .filter((r) => Boolean(r.gives_access))
    .map((r) => ({
      role_code: r.role_code!,
      source: r.source!,
      access_end: r.access_end!,
      billing_status: r.billing_status,
      grace_end: r.grace_end,
    }));
  return {
    user: toUser(first),
    lastVisitAt: first.last_visit_at,
    cartId: first.cart_id,
    dismissed: dismissedIn(first.dismissed),
    subscriber: statusFrom(entitlements),
    subscriptions: subscriptions.map((r) => ({
      id: r.subscription_id!,
      roleCode: r.role_code!,
      source: r.source!,
      reference: r.reference!,
      status: r.subscription_status!,
      accessStart: r.access_start!,
      accessEnd: r.access_end!,
      createdAt: r.subscription_created_at!,
      billingStatus: r.billing_status,
      graceEnd: r.grace_end,
      checkoutCents: r.checkout_cents,
      printSource: r.print_source,
      renewals: Number(r.renewals ?? 0),
      latestInvoice: r.latest_paid_cents === null ? null : { paidCents: Number(r.latest_paid_cents), periodStart: r.latest_period_start! },
    })),
  };
}

const sessionRows = compiledOnce(["now", "tokenHash"], (db, { now, tokenHash }) =>
  readerRows(db, now)
    .innerJoin("user_session", "user_session.user_id", "app_user.id")
    .where("user_session.id_hash", "=", tokenHash)
    .where("user_session.expires_at", ">", now),
);

/** The signed-in reader behind a session token, if the session exists, has not expired and the account is open. */
export async function readerForSession(db: Database, token: string, now = new Date()): Promise<SignedInReader | undefined> {
  return toReader(await sessionRows(db, { now: now.toISOString(), tokenHash: hashToken(token) }));
}

/** The reader with this id, if their account is open. */
export async function readerById(db: Database, userId: string, now = new Date()): Promise<SignedInReader | undefined> {
  return toReader(await readerRows(db, now.toISOString()).where("app_user.id", "=", userId).execute());
}
