import { claimUntil, footer, sendClaimed, unclaimed, type BillingMail } from "~/server/billing/mail";
import type { Database } from "~/server/db/connection";
import { findOrder } from "~/server/store/order-records";
import { orderPath } from "~/server/store/order-mail";
import { carrierName, trackingUrl } from "./carriers";

/** Mails the buyer of each shipment not yet told, each once (claimed as billing mails are): what shipped, and how to track it. */
export async function sendDispatchMails(db: Database, mail: BillingMail, now: Date): Promise<number> {
  const pending = await db
    .selectFrom("store_shipment")
    .select(["id", "order_id", "carrier", "tracking_number"])
    .where("mail_sent_at", "is", null)
    .where(unclaimed("mail_claimed_until", now))
    .orderBy("shipped_at")
    .execute();
  let sent = 0;
  for (const shipment of pending) {
    const went = await sendClaimed({
      claim: () =>
        db
          .updateTable("store_shipment")
          .set({ mail_claimed_until: claimUntil(now) })
          .where("id", "=", shipment.id)
          .where("mail_sent_at", "is", null)
          .where(unclaimed("mail_claimed_until", now))
          .executeTakeFirst(),
      send: async () => {
        const order = (await findOrder(db, shipment.order_id))!;
        // The buyer deleted their account and its address with it (ADR 089): nothing to send.
        if (!order.email) return;
        const positions = await db.selectFrom("store_order_line").select("position").where("shipment_id", "=", shipment.id).execute();
        const lines = order.lines.filter((l) => positions.some((p) => p.position === l.position));
        const link = trackingUrl(shipment.carrier, shipment.tracking_number);
        await mail.mailer.send({
          to: order.email,
          subject: `Your Meridian Review order ${order.number} has been dispatched`,
          text: [
            `Your order ${order.number} is on its way:`,
            "",
            ...lines.map((l) => `  ${l.quantity} × ${l.title} (${l.format})`),
            "",
            `Carrier: ${carrierName(shipment.carrier)}`,
            `Tracking number: ${shipment.tracking_number}`,
            ...(link ? [`Track your parcel: ${link}`] : []),
            "",
            `Your order: ${mail.siteUrl}${orderPath(order)}`,
            footer(mail),
          ].join("\n"),
        });
      },
      done: () =>
        db
          .updateTable("store_shipment")
          .set({ mail_sent_at: now.toISOString(), mail_claimed_until: null })
          .where("id", "=", shipment.id)
          .execute(),
      release: () => db.updateTable("store_shipment").set({ mail_claimed_until: null }).where("id", "=", shipment.id).execute(),
    });
    if (went) sent++;
  }
  return sent;
}
