import type { Mailer } from "~/server/adapters/mail";
import type { Database } from "~/server/db/connection";
import { addressLines } from "~/shared/address";
import { formatUsd as usd } from "~/shared/money";
import { findOrder, type Order } from "./order-records";

/** Where a buyer opens their order: a guest's link carries the order's access key. */
export const orderPath = (order: Pick<Order, "id" | "userId" | "accessToken">) =>
  `/order/${order.id}${order.userId ? "" : `?key=${order.accessToken}`}`;

export function confirmationText(order: Order, siteUrl: string): string {
  const lines = order.lines.map(
    (l) =>
      `  ${l.quantity} × ${l.title} (${l.format})  ${usd(l.lineTotalCents)}${l.availableDate ? `  Pre-order: Available ${l.availableDate}` : ""}`,
  );
  const totals = [
    `Subtotal: ${usd(order.subtotalCents)}`,
    ...(order.discountCents > 0 ? [`Discount${order.promoCode ? ` (${order.promoCode})` : ""}: -${usd(order.discountCents)}`] : []),
    `Tax: ${usd(order.taxCents)}`,
    `Shipping: ${usd(order.shippingCents)}`,
    `Total: ${usd(order.totalCents)}`,
  ];
  return [
    `Thank you for your order from Meridian Review.`,
    ``,
    `Order number: ${order.number}`,
    ``,
    ...lines,
    ``,
    ...totals,
    ...(order.address ? [``, `Address:`, ...addressLines(order.address).map((l) => `  ${l}`)] : []),
    ``,
    `Your order, receipt and downloads: ${siteUrl}${orderPath(order)}`,
  ].join("\n");
}

/**
 * Mails the confirmation of a paid order, once: the call that stamps confirmation_sent_at
 * sends; if sending fails the stamp is taken back so a later call can try again.
 */
export async function sendOrderConfirmation(
  db: Database,
  mailer: Mailer,
  orderId: string,
  siteUrl: string,
  now = new Date(),
): Promise<boolean> {
  const claimed = await db
    .updateTable("store_order")
    .set({ confirmation_sent_at: now.toISOString() })
    .where("id", "=", orderId)
    .where("status", "=", "paid")
    .where("confirmation_sent_at", "is", null)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return false;
  const order = (await findOrder(db, orderId))!;
  // The buyer deleted their account and its address with it (ADR 089): no one to mail.
  if (!order.email) return false;
  try {
    await mailer.send({ to: order.email, subject: `Your Meridian Review order ${order.number}`, text: confirmationText(order, siteUrl) });
    return true;
  } catch (error) {
    await db.updateTable("store_order").set({ confirmation_sent_at: null }).where("id", "=", orderId).execute();
    throw error;
  }
}
