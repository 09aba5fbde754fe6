import type { AppLoadContext } from "@remix-run/node";
import type { User } from "~/server/accounts/users";
import { addressNetwork } from "~/server/http/client-ip";
import { claimsToBeRobot, crawlerVerifier, dnsLookups } from "~/server/paywall/crawlers";
import type { OfferRules, Reader } from "~/server/paywall/offers";
import { subscriberStatus, type SubscriberStatus } from "~/server/subscriptions/entitlements";
import { clientAddress } from "./client-address.server";
import { COOKIE_CHECK_PARAM } from "./cookie-check";
import { config, db } from "./db.server";
import { currentUser } from "./session.server";
import { knownVisitorId, newVisitor, visitorId } from "./visitor.server";

export interface ReaderContext {
  reader: Reader;
  user: User | undefined;
  subscriber: SubscriberStatus | null;
  /** Set-Cookie for a guest seen for the first time (their new visitor id). */
  setCookie?: string;
}

type KnownReader = Extract<Reader, { kind: "guest" | "registered" | "subscriber" }>;

/** Who is asking: a subscriber, a registered reader, or a guest known by their visitor cookie. */
export async function readerContext(request: Request): Promise<ReaderContext & { reader: KnownReader }> {
  const account = await accountReader(request);
  if (account) return account;
  const visitor = await visitorId(request);
  return {
    reader: { kind: "guest", visitorId: visitor.id, network: null },
    user: undefined,
    subscriber: null,
    setCookie: visitor.setCookie,
  };
}

async function accountReader(request: Request): Promise<(ReaderContext & { reader: KnownReader }) | undefined> {
  const user = await currentUser(request);
  if (!user) return undefined;
  const subscriber = await subscriberStatus(await db(), user.id);
  return { reader: { kind: subscriber ? "subscriber" : "registered", userId: user.id }, user, subscriber };
}

/**
 * How long the first-visit redirect's query value proves a cookie was just set: it holds the time
 * of the redirect, so an old address with it (a shared link) is taken for a first visit again.
 */
const COOKIE_CHECK_FRESH_MS = 5 * 60_000;

export type ArticleReader =
  | (ReaderContext & { kind: "reader"; cookiesRefused: boolean })
  /** A first visit without cookies: set the visitor cookie and come back to `location`. */
  | { kind: "first-visit"; location: string; setCookie: string };

export const unmeteredReader = {
  kind: "reader",
  reader: { kind: "unmetered" },
  user: undefined,
  subscriber: null,
  cookiesRefused: false,
} as const satisfies ArticleReader;

let isVerifiedCrawler: ReturnType<typeof crawlerVerifier> | undefined;

/**
 * The reader of an article page. Gated text goes only to a reader the meter can count (a valid
 * visitor cookie or a session) or who is entitled to it; a client that keeps no cookies cannot be
 * metered, so it meets the wall, and it writes nothing to the database (ADR 026).
 */
export async function articleReader(request: Request, loadContext: AppLoadContext | undefined, now = Date.now()): Promise<ArticleReader> {
  const account = await accountReader(request);
  if (account) return { ...account, kind: "reader", cookiesRefused: false };
  const address = clientAddress(request, loadContext);
  const known = await knownVisitorId(request);
  if (known) {
    const reader: Reader = { kind: "guest", visitorId: known, network: address && addressNetwork(address) };
    return { kind: "reader", reader, user: undefined, subscriber: null, cookiesRefused: false };
  }

  const c = config();
  const userAgent = request.headers.get("User-Agent");
  const unmetered = (cookiesRefused: boolean) => ({ ...unmeteredReader, cookiesRefused });
  if (claimsToBeRobot(userAgent)) {
    isVerifiedCrawler ??= crawlerVerifier(dnsLookups(c.CRAWLER_DNS_SERVERS));
    if (c.CRAWLER_FULL_TEXT && address && (await isVerifiedCrawler(address, userAgent))) {
      return { kind: "reader", reader: { kind: "crawler" }, user: undefined, subscriber: null, cookiesRefused: false };
    }
    return unmetered(false);
  }
  const url = new URL(request.url);
  const checkedAt = Number(url.searchParams.get(COOKIE_CHECK_PARAM));
  if (Number.isInteger(checkedAt) && checkedAt <= now && now - checkedAt < COOKIE_CHECK_FRESH_MS) return unmetered(true);
  url.searchParams.set(COOKIE_CHECK_PARAM, String(now));
  return { kind: "first-visit", location: `${url.pathname}${url.search}`, setCookie: (await newVisitor()).setCookie };
}

export function offerRules(): OfferRules {
  const c = config();
  return {
    guestLimit: c.METER_GUEST_LIMIT,
    ascendLimit: c.METER_ASCEND_LIMIT,
    registeredLimit: c.METER_REGISTERED_LIMIT,
    addressCeiling: c.METER_ADDRESS_CEILING,
    tags: c.PAYWALL_TAGS,
  };
}
