import { setImmediate as nextTurn } from "node:timers/promises";
import { sql } from "kysely";
import type { Mailer } from "~/server/adapters/mail";
import type { Config } from "~/server/config";
import type { Database } from "~/server/db/connection";
import { findPlan } from "~/server/subscriptions/plans";
import { formatPublished } from "~/shared/dates";
import { formatUsd } from "~/shared/money";
import { invoiceDocument, publisherFrom, type Publisher } from "./invoices";

export interface BillingMail {
  mailer: Mailer;
  siteUrl: string;
  publisher: Publisher;
}

export const billingMail = (config: Config, mailer: Mailer): BillingMail => ({
  mailer,
  siteUrl: config.siteUrl,
  publisher: publisherFrom(config),
});

/**
 * A date as the site writes it, "MMMM DD, YYYY" (spec), so that a mail and the page it confirms
 * name a day alike ("January 01, 2027"): the pages' own function, on the timestamp's UTC day.
 */
export const longDate = (iso: string) => formatPublished(new Date(iso).toISOString());

/** The publisher's footer every billing and account mail ends with. */
export const footer = (mail: BillingMail) =>
  ["", "--", mail.publisher.name, ...mail.publisher.addressLines, `Your account: ${mail.siteUrl}/my-account`].join("\n");

/**
 * How long a run holds a billing mail it is sending. Longer than any run takes, so only the claim
 * of a run that was killed lapses; a round of the scheduled jobs after that sends the mail. A run
 * killed between sending and marking the mail sent makes it go twice: a receipt twice is better
 * than none.
 */
export const MAIL_CLAIM_MS = 60 * 60_000;

/** A claim column that holds no live claim at `now`. */
export const unclaimed = (column: string, now: Date) =>
  sql<boolean>`(${sql.ref(column)} is null or ${sql.ref(column)} <= ${now.toISOString()})`;

/**
 * Sends one mail unless another run has it: `claim` (a conditional update) holds it until
 * `now + MAIL_CLAIM_MS`; then `done` marks it sent and ends the claim. If sending fails, `release`
 * ends the claim and a later run tries again. Answers whether it went.
 */
export async function sendClaimed(steps: {
  claim: () => Promise<{ numUpdatedRows: bigint }>;
  send: () => Promise<void>;
  done: () => Promise<unknown>;
  release: () => Promise<unknown>;
}): Promise<boolean> {
  if (Number((await steps.claim()).numUpdatedRows) !== 1) return false;
  try {
    await steps.send();
  } catch (error) {
    await steps.release();
    throw error;
  }
  await steps.done();
  return true;
}

export const claimUntil = (now: Date) => new Date(now.getTime() + MAIL_CLAIM_MS).toISOString();

/**
 * Mails the receipt, with its invoice as a PDF, for every invoice that has none yet (a sweep
 * after a run, and what a process that stopped left unsent). Answers how many went.
 */
export async function sendPendingReceipts(db: Database, mail: BillingMail, now: Date): Promise<number> {
  const pending = await db
    .selectFrom("invoice")
    .select("id")
    .where("receipt_sent_at", "is", null)
    // An invoice whose reader deleted their account has no one to mail (ADR 089).
    .where("user_id", "is not", null)
    .where(unclaimed("receipt_claimed_until", now))
    .orderBy("number")
    .execute();
  return sendReceipts(
    db,
    mail,
    pending.map((invoice) => invoice.id),
    now,
  );
}

