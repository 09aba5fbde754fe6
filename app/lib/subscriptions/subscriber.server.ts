import { redirect } from "~/app/lib/http/responses.server";
import type { User } from "~/server/accounts/users";
import { requestContext, type RequestArgs, type RequestContext } from "~/app/lib/context/request-context.server";

/** The signed-in reader if they subscribe now; undefined for a guest or a reader without a subscription. */
export async function currentSubscriber(args: RequestArgs): Promise<User | undefined> {
  const asker = requestContext(args);
  return (await asker.subscriber()) ? asker.user() : undefined;
}

/**
 * For a download: a signed-in reader without a subscription is sent to the subscribers-only
 * page, which answers 403 and offers one.
 */
export async function requireSubscription(asker: RequestContext, feature: "reprint" | "chart", from: string): Promise<void> {
  if (await asker.subscriber()) return;
  throw redirect(`/subscriber-only?${new URLSearchParams({ feature, from })}`);
}
