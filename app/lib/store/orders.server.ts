import { settleOrder } from "~/server/store/order-payment";
import { settlePreorderPayment } from "~/server/store/preorder-payment";
import type { Order } from "~/server/store/order-records";
import { signedCookie } from "~/app/lib/http/cookies.server";
import { db } from "~/app/lib/context/db.server";
import { confirmOrder, mailPreorderNotices, payments } from "./payments.server";
import { log } from "~/server/log";

/**
 * The guest orders this browser placed (signed), so registering can claim exactly those: the
 * spec's order breadcrumb, which lives 7 days (§9).
 */
const guestOrdersCookie = signedCookie("mr_guest_orders", 7 * 86_400);

const MAX_REMEMBERED = 20;

export async function guestOrderIds(request: Request): Promise<string[]> {
  const value = await guestOrdersCookie().parse(request.headers.get("Cookie"));
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string").slice(0, MAX_REMEMBERED) : [];
}

/** Set-Cookie that adds a guest's new order to the browser's list. */
export async function rememberGuestOrder(request: Request, orderId: string): Promise<string> {
  const ids = [orderId, ...(await guestOrderIds(request)).filter((id) => id !== orderId)].slice(0, MAX_REMEMBERED);
  return guestOrdersCookie().serialize(ids);
}

/** Where the provider sends a shopper who paid: a guest is offered an account first. */
export function paymentReturnPath(order: Pick<Order, "id" | "userId" | "accessToken">): string {
  return order.userId ? `/order/${order.id}` : `/registration-complete?order=${order.id}&key=${order.accessToken}`;
}

/**
 * The shopper is back from paying: if the order is still waiting, ask the provider, and mail
 * the confirmation once it is paid. Failures are logged; the page shows the order as it is.
 */
export async function settleOnReturn(order: Order): Promise<void> {
  try {
    if (order.status === "pending_payment") await settleOrder(await db(), await payments(), order.id);
    await confirmOrder(order.id);
  } catch (error) {
    log.error(`settling order ${order.id} failed`, { error });
  }
}

/**
 * The buyer is back from paying for a declined pre-order: if that session was paid, the line is
 * charged and released (and its download's mail sent). Failures are logged; the page shows the order as it is.
 */
export async function settlePreorderOnReturn(order: Order, sessionId: string): Promise<void> {
  try {
    if ((await settlePreorderPayment(await db(), await payments(), order.id, sessionId)) === "paid") await mailPreorderNotices();
  } catch (error) {
    log.error(`settling a pre-order payment of order ${order.id} failed`, { error });
  }
}
