import { addressNetwork } from "~/server/http/client-ip";
import { config } from "~/server/config";
import { claimsToBeRobot, crawlerVerifier, dnsLookups } from "~/server/paywall/crawlers";
import type { Reader } from "~/server/paywall/offers";
import { COOKIE_CHECK_PARAM } from "~/app/lib/paywall/cookie-check";
import type { AskingReader, RequestContext } from "./request-context.server";
import { newVisitor } from "./visitor.server";

/** Who reads an article: any reader the offer service knows, crawlers and unmetered clients included. */
export type ReaderContext = Omit<AskingReader, "reader"> & { reader: Reader };

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
export async function articleReader(asker: RequestContext, request: Request, now = Date.now()): Promise<ArticleReader> {
  if (await asker.user()) return { ...(await asker.reader()), kind: "reader", cookiesRefused: false };
  const address = asker.clientAddress;
  const known = await asker.knownVisitorId();
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
