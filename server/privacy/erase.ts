import { sql } from "kysely";
import { newToken } from "~/server/accounts/tokens";
import type { Database } from "~/server/db/connection";
import { isPostgres } from "~/server/db/dialect";
import { READER, recordAudit } from "~/server/desk/audit";
import type { PaymentProvider } from "~/server/payments/provider";
import { preorderPaymentReference } from "~/server/store/preorder-payment";
import { deleteOrderCustomer, spentCustomers } from "~/server/store/preorders";
import { userKey } from "~/server/readers/keys";
import { findPlan } from "~/server/subscriptions/plans";

// A reader deleting their own account (ADR 089), in one transaction:
// - refused for staff (an admin removes them from staff first), while a web plan still renews
//   or is past due (the reader cancels it first, or it ends), and while an order awaits payment;
// - kept, unlinked, with the buyer's name: orders (their e-mail erased, their access key
//   changed), invoices, web subscriptions (ended now) and paid checkouts, which the law and the
//   publisher's figures need;
// - erased: the account and everything that cascades from it (sessions, profile, follows and
//   newsletter sign-ups, library, notes, histories, gifts, cart, saved addresses, password and
//   e-mail links, newsletter deliveries), the meter and dismissed messages (keyed by the
//   account), the mail log's rows for its addresses, sign-in failures and rate-limit counters
//   for its address, customer service's replay keys, linked print subscriptions' links, the
//   cards put on file for its plans;
// - at the payment provider: Stripe's customers deleted (before the transaction, with its plans
//   ended there; an order's only once nothing is left to charge to its card, else by the
//   pre-order job later), the sandbox's payments and saved cards anonymised (in it);
// - and one audit row that names the account by its id alone.
// tests/db/privacy.test.ts checks that no table keeps a row tied to the account afterwards.

export type DeletionBlocker =
  | { reason: "staff" }
  /** A web plan that will charge again: cancelled first, its access runs to `accessEnd`. */
  | { reason: "renewing"; plan: string; accessEnd: string }
  /** A renewal that failed and is still being tried, until `graceEnd`. */
  | { reason: "past-due"; graceEnd: string | null }
  | { reason: "pending-order"; orderId: string; orderNumber: string };

export interface DeletedAccount {
  userId: string;
  /** The address the account had, for the confirmation mail: nothing else keeps it. */
  email: string;
  firstName: string;
  ordersKept: number;
  invoicesKept: number;
}

export type DeletionOutcome =
  { ok: true; deleted: DeletedAccount } | { ok: false; reason: "not-found" } | { ok: false; blocker: DeletionBlocker };

/**
 * The payment provider as deleting an account asks it to forget the reader: one that keeps records
 * of its own (Stripe) ends the plans it renews (`subscriptions.cancelNow`) and deletes the customers
 * it keeps (`customers.delete`): the plans', and those its orders' checkouts made for pre-orders
 * once nothing is left to charge to them. Both calls are idempotent at the provider, so a deletion
 * tried again after a failure asks again safely; both throw when the provider cannot be reached.
 * The sandbox has neither: its records are in the site's database, and the transaction anonymises them.
 */
export type ProviderOfRecord = Pick<PaymentProvider, "name" | "subscriptions" | "customers">;

/** The e-mail address a deleted buyer's orders keep: none (nothing is mailed about them). */
export const ERASED_EMAIL = "";

/** Why the account cannot be deleted now, or null when it can. */
export async function deletionBlocker(db: Database, userId: string): Promise<DeletionBlocker | null> {
  const staff = await db.selectFrom("staff_role").select("role").where("user_id", "=", userId).executeTakeFirst();
  if (staff) return { reason: "staff" };
  const plan = await db
    .selectFrom("subscription")
    .select(["plan_id", "billing_status", "access_end", "grace_end"])
    .where("user_id", "=", userId)
    .where("source", "=", "web")
    .where("status", "=", "active")
    .where("billing_status", "in", ["active", "past_due"])
    .executeTakeFirst();
  if (plan?.billing_status === "active")
    return { reason: "renewing", plan: findPlan(plan.plan_id ?? "")?.name ?? "web", accessEnd: plan.access_end };
  if (plan) return { reason: "past-due", graceEnd: plan.grace_end };
  const pending = await db
    .selectFrom("store_order")
    .select(["id", "number"])
    .where("user_id", "=", userId)
    .where("status", "=", "pending_payment")
    .orderBy("created_at")
    .executeTakeFirst();
  return pending ? { reason: "pending-order", orderId: pending.id, orderNumber: pending.number } : null;
}

class Blocked extends Error {
  constructor(readonly blocker: DeletionBlocker) {
    super(blocker.reason);
  }
}

