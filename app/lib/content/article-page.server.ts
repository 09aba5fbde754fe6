import type { AppLoadContext } from "@remix-run/node";
import type { ArticlePageData } from "~/server/content/articles";
import type { Offer } from "~/server/paywall/offers";
import type { ReadingListContext } from "~/server/content/reading-lists";
import type { Region } from "~/server/adapters/geo";
import type { Quota } from "~/server/paywall/meter";
import { ARTICLE_BODY, type ArticleBodyHtml } from "~/app/components/ArticleBody";
import type { WallScreen } from "~/app/components/WallForm";
import * as css from "~/app/components/article.css";
import { config } from "~/app/lib/context/db.server";
import { keepOutOfHydrationData } from "~/app/lib/context/load-context.server";
import type { ReaderPart } from "~/app/lib/http/reader-parts.server";
import { articleBodyParts } from "~/app/lib/paywall/article-access.server";
import type { SubscriberTools } from "~/app/lib/paywall/subscriber-tools.server";

// What the article page (components/ArticlePage.tsx) shows, made from the page's content and the
// access decided for the reader: the site's article route decides it from the meter, the desk's
// preview (ADR 079) names it.

export interface ArticleAccessShown {
  offer: Pick<Offer, "experience" | "wall" | "quota" | "abTag" | "fullContent"> & { screen: WallScreen; region: Region };
  viewer: { kind: string; firstName: string | null; cookiesRefused: boolean };
  readingList: ReadingListContext | null;
  gift: boolean;
  giftExpired: boolean;
  subscriber: (SubscriberTools & { notice: string | null }) | null;
  /** How a signed-in reader's own values go into the page: as marks, where the page may be kept (ADR 096). */
  own?: (part: ReaderPart, value: string) => string;
}

const views = new WeakMap<ArticlePageData, { full: ArticleView; walled: ArticleView }>();

/** The page's data as the component shows it, made once per cached page (see articlePage). */
function articleView(page: ArticlePageData, fullContent: boolean): ArticleView {
  let made = views.get(page);
  if (!made) views.set(page, (made = { full: toView(page, true), walled: toView(page, false) }));
  return fullContent ? made.full : made.walled;
}

type ArticleView = ReturnType<typeof toView>;

/**
 * The body goes to the page as HTML made on the server from the seed content's Markdown,
 * every text escaped (see blocksToHtml): the free preview, then, only for a reader entitled to
 * it, the rest either side of the store promo. A walled reader's data holds no more of the
 * text than the preview.
 */
function toView({ article, promoAt, ...rest }: ArticlePageData, fullContent: boolean) {
  const { blocks, ...shown } = article;
  const body: ArticleBodyHtml = articleBodyParts({ article, promoAt }, fullContent, { quoteClass: css.pullQuote });
  return { ...rest, article: shown, body };
}

/** The article page's loader data, for this page and what its reader may see of it. */
export function articlePageView(loadContext: AppLoadContext, page: ArticlePageData, shown: ArticleAccessShown) {
  const { offer, own = (_, value) => value, ...rest } = shown;
  // The body is in the HTML already: a whole page's hydration data leaves it out (ADR 036).
  const { body, ...view } = articleView(page, offer.fullContent);
  const bodyInHtmlOnly = keepOutOfHydrationData(loadContext, ARTICLE_BODY, body);
  return {
    ...view,
    body: bodyInHtmlOnly ? null : body,
    bodyGated: body.gated !== null,
    siteUrl: config().siteUrl,
    offer: {
      experience: offer.experience,
      wall: offer.wall,
      meter: offer.quota && { counter: own("counter", counterText(offer.quota)), figures: own("meter", JSON.stringify(offer.quota)) },
      abTag: offer.abTag,
      screen: offer.screen,
      region: offer.region,
    },
    ...rest,
  };
}

/** The subscription counter's sentence: the free articles left this month after this one. */
function counterText({ remaining }: Quota): string {
  if (remaining === 0) return "This is your last free article this month.";
  return `You have ${remaining} free ${remaining === 1 ? "article" : "articles"} left this month.`;
}

export type ArticlePageView = ReturnType<typeof articlePageView>;
