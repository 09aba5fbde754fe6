import { log } from "~/server/log";
import { findCheckout, settleCheckout, type SubscriptionCheckout } from "~/server/subscriptions/checkout";
import { db } from "~/app/lib/context/db.server";
import { mailReceipts, payments } from "~/app/lib/store/payments.server";

/**
 * The reader's checkout after the provider has been asked whether it was paid, and activated if
 * it was (the receipt page and the service API's checkoutComplete). A provider that cannot be
 * asked leaves it as it was: the failure is logged and never shown as success. Undefined for an
 * unknown id or another reader's checkout.
 */
export async function completeCheckout(userId: string, id: string): Promise<SubscriptionCheckout | undefined> {
  const database = await db();
  const checkout = await findCheckout(database, id, userId);
  if (!checkout || checkout.status === "activated") return checkout;
  try {
    await settleCheckout(database, await payments(), checkout.id, userId);
    await mailReceipts();
  } catch (error) {
    log.error(`subscription activation failed for checkout ${checkout.id}`, { error });
  }
  return findCheckout(database, id, userId);
}