/**
 * Deletes the reader's account. First, at the provider (Stripe): a plan it renews that was
 * cancelled but runs to its period's end is ended, then every customer the reader's plans belong
 * to is deleted, and each customer the reader's orders keep a card with that nothing is left to
 * charge to, so that nothing there stays tied to the account but what a pre-order still due needs.
 * If the provider cannot be reached this throws, and the account is not deleted: the reader tries
 * again, and the provider answers what it did already the same way.
 */
export async function deleteAccount(db: Database, userId: string, now: Date, provider?: ProviderOfRecord): Promise<DeletionOutcome> {
  const early = await deletionBlocker(db, userId);
  if (early) return { ok: false, blocker: early };
  const plans = await db
    .selectFrom("subscription")
    .select(["provider_subscription_id", "provider_customer_id", "billing_status"])
    .where("user_id", "=", userId)
    .where((eb) => eb.or([eb("provider_subscription_id", "is not", null), eb("provider_customer_id", "is not", null)]))
    .execute();
  if (plans.length > 0) {
    const [subscriptions, customers] = [provider?.subscriptions, provider?.customers];
    if (!subscriptions || !customers)
      throw new Error("the reader's plans and customers at the provider can only be ended through the provider");
    for (const plan of plans)
      if (plan.provider_subscription_id && plan.billing_status !== "ended") await subscriptions.cancelNow(plan.provider_subscription_id);
    for (const customer of new Set(plans.map((p) => p.provider_customer_id))) if (customer) await customers.delete(customer);
  }
  // An order's customer that still has a pre-order to charge on its date stays: the order is kept,
  // and the scheduled job charges it, then deletes the customer (server/store/preorders.ts).
  for (const spent of await spentCustomers(db, { userId })) {
    if (!provider?.customers || spent.provider !== provider.name)
      throw new Error(`order ${spent.orderId}'s customer at ${spent.provider} can only be deleted through that provider`);
    await deleteOrderCustomer(db, provider.customers, spent);
  }
  try {
    return await db.transaction().execute((tx) => erase(tx, userId, now));
  } catch (error) {
    if (error instanceof Blocked) return { ok: false, blocker: error.blocker };
    throw error;
  }
}

