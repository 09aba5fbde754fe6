import type { ArticlePageData } from "~/server/content/articles";
import { blocksToHtml } from "~/server/content/markdown";
import type { Database } from "~/server/db/connection";
import { keepGift } from "~/server/library/items";
import { recordArticleRead } from "~/server/paywall/article-reads";
import { decideOffer, recordRead, type Offer, type OfferRules } from "~/server/paywall/offers";
import { wallView } from "~/server/paywall/walls";
import { log } from "~/server/log";
import { config } from "~/app/lib/context/db.server";
import { unmeteredReader, type ArticleReader } from "~/app/lib/context/article-reader.server";

// Who may read an article, decided once for the article page and the article content service
// (POST /api/article/piano/content): the same reader, the same offer, the same read counted on
// the meter and the same gated text withheld.

export type ArticleContext = Extract<ArticleReader, { kind: "reader" }>;

export type ArticleAccess =
  /** A first visit without cookies on the page: set the visitor cookie and come back to `location`. */
  | { kind: "first-visit"; location: string; setCookie: string }
  /** `setCookie`: a new visitor cookie, for a first visit that is walled rather than redirected. */
  | { kind: "open"; context: ArticleContext; offer: Offer; setCookie?: string };

export interface ArticleAccessRequest {
  /** The reader came from one of the article's reading lists. */
  readingList: boolean;
  /** A valid gift link for this article. */
  gift: boolean;
  /** This article's gift link, expired. */
  giftExpired: boolean;
  /**
   * A first visit without cookies: the page redirects to set the visitor cookie; a service call,
   * which cannot follow that, is answered as an unmetered client (the wall) with the cookie set.
   */
  firstVisit: "redirect" | "wall";
}

/** The meter's limits and the paywall's tags, from configuration. */
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

/**
 * Records the read and decides the offer for whoever asks (`articleReader`): the read counts on the
 * reader's meter (recordRead) and the offer is decided on the meter's answer; then one statement
 * (recordArticleRead) counts a full read on the most-read list, a wall met for the meter funnel,
 * and the view in a signed-in reader's history.
 */
export async function openArticle(
  database: Database,
  asking: ArticleReader,
  article: { id: number; tier: ArticlePageData["article"]["tier"]; ascend: boolean },
  access: ArticleAccessRequest,
): Promise<ArticleAccess> {
  let setCookie: string | undefined;
  if (asking.kind === "first-visit" && !access.gift) {
    if (access.firstVisit === "redirect") return asking;
    setCookie = asking.setCookie;
  }
  const context: ArticleContext = asking.kind === "reader" ? asking : unmeteredReader;
  const rules = offerRules();
  const offerRequest = {
    reader: context.reader,
    article,
    readingList: access.readingList,
    gift: access.gift,
    expiredGift: access.giftExpired,
  };
  const offer = decideOffer(rules, offerRequest, await recordRead(database, rules, offerRequest));
  const recorded = recordArticleRead(database, {
    articleId: article.id,
    popular: offer.fullContent,
    userId: context.user?.id ?? null,
    wall: wallView(context.reader, offer),
  });
  // A walled page's statement carries the meter funnel's count (ADR 090): a failure to count never stops the page.
  if (offer.fullContent) await recorded;
  else await recorded.catch((error: unknown) => log.warn("walled read not recorded", { error }));
  if (context.user && access.gift) await keepGift(database, context.user.id, article.id);
  return { kind: "open", context, offer, ...(setCookie ? { setCookie } : {}) };
}

export interface ArticleBodyParts {
  /** The free preview: the first paragraphs, shown to everyone. */
  preview: string;
  /** The rest, either side of the promo; null for a reader who meets a wall. */
  gated: { beforePromo: string; afterPromo: string } | null;
}

/**
 * The body as HTML made on the server from the seed content's Markdown, every text escaped (see
 * blocksToHtml): the free preview, then, only for a reader entitled to it, the rest either side
 * of the store promo. A walled reader's body holds no more of the text than the preview.
 */
export function articleBodyParts(
  { article, promoAt }: Pick<ArticlePageData, "article" | "promoAt">,
  fullContent: boolean,
  options: { quoteClass: string },
): ArticleBodyParts {
  const { blocks } = article;
  const previewEnd = Math.min(config().PAYWALL_PREVIEW_PARAGRAPHS, blocks.length);
  const promoIndex = Math.max(promoAt, previewEnd);
  return {
    preview: blocksToHtml(blocks.slice(0, previewEnd), options),
    gated: fullContent
      ? {
          beforePromo: blocksToHtml(blocks.slice(previewEnd, promoIndex), options),
          afterPromo: blocksToHtml(blocks.slice(promoIndex), options),
        }
      : null,
  };
}
