import { paymentProvider, sandboxProvider } from "~/server/payments";
import type { PaymentProvider } from "~/server/payments/provider";
import type { SandboxProvider } from "~/server/payments/sandbox";
import { secrets } from "~/server/secrets";
import { mailer } from "~/server/adapters/mail";
import { billingMail, sendPendingReceipts } from "~/server/billing/mail";
import { followBillingEvent, isBillingEvent } from "~/server/billing/stripe-events";
import { sendOrderConfirmation } from "~/server/store/order-mail";
import { handleOrderPaymentEvent } from "~/server/store/order-payment";
import { handlePreorderPaymentEvent, PREORDER_PAYMENT } from "~/server/store/preorder-payment";
import { sendPreorderNotices } from "~/server/store/preorders";
import { sendDispatchMails } from "~/server/store/fulfilment/dispatch-mail";
import { confirmProviderRefunds } from "~/server/store/refunds/refunds";
import { sendRefundReceipts } from "~/server/store/refunds/refund-mail";
import { ORDER_ID } from "~/server/store/order-records";
import { handlePaymentEvent, settleCheckout } from "~/server/subscriptions/checkout";
import { CARD_CHANGE } from "~/server/billing/card-change";
import { applyCardChange } from "~/app/lib/subscriptions/billing.server";
import { signedCookie } from "~/app/lib/http/cookies.server";
import { config, db } from "~/app/lib/context/db.server";
import { log } from "~/server/log";

export async function payments(): Promise<PaymentProvider> {
  return paymentProvider(await db(), config(), secrets().paymentWebhookSecret);
}

export async function sandbox(): Promise<SandboxProvider> {
  return sandboxProvider(await db(), config(), secrets().paymentWebhookSecret);
}

/**
 * A provider's signed completion callback, as it arrives at /api/payments/webhook (or from the
 * sandbox's own checkout page): verified over the raw body, then acted on once. A store order's
 * reference is its order id (ord_…), a declined pre-order's payment preorder-payment:…, a card
 * change's card:…; anything else is a subscription checkout.
 */
export async function receivePaymentCallback(rawBody: string, signature: string | null) {
  const provider = await payments();
  const event = provider.parseWebhook(rawBody, signature);
  if (isBillingEvent(event))
    return followBillingEvent(await db(), event, billingMail(config(), mailer()), new Date(), config().BILLING_GRACE_DAYS);
  if (event.type === "checkout.completed" && ORDER_ID.test(event.reference)) {
    const outcome = await handleOrderPaymentEvent(await db(), provider, event);
    await confirmOrder(event.reference);
    if (outcome === "paid-after-cancel") await mailOrderUpdates();
    return outcome;
  }
  if (event.type === "checkout.completed" && PREORDER_PAYMENT.test(event.reference)) {
    const outcome = await handlePreorderPaymentEvent(await db(), provider, event);
    await mailPreorderNotices();
    return outcome;
  }
  if (event.type === "payment.refunded") {
    const outcome = await confirmProviderRefunds(await db(), event.paymentId, event.amountRefundedCents, new Date());
    // A refund whose answer is still being recorded: failing makes the provider send the event again.
    if (outcome === "retry") throw new Error(`refund event ${event.eventId} arrived before its refund was recorded`);
    await mailOrderUpdates();
    return outcome;
  }
  if (event.type === "checkout.completed" && CARD_CHANGE.test(event.reference)) return applyCardChange(null, event.sessionId);
  const outcome = await handlePaymentEvent(await db(), event, new Date(), provider);
  await mailReceipts();
  return outcome;
}

/**
 * Mails the receipts of subscription payments not yet sent. A mail failure is logged: the
 * subscription stays active, and the next payment settled or renewal run tries the mail again.
 */
export async function mailReceipts(): Promise<void> {
  try {
    await sendPendingReceipts(await db(), billingMail(config(), mailer()), new Date());
  } catch (error) {
    log.error("subscription receipt mail failed", { error });
  }
}

/**
 * Mails a paid order's confirmation unless it went already. A mail failure is logged: the order
 * stays paid, and the next settlement of the order tries the mail again.
 */
export async function confirmOrder(orderId: string): Promise<void> {
  try {
    await sendOrderConfirmation(await db(), mailer(), orderId, config().siteUrl);
  } catch (error) {
    log.error(`order confirmation mail for ${orderId} failed`, { error });
  }
}

/**
 * Mails the dispatch notices and refund receipts not sent yet (ADR 086). A mail failure is
 * logged: what changed stays changed, and the next change to an order tries the mail again.
 */
export async function mailOrderUpdates(): Promise<void> {
  const mail = billingMail(config(), mailer());
  try {
    await sendDispatchMails(await db(), mail, new Date());
    await sendRefundReceipts(await db(), mail, new Date());
  } catch (error) {
    log.error("order update mail failed", { error });
  }
}

/**
 * Mails the pre-order notices not sent yet (a download a paid pre-order opened, ADR 092). A mail
 * failure is logged: the scheduled job's next round tries it again.
 */
export async function mailPreorderNotices(): Promise<void> {
  try {
    await sendPreorderNotices(await db(), billingMail(config(), mailer()), new Date());
  } catch (error) {
    log.error("pre-order notice mail failed", { error });
  }
}

/**
 * Written when the reader comes back from paying (spec "Subscription checkout"): on the next
 * page load the subscription is activated and the cookie deleted.
 */
export const checkoutCompleteCookie = signedCookie("mr_checkout_complete", 86_400);

/**
 * Finishes a checkout the reader has returned from, if the request carries the completion
 * cookie. Returns the Set-Cookie that deletes it. A failed activation is logged, never shown as
 * success.
 */
export async function completePendingCheckout(request: Request, userId: string | undefined): Promise<string | undefined> {
  const c = checkoutCompleteCookie();
  const id = await c.parse(request.headers.get("Cookie"));
  if (!id) return undefined;
  if (typeof id === "string" && userId) {
    try {
      const outcome = await settleCheckout(await db(), await payments(), id, userId);
      if (outcome !== "activated") log.error(`subscription activation: checkout ${id} is ${outcome}`);
      await mailReceipts();
    } catch (error) {
      log.error(`subscription activation failed for checkout ${id}`, { error });
    }
  }
  return c.serialize("", { maxAge: 0 });
}
