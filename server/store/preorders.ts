import { claimUntil, footer, sendClaimed, unclaimed, type BillingMail } from "~/server/billing/mail";
import type { Database } from "~/server/db/connection";
import { log } from "~/server/log";
import type { PaymentProvider, ProviderCustomers } from "~/server/payments/provider";
import { formatUsd } from "~/shared/money";
import { PAY_AGAIN } from "~/shared/preorders";
import { lineShips } from "./fulfilment/lifecycle";
import { settleFulfilment } from "./fulfilment/shipments";
import { orderPath } from "./order-mail";
import { findOrder } from "./order-records";

// Pre-orders on their availability date (ADR 092), a step of the scheduled jobs' round. A line is
// due once its format's date has come (the catalogue's date while the format is still coming
// soon, so a postponed date waits; at once when it went on sale early). Each line charged "when it
// ships" is charged first, to the card its order's checkout saved, under a key of its own, so a
// round killed mid-step, or two instances' rounds at once, charge it once; then it is released:
// a download opens (and is fulfilled), a print line becomes ready to ship. A declined card marks
// the line, for staff and the buyer, and the buyer is mailed once; they can pay for it with
// another card from their order's page (preorder-payment.ts), which releases it as this does.
// Last, an order's customer at the provider (Stripe's, made to keep the card for these charges,
// with the buyer's e-mail) is deleted there once nothing is left to charge to that card.

export interface PreorderRun {
  charged: number;
  declined: number;
  released: number;
  mailed: number;
  /** Orders' customers deleted at the provider, nothing being left to charge to their cards. */
  customersDeleted: number;
}

/** The key a line's charge is made under at the provider: the same line is never charged twice. */
export const preorderChargeKey = (orderId: string, position: number) => `preorder:${orderId}:${position}`;

/** What a line charged on its date takes now: its share, less what was refunded of it before. */
export const chargeDue = (line: { charge_cents: number; quantity: number; refunded_quantity: number }) =>
  Math.round((line.charge_cents * (line.quantity - line.refunded_quantity)) / line.quantity);

async function dueLines(db: Database, now: Date, only?: { orderId: string; position: number }) {
  const at = now.toISOString();
  let due = db
    .selectFrom("store_order_line as l")
    .innerJoin("store_order as o", "o.id", "l.order_id")
    .innerJoin("product_availability as a", "a.id", "l.availability_id")
    .select([
      "l.order_id",
      "l.position",
      "l.kind",
      "l.code",
      "l.quantity",
      "l.refunded_quantity",
      "l.charge_cents",
      "l.charged_at",
      "l.title",
      "l.format",
      "o.number",
      "o.provider",
      "o.provider_session_id",
    ])
    .where("l.available_date", "is not", null)
    .where("l.released_at", "is", null)
    .where("l.charge_failed_at", "is", null)
    .where((eb) => eb("l.refunded_quantity", "<", eb.ref("l.quantity")))
    .where("o.status", "=", "paid")
    .where((eb) => eb.or([eb("a.status", "!=", "F"), eb("a.available_date", "is", null), eb("a.available_date", "<=", at)]));
  if (only) due = due.where("l.order_id", "=", only.orderId).where("l.position", "=", only.position);
  return due.orderBy("l.order_id").orderBy("l.position").execute();
}

type DueLine = Awaited<ReturnType<typeof dueLines>>[number];

/** Charges, releases and mails what fell due by `now`. */
export async function runPreorders(db: Database, provider: PaymentProvider, mail: BillingMail, now: Date): Promise<PreorderRun> {
  const run: PreorderRun = { charged: 0, declined: 0, released: 0, mailed: 0, customersDeleted: 0 };
  for (const line of await dueLines(db, now)) {
    if (line.charge_cents !== null && line.charged_at === null) {
      const outcome = await charge(db, provider, line, now);
      if (outcome === "declined") run.declined++;
      if (outcome !== "charged") continue;
      run.charged++;
    }
    if (await release(db, line, now)) run.released++;
  }
  run.mailed = await sendPreorderNotices(db, mail, now);
  if (provider.customers)
    for (const spent of await spentCustomers(db, { provider: provider.name }))
      try {
        await deleteOrderCustomer(db, provider.customers, spent);
        run.customersDeleted++;
      } catch (error) {
        // Asked again at the next round; the other orders' customers go meanwhile.
        log.warn(`order ${spent.orderId}'s customer at ${provider.name} is not deleted yet`, { error });
      }
  return run;
}

