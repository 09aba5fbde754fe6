import type { SerializeFrom } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { lazy, type ComponentProps } from "react";
import { ARTICLE_ART_SIZE } from "~/shared/art-sizes";
import { addToCartHref } from "~/shared/add-to-cart-links";
import { socialCardPath } from "~/shared/social-cards";
import { ogImage } from "~/shared/uploaded-images";
import { ArticleBody, GATED_CLASS } from "~/app/components/ArticleBody";
import { RegistrationWall, SubscribeWall } from "~/app/components/Paywall";
import { ReadingListOverlay } from "~/app/components/reading-lists/ReadingListOverlay";
import { ReadingListLinks } from "~/app/components/reading-lists/ReadingListLinks";
import { SubscriptionCounter } from "~/app/components/SubscriptionCounter";
import { Carousel } from "~/app/components/Carousel";
import { Deferred } from "~/app/components/Deferred";
import { TextSizeToggle } from "~/app/components/TextSizeToggle";
import { SaveControl } from "~/app/components/library/SaveControl";
import { ShareControl } from "~/app/components/library/ShareControl";
import { HelpBox } from "~/app/components/HelpBox";
import { JsonLd } from "~/app/components/JsonLd";
import { ShareLinks } from "~/app/components/ShareLinks";
import { TitleBar } from "~/app/components/TitleBar";
import { ResponsiveImage } from "~/app/components/ResponsiveImage";
import { Monogram } from "~/app/components/Monogram";
import * as css from "~/app/components/article.css";
// The wall's forms come in a chunk of their own (ADR 013); their styles are linked with the page,
// so a reader without JavaScript (who never loads the chunk) gets them too.
import "~/app/components/forms/forms.css";
import "~/app/components/prose.css";
import * as cards from "~/app/components/cards.css";
import { chip, chipList } from "~/app/components/chips.css";
import { toolRow } from "~/app/components/controls.css";
import { useRootData } from "~/app/lib/http/root-data";
import { useTidyCookieCheck } from "~/app/lib/paywall/cookie-check";
import { formatAuthors, formatPublished, formatUsd } from "~/app/lib/content/format";
import { imageLoading } from "~/app/lib/content/image-loading";
import { SITE_NAME } from "~/app/lib/forms/cross-site";
import type { ArticlePageView } from "~/app/lib/content/article-page.server";

/** How wide the hero is laid out: the text column's width (article.css.ts), else the screen's. */
const HERO_SIZES = "(min-width: 1025px) 42rem, 100vw";

// Subscribers' tools come in a chunk of their own: other readers' pages do not load it.
const SubscriberTools = lazy(() => import("~/app/components/SubscriberTools"));

function jsonLd(data: ArticlePageProps["data"]) {
  const { article, siteUrl, bodyGated } = data;
  return {
    "@context": "https://schema.org",
    "@type": "NewsArticle",
    headline: article.title,
    description: article.summary,
    datePublished: article.published,
    // Articles are published as they are written: the content is never edited afterwards.
    dateModified: article.published,
    image: [
      article.hero ? ogImage(article.hero, siteUrl).url : `${siteUrl}${article.image}`,
      `${siteUrl}${socialCardPath("article", article.slug)}`,
    ],
    author: article.authors.map((a) => ({ "@type": "Person", name: a.name })),
    publisher: { "@type": "Organization", name: SITE_NAME, logo: { "@type": "ImageObject", url: `${siteUrl}/favicon.svg` } },
    mainEntityOfPage: `${siteUrl}${article.url}`,
    articleSection: article.topics.map((t) => t.name),
    wordCount: article.wordCount,
    // Metered: the part after the preview is for subscribers and readers with free reads left.
    isAccessibleForFree: false,
    // The gated part is named where it is in the page (a reader with reads left, a subscriber, a
    // verified crawler); where the wall stands in its place there is no part to point at.
    ...(bodyGated ? { hasPart: { "@type": "WebPageElement", isAccessibleForFree: false, cssSelector: `.${GATED_CLASS}` } } : {}),
  };
}

export interface ArticlePageProps {
  data: SerializeFrom<() => ArticlePageView>;
  /** What the note form's last post answered (the site's page only). */
  noteResult?: ComponentProps<typeof SubscriberTools>["noteResult"];
}

/**
 * The article page as a reader sees it, once who may read what is decided: the site's article
 * route decides it from the meter, the desk's preview (ADR 079) names it.
 */
