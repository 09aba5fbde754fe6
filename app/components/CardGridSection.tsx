import type { ArticleCard as Card } from "../../server/article-cards";
import { ArticleCard } from "./ArticleCard";
import * as cards from "./cards.css";
import * as prose from "./prose.css";

/** A titled section of stacked cards in a responsive grid. */
export function CardGridSection({ id, title, items }: { id: string; title: string; items: Card[] }) {
  if (items.length === 0) return null;
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className={prose.sectionHeading}>
        {title}
      </h2>
      <ul className={cards.grid}>
        {items.map((a) => (
          <li key={a.id}>
            <ArticleCard card={a} layout="stacked" />
          </li>
        ))}
      </ul>
    </section>
  );
}