/** An order whose customer at the provider has nothing left to charge. */
export interface SpentCustomer {
  orderId: string;
  provider: string;
  customerId: string;
}

/**
 * Orders (of one provider, or of one account) whose customer at the provider has nothing left to
 * charge: the order cancelled, or paid with no line still awaiting its charge on its date. A line
 * declined on its date awaits nothing from that card either: its buyer pays for it at a checkout
 * of its own (preorder-payment.ts). An order awaiting payment keeps its customer.
 */
export async function spentCustomers(db: Database, only: { provider?: string; userId?: string }): Promise<SpentCustomer[]> {
  let orders = db
    .selectFrom("store_order as o")
    .select(["o.id as orderId", "o.provider", "o.provider_customer_id as customerId"])
    .where("o.provider_customer_id", "is not", null)
    .where("o.status", "!=", "pending_payment")
    .where(({ exists, not, selectFrom }) =>
      not(
        exists(
          selectFrom("store_order_line as l")
            .select("l.position")
            .whereRef("l.order_id", "=", "o.id")
            .where("o.status", "=", "paid")
            .where("l.charge_cents", "is not", null)
            .where("l.charged_at", "is", null)
            .where("l.charge_failed_at", "is", null)
            .where((eb) => eb("l.refunded_quantity", "<", eb.ref("l.quantity"))),
        ),
      ),
    );
  if (only.provider) orders = orders.where("o.provider", "=", only.provider);
  if (only.userId) orders = orders.where("o.user_id", "=", only.userId);
  const rows = await orders.orderBy("o.id").execute();
  return rows.map((r) => ({ orderId: r.orderId, provider: r.provider ?? "", customerId: r.customerId! }));
}

/** Deletes an order's customer at the provider (idempotent there), then forgets it. Throws when the provider cannot be reached. */
export async function deleteOrderCustomer(db: Database, customers: ProviderCustomers, spent: SpentCustomer): Promise<void> {
  await customers.delete(spent.customerId);
  await db
    .updateTable("store_order")
    .set({ provider_customer_id: null })
    .where("id", "=", spent.orderId)
    .where("provider_customer_id", "=", spent.customerId)
    .execute();
}

/**
 * Releases one line as the job does, when it is due (its order paid, its date come, nothing left
 * to charge): a pre-order the buyer has just paid for themselves. Answers whether this call did.
 */
export async function releaseIfDue(db: Database, orderId: string, position: number, now: Date): Promise<boolean> {
  const [line] = await dueLines(db, now, { orderId, position });
  if (!line || (line.charge_cents !== null && line.charged_at === null)) return false;
  return release(db, line, now);
}

/** Charges one line to the card its order's checkout saved; "waits" when the provider cannot charge saved cards here. */
async function charge(db: Database, provider: PaymentProvider, line: DueLine, now: Date): Promise<"charged" | "declined" | "waits"> {
  if (!provider.savedCardCharges || line.provider !== provider.name || !line.provider_session_id) {
    log.warn(`pre-order ${line.order_id}#${line.position} waits: ${provider.name} cannot charge the card its order saved`);
    return "waits";
  }
  const outcome = await provider.savedCardCharges.charge({
    sessionId: line.provider_session_id,
    amountCents: chargeDue({ ...line, charge_cents: line.charge_cents! }),
    description: `Order ${line.number}: ${line.title} (${line.format}), pre-order`,
    idempotencyKey: preorderChargeKey(line.order_id, line.position),
  });
  const lineRow = db.updateTable("store_order_line").where("order_id", "=", line.order_id).where("position", "=", line.position);
  if (outcome.status !== "succeeded") {
    await lineRow
      .set({ charge_failed_at: now.toISOString() })
      .where("charge_failed_at", "is", null)
      .where("charged_at", "is", null)
      .execute();
    return "declined";
  }
  await lineRow.set({ charged_at: now.toISOString(), charge_id: outcome.paymentId }).where("charged_at", "is", null).execute();
  return "charged";
}

