import type { ArticleCard as Card } from "~/server/content/article-cards";
import { ArticleCard } from "./ArticleCard";
import * as css from "./carousel.css";
import * as prose from "./prose.css";

/** A horizontally scrolling row of cards: CSS scroll snapping, so it needs no JS; keyboard users focus it and scroll with arrows. */
export function Carousel({ title, cards }: { title: string; cards: Card[] }) {
  if (cards.length === 0) return null;
  const id = `carousel-${title.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className={prose.sectionHeading}>
        {title}
      </h2>
      {/* A list that scrolls sideways must take focus, or a keyboard cannot scroll it. */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex */}
      <ul className={css.track} tabIndex={0} aria-label={`${title}, scrolls sideways`}>
        {cards.map((c) => (
          <li key={c.id} className={css.slide}>
            <ArticleCard card={c} layout="stacked" />
          </li>
        ))}
      </ul>
    </section>
  );
}
