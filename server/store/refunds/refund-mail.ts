import { claimUntil, footer, sendClaimed, unclaimed, type BillingMail } from "~/server/billing/mail";
import type { Database } from "~/server/db/connection";
import { formatUsd } from "~/shared/money";
import { orderPath } from "~/server/store/order-mail";
import { creditNoteDocument } from "./credit-notes";

/**
 * Mails the refund receipt, with its credit note as a PDF, for every succeeded refund that has
 * none yet, each once (claimed as billing mails are). Answers how many went.
 */
export async function sendRefundReceipts(db: Database, mail: BillingMail, now: Date): Promise<number> {
  const pending = await db
    .selectFrom("store_refund")
    .select("id")
    .where("status", "=", "succeeded")
    .where("mail_sent_at", "is", null)
    .where(unclaimed("mail_claimed_until", now))
    .orderBy("credit_note_number")
    .execute();
  let sent = 0;
  for (const { id } of pending) {
    const went = await sendClaimed({
      claim: () =>
        db
          .updateTable("store_refund")
          .set({ mail_claimed_until: claimUntil(now) })
          .where("id", "=", id)
          .where("mail_sent_at", "is", null)
          .where(unclaimed("mail_claimed_until", now))
          .executeTakeFirst(),
      send: async () => {
        const { refund, order, number, lines, pdf } = await creditNoteDocument(db, id, mail.publisher, mail.siteUrl);
        const amount = formatUsd(refund.amount_cents);
        // The buyer deleted their account and its address with it (ADR 089): nothing to send.
        if (!order.email) return;
        await mail.mailer.send({
          to: order.email,
          subject: `Your Meridian Review refund for order ${order.number}`,
          text: [
            refund.kind === "cancel"
              ? `Your order ${order.number} has been cancelled, and ${amount} refunded.`
              : refund.kind === "late-payment"
                ? `Your order ${order.number} had been cancelled before your payment reached us, so we have refunded it: ${amount}.`
                : `We have refunded ${amount} of your order ${order.number}.`,
            "",
            "Refunded:",
            ...lines.map((l) => `  ${l}`),
            "",
            `Credit note: ${number}`,
            `Amount refunded: ${amount}`,
            ...(refund.amount_cents > 0 ? ["It goes back to the card you paid with, and may take 5 to 10 days to appear."] : []),
            `Your order: ${mail.siteUrl}${orderPath(order)}`,
            "",
            "Your credit note is attached as a PDF.",
            footer(mail),
          ].join("\n"),
          attachments: [{ filename: `credit-note-${number}.pdf`, content: pdf, contentType: "application/pdf" }],
        });
      },
      done: () =>
        db.updateTable("store_refund").set({ mail_sent_at: now.toISOString(), mail_claimed_until: null }).where("id", "=", id).execute(),
      release: () => db.updateTable("store_refund").set({ mail_claimed_until: null }).where("id", "=", id).execute(),
    });
    if (went) sent++;
  }
  return sent;
}
