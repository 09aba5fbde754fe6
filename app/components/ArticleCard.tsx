import { Link } from "@remix-run/react";
import type { ArticleCard as Card } from "../../server/article-cards";
import { formatAuthors, formatPublished } from "../lib/format";
import { imageLoading } from "../lib/image-loading";
import * as css from "./cards.css";
import { SaveControl } from "./library/SaveControl";

export type { Card };

interface Props {
  card: Card;
  headingLevel?: 2 | 3;
  layout?: "row" | "stacked";
  focusTarget?: boolean;
  /** The page's largest image: loaded at once, ahead of the others. */
  largestImage?: boolean;
}

export function ArticleCard({ card, headingLevel = 3, layout = "row", focusTarget, largestImage = false }: Props) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <article className={layout === "row" ? css.card : css.stackedCard} tabIndex={focusTarget ? -1 : undefined} data-entry-id={card.id}>
      <img className={css.cardImage} src={card.image} alt="" width={320} height={180} {...imageLoading(largestImage)} />
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
        <p className={css.summary}>{card.summary}</p>
        <p className={css.byline}>
          {card.authors.length > 0 ? `${formatAuthors(card.authors)} · ` : null}
          <time dateTime={card.published}>{formatPublished(card.published)}</time>
        </p>
        <SaveControl type="article" id={card.id} title={card.title} />
      </div>
    </article>
  );
}
