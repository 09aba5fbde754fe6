import type { Database } from "~/server/db/connection";
import type { PaymentProvider } from "~/server/payments/provider";
import { cancelOrder } from "./order-payment";
import { log } from "~/server/log";

/**
 * How long an order waits for its payment: Stripe's checkout sessions stay open 24 hours by
 * default. An order still unpaid after that is cancelled by `cancelAbandonedOrders`.
 */
export const PAYMENT_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * Cancels the orders that have waited longer than PAYMENT_WINDOW_MS for a payment, oldest first,
 * at most `limit` a call. Safe to run from several instances at once. Returns the cancelled
 * orders' ids; one that cannot be reached at the provider is logged and left for the next run.
 */
export async function cancelAbandonedOrders(db: Database, provider: PaymentProvider, now = new Date(), limit = 100): Promise<string[]> {
  const cutoff = new Date(now.getTime() - PAYMENT_WINDOW_MS).toISOString();
  const stale = await db
    .selectFrom("store_order")
    .select("id")
    .where("status", "=", "pending_payment")
    .where("created_at", "<", cutoff)
    .orderBy("created_at")
    .limit(limit)
    .execute();
  const cancelled: string[] = [];
  for (const { id } of stale) {
    try {
      if ((await cancelOrder(db, provider, id, now)) === "cancelled") cancelled.push(id);
    } catch (error) {
      log.error(`Abandoned order ${id} could not be cancelled; the next run tries again`, { error });
    }
  }
  return cancelled;
}
