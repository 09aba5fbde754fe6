import type { User } from "../../server/accounts/users";
import type { OfferRules, Reader } from "../../server/paywall/offers";
import { subscriberStatus, type SubscriberStatus } from "../../server/subscriptions/entitlements";
import { config, db } from "./db.server";
import { currentUser } from "./session.server";
import { visitorId } from "./visitor.server";

export interface ReaderContext {
  reader: Reader;
  user: User | undefined;
  subscriber: SubscriberStatus | null;
  /** Set-Cookie for a guest seen for the first time (their new visitor id). */
  setCookie?: string;
}

/** Who is asking: a subscriber, a registered reader, or a guest known by their visitor cookie. */
export async function readerContext(request: Request): Promise<ReaderContext> {
  const user = await currentUser(request);
  if (user) {
    const subscriber = await subscriberStatus(await db(), user.id);
    return { reader: { kind: subscriber ? "subscriber" : "registered", userId: user.id }, user, subscriber };
  }
  const visitor = await visitorId(request);
  return { reader: { kind: "guest", visitorId: visitor.id }, user, subscriber: null, setCookie: visitor.setCookie };
}

export function offerRules(): OfferRules {
  const c = config();
  return {
    guestLimit: c.METER_GUEST_LIMIT,
    ascendLimit: c.METER_ASCEND_LIMIT,
    registeredLimit: c.METER_REGISTERED_LIMIT,
    tags: c.PAYWALL_TAGS,
  };
}
