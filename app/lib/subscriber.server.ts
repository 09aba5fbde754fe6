import { redirect } from "./responses.server";
import type { User } from "~/server/accounts/users";
import { subscriberStatus } from "~/server/subscriptions/entitlements";
import { db } from "./db.server";
import { currentUser } from "./session.server";

/** The signed-in reader if they subscribe now; undefined for a guest or a reader without a subscription. */
export async function currentSubscriber(request: Request): Promise<User | undefined> {
  const user = await currentUser(request);
  return user && (await subscriberStatus(await db(), user.id)) ? user : undefined;
}

/**
 * For a download: a signed-in reader without a subscription is sent to the subscribers-only
 * page, which answers 403 and offers one.
 */
export async function requireSubscription(user: User, feature: "reprint" | "chart", from: string): Promise<void> {
  if (await subscriberStatus(await db(), user.id)) return;
  throw redirect(`/subscriber-only?${new URLSearchParams({ feature, from })}`);
}
