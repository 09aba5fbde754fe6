import { Link } from "@remix-run/react";
import type { ArticleCard as Card } from "~/server/content/article-cards";
import { formatAuthors, formatPublished } from "~/app/lib/content/format";
import { imageLoading } from "~/app/lib/content/image-loading";
import * as css from "./cards.css";
import { SaveControl } from "./library/SaveControl";
import { ResponsiveImage } from "./ResponsiveImage";

export type { Card };

interface Props {
  card: Card;
  headingLevel?: 2 | 3;
  /** "headline": topic, headline and date only, for a compact list beside larger stories. */
  layout?: "row" | "stacked" | "headline";
  focusTarget?: boolean;
  /** The page's largest image: loaded at once, ahead of the others. */
  largestImage?: boolean;
}

const LAYOUTS = { row: css.card, stacked: css.stackedCard, headline: css.headlineCard } as const;

/** How wide an uploaded hero is laid out in a card (cards.css.ts), for the browser to pick its width. */
const HERO_SIZES = {
  row: "(min-width: 768px) 12rem, 7rem",
  stacked: "(min-width: 1025px) 25rem, (min-width: 768px) 50vw, 100vw",
  largest: "(min-width: 1025px) 48rem, 100vw",
} as const;

export function ArticleCard({ card, headingLevel = 3, layout = "row", focusTarget, largestImage = false }: Props) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const headlineOnly = layout === "headline";
  return (
    <article className={LAYOUTS[layout]} tabIndex={focusTarget ? -1 : undefined} data-entry-id={card.id}>
      {headlineOnly ? null : card.hero ? (
        // The headline names the story: the picture beside it is decorative here, as the drawn art is.
        <ResponsiveImage
          image={{ ...card.hero, alt: "" }}
          sizes={largestImage ? HERO_SIZES.largest : HERO_SIZES[layout === "row" ? "row" : "stacked"]}
          largest={largestImage}
          className={css.cardImage}
        />
      ) : (
        <img className={css.cardImage} src={card.image} alt="" width={320} height={180} {...imageLoading(largestImage)} />
      )}
      <div>
        <p className={css.eyebrow}>
          <Link className={css.eyebrowLink} to={card.topic.url}>
            {card.topic.name}
          </Link>
          {card.contentType !== "Article" ? ` · ${card.contentType}` : null}
        </p>
        <Heading className={css.cardTitle}>
          <Link className={css.cardTitleLink} to={card.url}>
            {card.title}
          </Link>
        </Heading>
        {headlineOnly ? null : (
          // The page's largest story keeps its whole summary; a card's is cut to what it holds.
          <p className={largestImage ? css.summary : css.cardSummary}>{card.summary}</p>
        )}
        <p className={css.byline}>
          {card.authors.length > 0 ? `${formatAuthors(card.authors)} · ` : null}
          <time dateTime={card.published}>{formatPublished(card.published)}</time>
        </p>
        {headlineOnly ? null : <SaveControl type="article" id={card.id} title={card.title} look="card" />}
      </div>
    </article>
  );
}
