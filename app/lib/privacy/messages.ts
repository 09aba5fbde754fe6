// The copy of a reader's privacy pages (ADR 089): My account's "Download my data" and "Delete my account".

export const DOWNLOAD_MY_DATA = "Download my data";
export const DELETE_MY_ACCOUNT = "Delete my account";
export const ACCOUNT_DELETED = "Your account has been deleted";

export const STAFF_CANNOT_DELETE =
  "Staff accounts cannot be deleted here. Ask an admin to remove you from the desk's staff first; then you can delete your account.";

export const renewingPlanBlocks = (plan: string, renews: string) =>
  `Your ${plan} subscription renews on ${renews}. Cancel it first in Subscription and billing; then you can delete your account.`;

export const pastDueBlocks = (until: string | null) =>
  `Your subscription's last payment failed and we are still trying your card${until ? ` until ${until}` : ""}. Update your card in Subscription and billing, or wait until the subscription ends, before deleting your account.`;

export const pendingOrderBlocks = (orderNumber: string) =>
  `Your order ${orderNumber} is awaiting payment. Pay for it or cancel it on its page first; then you can delete your account.`;

export const PROVIDER_UNAVAILABLE =
  "We could not reach our payment provider to end your subscription and remove your details there, so nothing was deleted. Please try again in a few minutes.";