/** Mails the receipts of these invoices, in turn, each once (sendClaimed). Answers how many went. */
export async function sendReceipts(db: Database, mail: BillingMail, invoiceIds: string[], now: Date): Promise<number> {
  let sent = 0;
  for (const id of invoiceIds) {
    // Pages waiting on this process go first: a renewal day has 100,000 receipts to send.
    await nextTurn();
    const went = await sendClaimed({
      claim: () =>
        db
          .updateTable("invoice")
          .set({ receipt_claimed_until: claimUntil(now) })
          .where("id", "=", id)
          .where("receipt_sent_at", "is", null)
          .where("user_id", "is not", null)
          .where(unclaimed("receipt_claimed_until", now))
          .executeTakeFirst(),
      send: async () => {
        const { invoice, number, planName, taxLabel, pdf } = await invoiceDocument(db, id, mail.publisher, mail.siteUrl);
        const total = formatUsd(invoice.amount_cents + invoice.tax_cents);
        // Claimed only while the invoice has its reader: the address is there.
        if (!invoice.email) throw new Error(`invoice ${id} has no reader to mail`);
        await mail.mailer.send({
          to: invoice.email,
          subject: `Your Meridian Review receipt ${number}`,
          text: [
            invoice.kind === "renewal"
              ? `Thank you: your ${planName} subscription has renewed.`
              : invoice.kind === "upgrade"
                ? `Thank you: your subscription is now ${planName}. This receipt is for the rest of your current period on it, less the unused part of your previous plan.`
                : `Thank you for subscribing to Meridian Review ${planName}.`,
            "",
            `Invoice: ${number}`,
            `${planName}: ${formatUsd(invoice.amount_cents)}`,
            `${taxLabel}: ${formatUsd(invoice.tax_cents)}`,
            `Amount paid: ${total}`,
            ...(invoice.card_last4 ? [`Charged to: ${invoice.card_brand ?? "card"} ending in ${invoice.card_last4}`] : []),
            `Access until: ${longDate(invoice.period_end)}`,
            "",
            "Your invoice is attached as a PDF.",
            footer(mail),
          ].join("\n"),
          attachments: [{ filename: `invoice-${number}.pdf`, content: pdf, contentType: "application/pdf" }],
        });
      },
      done: () =>
        db.updateTable("invoice").set({ receipt_sent_at: now.toISOString(), receipt_claimed_until: null }).where("id", "=", id).execute(),
      release: () => db.updateTable("invoice").set({ receipt_claimed_until: null }).where("id", "=", id).execute(),
    });
    if (went) sent++;
  }
  return sent;
}

/**
 * Mails "payment failed" once for each subscription whose renewal was declined and has not been
 * told yet, claimed the same way as a receipt. Answers how many went.
 */
export async function sendPaymentFailedNotices(db: Database, mail: BillingMail, now: Date): Promise<number> {
  const pending = await db
    .selectFrom("subscription")
    .innerJoin("app_user", "app_user.id", "subscription.user_id")
    .select([
      "subscription.id",
      "subscription.plan_id",
      "subscription.card_brand",
      "subscription.card_last4",
      "subscription.next_retry_at",
      "subscription.grace_end",
      "app_user.email",
    ])
    .where("subscription.billing_status", "=", "past_due")
    .where("subscription.failure_mailed_at", "is", null)
    .where(unclaimed("subscription.failure_claimed_until", now))
    .execute();
  let sent = 0;
  for (const row of pending) {
    const went = await sendClaimed({
      claim: () =>
        db
          .updateTable("subscription")
          .set({ failure_claimed_until: claimUntil(now) })
          .where("id", "=", row.id)
          .where("billing_status", "=", "past_due")
          .where("failure_mailed_at", "is", null)
          .where(unclaimed("failure_claimed_until", now))
          .executeTakeFirst(),
      send: async () => {
        await mail.mailer.send({
          to: row.email,
          subject: "Your Meridian Review payment did not go through",
          text: [
            `We could not renew your ${findPlan(row.plan_id ?? "")?.name ?? "Meridian Review"} subscription: the payment to your ${row.card_brand} card ending in ${row.card_last4} was declined.`,
            "",
            row.next_retry_at
              ? `We will try the card again on ${longDate(row.next_retry_at)}. You keep full access until ${longDate(row.grace_end ?? row.next_retry_at)} while we do.`
              : `This was our last try. You keep full access until ${longDate(row.grace_end ?? "")}; after that your subscription ends unless it is paid.`,
            "",
            `Update your card and we will take the payment at once: ${mail.siteUrl}/my-account/billing/card`,
            footer(mail),
          ].join("\n"),
        });
      },
      done: () =>
        db
          .updateTable("subscription")
          .set({ failure_mailed_at: now.toISOString(), failure_claimed_until: null })
          .where("id", "=", row.id)
          .execute(),
      release: () => db.updateTable("subscription").set({ failure_claimed_until: null }).where("id", "=", row.id).execute(),
    });
    if (went) sent++;
  }
  return sent;
}