async function erase(tx: Database, userId: string, now: Date): Promise<DeletionOutcome> {
  const at = now.toISOString();
  // PostgreSQL: the account's row, plans and orders are held until this commits, so a plan
  // resumed or an order placed at the same moment waits, then finds the account gone. SQLite's
  // transaction holds the write lock from its start.
  const postgres = isPostgres(tx);
  let account = tx.selectFrom("app_user").select(["email", "first_name", "last_name"]).where("id", "=", userId);
  if (postgres) account = account.forUpdate();
  const user = await account.executeTakeFirst();
  if (!user) return { ok: false, reason: "not-found" };
  if (postgres) {
    await tx.selectFrom("subscription").select("id").where("user_id", "=", userId).forUpdate().execute();
    await tx.selectFrom("store_order").select("id").where("user_id", "=", userId).forUpdate().execute();
  }
  const blocker = await deletionBlocker(tx, userId);
  if (blocker) throw new Blocked(blocker);
  const buyer = `${user.first_name} ${user.last_name}`.trim();
  // While the orders and plans still name the account: they find its payments at the sandbox.
  await anonymiseSandbox(tx, userId);

  // Kept, unlinked: orders, made out to the buyer, reachable by no old link.
  const orders = await tx.selectFrom("store_order").select("id").where("user_id", "=", userId).execute();
  for (const order of orders)
    await tx
      .updateTable("store_order")
      .set({ user_id: null, email: ERASED_EMAIL, buyer_name: buyer, access_token: newToken() })
      .where("id", "=", order.id)
      .execute();
  const invoices = await tx
    .updateTable("invoice")
    .set({ user_id: null, buyer_name: buyer })
    .where("user_id", "=", userId)
    .executeTakeFirst();

  // Print links are only links (the print subscription is the publisher's print contract, kept
  // apart); web plans end now and stay, unlinked and without their card, for the invoices and
  // the figures; checkouts that bought one stay too, without the company and tax id the invoice keeps.
  await tx.deleteFrom("subscription").where("user_id", "=", userId).where("source", "=", "print").execute();
  // The cards put on file for its plans, as the provider named them.
  await tx
    .deleteFrom("card_change")
    .where("subscription_id", "in", tx.selectFrom("subscription").select("id").where("user_id", "=", userId))
    .execute();
  await tx
    .updateTable("subscription")
    .set({
      user_id: null,
      status: sql<"cancelled">`case when status = 'active' then 'cancelled' else status end`,
      billing_status: sql`case when billing_status is null then null else 'ended' end`,
      access_end: sql<string>`case when access_end > ${at} then ${at} else access_end end`,
      grace_end: null,
      next_retry_at: null,
      payment_method_id: null,
      card_brand: null,
      card_last4: null,
      provider_customer_id: null,
      scheduled_plan_id: null,
      pending_change: null,
    })
    .where("user_id", "=", userId)
    .execute();
  await tx.deleteFrom("subscription_checkout").where("user_id", "=", userId).where("status", "!=", "activated").execute();
  await tx
    .updateTable("subscription_checkout")
    .set({ user_id: null, company: null, tax_id: null, idempotency_key: null, provider_checkout_url: null })
    .where("user_id", "=", userId)
    .execute();
  await tx.updateTable("voucher").set({ redeemed_by: null }).where("redeemed_by", "=", userId).execute();
  // A code's uses still count against its limit in all, no longer against this reader.
  for (const uses of ["promo_use", "voucher_use"] as const)
    await tx.updateTable(uses).set({ user_id: null, email: ERASED_EMAIL }).where("user_id", "=", userId).execute();

  // Erased: what is keyed by the account or its addresses but not tied to it by a foreign key.
  const addresses = [
    user.email,
    ...(await tx.selectFrom("email_change").select("new_email").where("user_id", "=", userId).execute()).map((r) => r.new_email),
  ];
  await tx.deleteFrom("mail_log").where("recipient", "in", addresses).execute();
  await tx.deleteFrom("meter_read").where("meter_key", "=", userKey(userId)).execute();
  await tx.deleteFrom("wall_view").where("viewer", "=", userKey(userId)).execute();
  await tx.deleteFrom("dismissal").where("owner_key", "=", userKey(userId)).execute();
  await tx.deleteFrom("login_failure").where("email", "=", user.email).execute();
  const counter = `:account:${user.email}`;
  await tx
    .deleteFrom("rate_limit")
    .where(sql<boolean>`substr(key, length(key) - ${counter.length} + 1) = ${counter}`)
    .execute();
  await tx.deleteFrom("service_request").where("user_id", "=", userId).execute();

  // The account itself: sessions, profile, follows, library, notes, histories, gifts, cart,
  // saved addresses, links and newsletter deliveries go with it (their foreign keys cascade).
  await tx.deleteFrom("app_user").where("id", "=", userId).execute();

  const kept = { ordersKept: orders.length, invoicesKept: Number(invoices.numUpdatedRows) };
  await recordAudit(tx, { actor: READER, action: "account.delete", subject: `account:${userId}`, after: kept }, now);
  return { ok: true, deleted: { userId, email: user.email, firstName: user.first_name, ...kept } };
}

/**
 * The sandbox's own records of the reader (the test provider keeps them in the site's database):
 * the e-mail and card digits of their payments and saved cards go; amounts, statuses and card ids
 * stay, for refunds, a kept order's pre-order charged on its date, and the figures. Found by what
 * was paid (the account's orders, their pre-orders paid again after a decline, plan checkouts and
 * card changes), never by address: a guest's order from the same address may be someone else's.
 */
async function anonymiseSandbox(tx: Database, userId: string): Promise<void> {
  const plans = await tx.selectFrom("subscription").select(["id", "payment_method_id"]).where("user_id", "=", userId).execute();
  const paidAgain = (
    await tx
      .selectFrom("store_preorder_payment")
      .select(["order_id", "position", "attempt"])
      .where("order_id", "in", tx.selectFrom("store_order").select("id").where("user_id", "=", userId))
      .execute()
  ).map(preorderPaymentReference);
  const payments = await tx
    .selectFrom("sandbox_payment")
    .select(["id", "payment_method_id"])
    .where((eb) =>
      eb.or([
        eb("reference", "in", eb.selectFrom("store_order").select("id").where("user_id", "=", userId)),
        eb("reference", "in", eb.selectFrom("subscription_checkout").select("id").where("user_id", "=", userId)),
        ...plans.map((plan) => eb("reference", "like", `card:${plan.id}:%`)),
        ...(paidAgain.length > 0 ? [eb("reference", "in", paidAgain)] : []),
      ]),
    )
    .execute();
  const paid = payments.map((p) => p.id);
  if (paid.length > 0)
    await tx.updateTable("sandbox_payment").set({ customer_email: ERASED_EMAIL, card_last4: null }).where("id", "in", paid).execute();
  const cards = [...new Set([...payments, ...plans].map((row) => row.payment_method_id))].filter((id): id is string => id !== null);
  if (cards.length > 0)
    await tx
      .updateTable("sandbox_payment_method")
      .set({ customer_email: ERASED_EMAIL, brand: "", last4: "" })
      .where("id", "in", cards)
      .execute();
}