/** Opens a digital line (fulfilled now) or makes a print line ready to ship; only the call that moves it does. */
async function release(db: Database, line: DueLine, now: Date): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    const digital = !lineShips(line);
    const moved = await tx
      .updateTable("store_order_line")
      .set((eb) => ({
        released_at: now.toISOString(),
        fulfilled_at: digital ? eb.fn.coalesce("fulfilled_at", eb.val(now.toISOString())) : eb.ref("fulfilled_at"),
        // A print line charged with its order is told of by its dispatch mail; one charged now
        // gets a notice of the payment taken.
        notice_sent_at: digital || line.charge_cents !== null ? null : now.toISOString(),
      }))
      .where("order_id", "=", line.order_id)
      .where("position", "=", line.position)
      .where("released_at", "is", null)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) return false;
    if (digital) await settleFulfilment(tx, line.order_id, now);
    return true;
  });
}

/**
 * Mails each buyer once per line told of: a released download ("available to download now"), a
 * print line whose charge was taken on its date (the amount; its dispatch mail follows), or a
 * declined charge (what to do). Claimed as billing mails are.
 */
export async function sendPreorderNotices(db: Database, mail: BillingMail, now: Date): Promise<number> {
  const pending = await db
    .selectFrom("store_order_line")
    .select(["order_id", "position"])
    .where("notice_sent_at", "is", null)
    .where((eb) => eb.or([eb("released_at", "is not", null), eb("charge_failed_at", "is not", null)]))
    .where(unclaimed("notice_claimed_until", now))
    .orderBy("order_id")
    .orderBy("position")
    .execute();
  let sent = 0;
  for (const { order_id: orderId, position } of pending) {
    const row = () => db.updateTable("store_order_line").where("order_id", "=", orderId).where("position", "=", position);
    const went = await sendClaimed({
      claim: () =>
        row()
          .set({ notice_claimed_until: claimUntil(now) })
          .where("notice_sent_at", "is", null)
          .where(unclaimed("notice_claimed_until", now))
          .executeTakeFirst(),
      send: async () => {
        const order = (await findOrder(db, orderId))!;
        const line = order.lines.find((l) => l.position === position)!;
        // The buyer deleted their account and its address with it (ADR 089): nothing to send.
        if (!order.email) return;
        const link = `${mail.siteUrl}${orderPath(order)}`;
        const what = `${line.title} (${line.format}), which you pre-ordered with order ${order.number}`;
        // What its date's charge took (or the buyer paid again with another card).
        const taken =
          line.chargeLaterCents !== null && line.chargedAt
            ? `We have taken ${formatUsd(chargeDue({ charge_cents: line.chargeLaterCents, quantity: line.quantity, refunded_quantity: line.refundedQuantity }))} for it.`
            : null;
        await mail.mailer.send(
          line.releasedAt && !lineShips(line)
            ? {
                to: order.email,
                subject: `Your pre-order from Meridian Review is ready to download`,
                text: [`${what}, is out.${taken ? ` ${taken}` : ""}`, "", `Download it from your order: ${link}`, footer(mail)].join("\n"),
              }
            : line.releasedAt
              ? {
                  to: order.email,
                  subject: `Payment taken for your pre-order ${order.number}`,
                  text: [
                    `${what}, is out. ${taken ?? ""}`.trimEnd(),
                    "",
                    "We will e-mail you again when it is dispatched, with its tracking link. Your order:",
                    link,
                    footer(mail),
                  ].join("\n"),
                }
              : {
                  to: order.email,
                  subject: `We could not take the payment for your pre-order ${order.number}`,
                  text: [
                    `${line.title} (${line.format}) is out, but your card was declined when we charged ${formatUsd(line.chargeLaterCents ?? 0)} for it. Nothing has been charged.`,
                    "",
                    `We are holding it for you. To pay with another card, open your order and choose "${PAY_AGAIN}":`,
                    link,
                    "",
                    "To cancel it instead, please contact Customer Service.",
                    footer(mail),
                  ].join("\n"),
                },
        );
      },
      done: () => row().set({ notice_sent_at: now.toISOString(), notice_claimed_until: null }).execute(),
      release: () => row().set({ notice_claimed_until: null }).execute(),
    });
    if (went) sent++;
  }
  return sent;
}

/** One log line saying what a run did. */
export function describePreorders(run: PreorderRun): string {
  return (
    `Pre-orders: charged ${run.charged}, declined ${run.declined}, released ${run.released} line(s); mailed ${run.mailed} notice(s); ` +
    `deleted ${run.customersDeleted} order customer(s) at the provider`
  );
}