/**
 * Mails "subscription cancelled" (with its end date) or "subscription ended" once for each
 * subscription in that state not yet told, claimed the same way as a receipt. Answers how many went.
 */
export async function sendSubscriptionNotices(db: Database, mail: BillingMail, now: Date): Promise<number> {
  const pending = await db
    .selectFrom("subscription")
    .innerJoin("app_user", "app_user.id", "subscription.user_id")
    .select([
      "subscription.id",
      "subscription.plan_id",
      "subscription.billing_status",
      "subscription.access_end",
      "subscription.grace_end",
      "subscription.past_due_since",
      "app_user.email",
    ])
    .where("subscription.status", "=", "active")
    .where("subscription.billing_status", "in", ["cancel_at_period_end", "ended"])
    .where("subscription.notice_mailed_at", "is", null)
    .where(unclaimed("subscription.notice_claimed_until", now))
    .execute();
  let sent = 0;
  for (const row of pending) {
    const plan = `${findPlan(row.plan_id ?? "")?.name ?? "Meridian Review"} subscription`;
    const went = await sendClaimed({
      claim: () =>
        db
          .updateTable("subscription")
          .set({ notice_claimed_until: claimUntil(now) })
          .where("id", "=", row.id)
          .where("billing_status", "=", row.billing_status)
          .where("notice_mailed_at", "is", null)
          .where(unclaimed("notice_claimed_until", now))
          .executeTakeFirst(),
      send: async () => {
        await mail.mailer.send(
          row.billing_status === "ended"
            ? {
                to: row.email,
                subject: "Your Meridian Review subscription has ended",
                text: [
                  row.past_due_since
                    ? `Your ${plan} ended on ${longDate(row.grace_end ?? row.access_end)}: we could not take its renewal payment. You have not been charged.`
                    : `Your ${plan} ended on ${longDate(row.access_end)}, as you asked. You have not been charged again.`,
                  "",
                  `Thank you for reading. You can subscribe again at any time: ${mail.siteUrl}/subscriptions`,
                  footer(mail),
                ].join("\n"),
              }
            : {
                to: row.email,
                subject: "Your Meridian Review subscription has been cancelled",
                text: [
                  `We have cancelled your ${plan} as you asked. It will not renew.`,
                  "",
                  `You keep full access until ${longDate(row.access_end)}, the end of the period you have paid for.`,
                  `Changed your mind? Resume your subscription before then on Subscription and billing: ${mail.siteUrl}/my-account/billing`,
                  footer(mail),
                ].join("\n"),
              },
        );
      },
      // Marked sent for the state it told of: had the subscriber resumed meanwhile, the new state's mail still goes.
      done: () =>
        db
          .updateTable("subscription")
          .set((eb) => ({
            notice_mailed_at: eb
              .case()
              .when("billing_status", "=", row.billing_status)
              .then(now.toISOString())
              .else(eb.ref("notice_mailed_at"))
              .end(),
            notice_claimed_until: null,
          }))
          .where("id", "=", row.id)
          .execute(),
      release: () => db.updateTable("subscription").set({ notice_claimed_until: null }).where("id", "=", row.id).execute(),
    });
    if (went) sent++;
  }
  return sent;
}