export function ArticlePage({ data, noteResult }: ArticlePageProps) {
  const root = useRootData();
  const { article, related, latest, promo, body, bodyGated, offer, viewer, readingList, subscriber, giftExpired } = data;
  useTidyCookieCheck();
  const primary = article.topics[0];
  return (
    <>
      <TitleBar title={article.title} />
      <JsonLd data={jsonLd(data)} />
      <div className={css.layout}>
        <article>
          <header className={css.header}>
            {primary ? (
              <p className={cards.eyebrow}>
                <Link className={cards.eyebrowLink} to={primary.headlineUrl}>
                  {primary.name}
                </Link>
                {article.contentType !== "Article" ? ` · ${article.contentType}` : null}
              </p>
            ) : null}
            <h1 className={css.title}>{article.title}</h1>
            <p className={css.dek}>{article.dek}</p>
            {article.subDek ? <p className={css.subDek}>{article.subDek}</p> : null}
            <p className={css.meta}>
              by {formatAuthors(article.authors)} · <time dateTime={article.published}>{formatPublished(article.published)}</time> ·{" "}
              {Math.max(1, Math.round(article.wordCount / 230))} min read
            </p>
            {article.hero ? (
              <ResponsiveImage image={article.hero} sizes={HERO_SIZES} largest className={css.uploadedHero} />
            ) : (
              <img
                className={css.hero}
                src={article.image}
                width={ARTICLE_ART_SIZE.width}
                height={ARTICLE_ART_SIZE.height}
                alt={article.imageAlt ?? `Abstract illustration accompanying “${article.title}”`}
                {...imageLoading(true)}
              />
            )}
            <div className={toolRow}>
              <SaveControl type="article" id={article.id} title={article.title} look="tool" />
              <ShareControl type="article" id={article.id} title={article.title} url={`${data.siteUrl}${article.url}`} />
              <TextSizeToggle />
            </div>
            {root?.user ? (
              <HelpBox id="article-saves" headline="Save it for later">
                Use Save on any article, video or podcast to keep it in your library, sorted into your own folders.
              </HelpBox>
            ) : null}
            <details className={css.summaryBox} open>
              <summary className={css.summaryToggle}>Summary</summary>
              <p>{article.summary}</p>
            </details>
          </header>

          {article.series ? (
            <nav className={css.seriesNav} aria-label="Series">
              <p>
                <strong>{article.series.title}</strong>: part {article.series.part} of {article.series.parts.length}
              </p>
              <ol>
                {article.series.parts.map((p) => (
                  <li key={p.part}>
                    {p.part === article.series!.part ? <span aria-current="page">{p.title}</span> : <Link to={p.url}>{p.title}</Link>}
                  </li>
                ))}
              </ol>
            </nav>
          ) : null}

          {readingList && offer.wall === null ? <ReadingListOverlay list={readingList} open={false} /> : null}
          {offer.meter && offer.wall === null && viewer.kind !== "subscriber" ? (
            <SubscriptionCounter text={offer.meter.counter} abTag={offer.abTag} />
          ) : null}

          {giftExpired ? (
            <p className={css.giftExpired} role="status">
              This gift link has expired.
            </p>
          ) : null}
          <ArticleBody
            key={article.id}
            html={body}
            gated={bodyGated}
            wall={
              offer.wall ? (
                <>
                  {offer.wall === "subscribe" ? (
                    <SubscribeWall firstName={viewer.firstName} abTag={offer.abTag} />
                  ) : (
                    <RegistrationWall
                      articleUrl={article.url}
                      screen={offer.screen}
                      region={offer.region}
                      abTag={offer.abTag}
                      cookiesRefused={viewer.cookiesRefused}
                    />
                  )}
                  {/* The reading-list paywall: the list the reader came from, with the wall. */}
                  {readingList ? <ReadingListOverlay list={readingList} open /> : null}
                </>
              ) : null
            }
            promo={
              promo ? (
                <aside className={css.promo} aria-label="From the store" data-no-print="">
                  <p className={cards.eyebrow}>{promo.productType}</p>
                  <p>
                    <strong>From the store:</strong> {promo.title} ({promo.format}, {formatUsd(promo.priceCents)}).{" "}
                    <Link to={addToCartHref(promo.url)} rel="nofollow">
                      View Details
                    </Link>
                  </p>
                </aside>
              ) : null
            }
          />

          {subscriber ? (
            <Deferred>
              <SubscriberTools articleUrl={article.url} tools={subscriber} notice={subscriber.notice} noteResult={noteResult} />
            </Deferred>
          ) : null}

          <div className={css.share} data-no-print="">
            <ShareLinks
              type="article"
              id={article.id}
              url={`${data.siteUrl}${article.url}`}
              title={article.title}
              heading="Share this article"
            />
          </div>

          <section aria-labelledby="about-authors">
            <h2 id="about-authors" className={css.asideBlock}>
              About the {article.authors.length > 1 ? "authors" : "author"}
            </h2>
            {article.authors.map((a) => (
              <div key={a.name} className={css.author}>
                {a.photo ? <ResponsiveImage image={a.photo} sizes="4rem" className={css.authorPhoto} /> : <Monogram name={a.name} />}
                <p>
                  <strong>{a.name}</strong> is {a.role.charAt(0).toLowerCase() + a.role.slice(1)}. {a.bio}
                </p>
              </div>
            ))}
          </section>
        </article>

        <aside className={css.aside} aria-label="Related">
          {article.readingLists.length > 0 ? (
            <section className={css.asideBlock}>
              <h2 className={cards.eyebrow}>THIS ARTICLE APPEARS IN</h2>
              <ReadingListLinks lists={article.readingLists} className={css.asideList} />
            </section>
          ) : null}
          {related.length > 0 && primary ? (
            <section className={css.asideBlock}>
              <h2 className={cards.eyebrow}>More in {primary.name}</h2>
              <ul className={css.asideList}>
                {related.map((r) => (
                  <li key={r.id}>
                    <Link to={r.url}>{r.title}</Link>
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          <section className={css.asideBlock}>
            <h2 className={cards.eyebrow}>Topics</h2>
            <ul className={chipList}>
              {article.topics.map((t) => (
                <li key={t.url}>
                  <Link to={t.url} className={chip}>
                    {t.name}
                  </Link>
                </li>
              ))}
            </ul>
          </section>
        </aside>
      </div>
      <Carousel title="The Latest" cards={latest} />
    </>
  );
}
