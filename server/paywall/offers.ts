import type { Database } from "~/server/db/connection";
import type { ContentTier } from "~/server/db/schema";
import { userKey, visitorKey } from "~/server/readers/keys";
import { openOnMeter, type MeterName, type Quota, type ReadOutcome } from "./meter";

/**
 * The offer service (spec "Paywall"): decides, for one reader and one article, which
 * experience the page gets. It runs on the server for every article request; the page shows
 * what it decides and nothing more.
 */
export type Experience =
  | "full-content"
  | "ascend-full-content"
  | "full-content-reading-list"
  | "enable-paywall"
  | "enable-anonymous-paywall"
  | "reading-list-paywall"
  | "waiver-reading-list";

/** The rules, from configuration (server/config.ts). */
export interface OfferRules {
  guestLimit: number;
  ascendLimit: number;
  registeredLimit: number;
  /** Guest reads a month from one network address across all its visitor cookies; 0: no ceiling. */
  addressCeiling: number;
  /** The A/B tag on the subscribe call to action, per content tier. */
  tags: Record<ContentTier, string>;
}

export type Reader =
  /** A guest known by their visitor cookie; `network` is their address's, when known. */
  | { kind: "guest"; visitorId: string; network: string | null }
  /** A client whose visitor cookie never comes back: it cannot be metered, so it reads nothing gated. */
  | { kind: "unmetered" }
  /** A search engine's crawler, verified by DNS, when the site lets crawlers index the full text. */
  | { kind: "crawler" }
  | { kind: "registered"; userId: string }
  | { kind: "subscriber"; userId: string };

export interface OfferRequest {
  reader: Reader;
  article: { id: number; tier: ContentTier; ascend: boolean };
  /** The reader came to the article from one of its reading lists. */
  readingList: boolean;
  /** The request carries a valid gift link for this article. */
  gift: boolean;
  /** The request carries this article's gift link, but it has expired: the wall, whatever the meter. */
  expiredGift?: boolean;
}

export interface Offer {
  experience: Experience;
  fullContent: boolean;
  /** Which wall stands in front of the rest of the article, if any. */
  wall: "registration" | "subscribe" | null;
  /** The meter this read was counted on, after counting; null when nothing was metered. */
  quota: Quota | null;
  meter: MeterName | null;
  abTag: string;
}

/** The meter a read counts on, and its outcome: counted (or already counted), or refused. */
export type MeterRead = ReadOutcome & { meter: MeterName };

/** The offer when no meter is consulted (an entitled reader, a gift, a client that cannot be metered, an expired gift); null otherwise. */
function unmeteredOffer(request: OfferRequest, abTag: string): Offer | null {
  const { reader, article, readingList, gift, expiredGift = false } = request;
  if (reader.kind === "subscriber" || reader.kind === "crawler" || gift) {
    const experience = article.ascend ? "ascend-full-content" : readingList ? "full-content-reading-list" : "full-content";
    return { experience, fullContent: true, wall: null, quota: null, meter: null, abTag };
  }
  if (reader.kind === "unmetered" || (expiredGift && reader.kind === "guest")) {
    const experience = readingList ? "reading-list-paywall" : "enable-anonymous-paywall";
    return { experience, fullContent: false, wall: "registration", quota: null, meter: null, abTag };
  }
  if (expiredGift) {
    return {
      experience: readingList ? "reading-list-paywall" : "enable-paywall",
      fullContent: false,
      wall: "subscribe",
      quota: null,
      meter: null,
      abTag,
    };
  }
  return null;
}

/**
 * Records this read on the reader's meter (and, for a guest, under their address's ceiling) when
 * the offer depends on one; null when it does not, and nothing is written. The article page and
 * the content service call it before `decideOffer`.
 */
export async function recordRead(db: Database, rules: OfferRules, request: OfferRequest, now = new Date()): Promise<MeterRead | null> {
  const { reader, article } = request;
  if (unmeteredOffer(request, rules.tags[article.tier]) || (reader.kind !== "guest" && reader.kind !== "registered")) return null;
  const guest = reader.kind === "guest";
  const meter: MeterName = guest && article.ascend ? "ascend" : "article";
  const limit = !guest ? rules.registeredLimit : meter === "ascend" ? rules.ascendLimit : rules.guestLimit;
  const key = guest ? visitorKey(reader.visitorId) : userKey(reader.userId);
  const ceiling =
    guest && reader.network && rules.addressCeiling > 0 ? { address: reader.network, limit: rules.addressCeiling } : undefined;
  return { meter, ...(await openOnMeter(db, { key, meter, articleId: article.id, limit, ceiling }, now)) };
}

/** The offer for one reader and one article, given the meter's answer for this read (`recordRead`). */
export function decideOffer(rules: OfferRules, request: OfferRequest, read: MeterRead | null): Offer {
  const { reader, article, readingList } = request;
  const abTag = rules.tags[article.tier];
  const fixed = unmeteredOffer(request, abTag);
  if (fixed) return fixed;
  if (!read) throw new Error("A metered reader's offer needs their read recorded first (recordRead)");
  const { allowed, quota, meter } = read;
  if (allowed) {
    const experience = readingList ? "waiver-reading-list" : article.ascend ? "ascend-full-content" : "full-content";
    return { experience, fullContent: true, wall: null, quota, meter, abTag };
  }
  const guest = reader.kind === "guest";
  const experience = readingList ? "reading-list-paywall" : guest ? "enable-anonymous-paywall" : "enable-paywall";
  return { experience, fullContent: false, wall: guest ? "registration" : "subscribe", quota, meter, abTag };
}
