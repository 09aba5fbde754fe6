import { Link } from "@remix-run/react";
import type { ProductCard as Card } from "~/server/store/catalogue";
import { formatPublished, formatUsd } from "~/app/lib/content/format";
import * as cards from "~/app/components/cards.css";
import * as css from "./store.css";
import { PRODUCT_COVER_SIZE } from "~/shared/art-sizes";
import { CoverPicture } from "./CoverPicture";

/** "Available {date}" for an item that is not on sale yet (spec date format "MMMM DD, YYYY"). */
export function availableLabel(date: string | null): string {
  return date ? `Available ${formatPublished(date)}` : "Coming soon";
}

/** A product in the store listing: cover, title, type, formats, price, and when it goes on sale if not yet. */
export function ProductCard({ card }: { card: Card }) {
  return (
    <article className={css.card} tabIndex={-1} data-product-id={card.id}>
      <Link to={card.url} tabIndex={-1} aria-hidden="true" className={css.coverLink}>
        {card.coverPicture ? (
          <CoverPicture picture={card.coverPicture} alt="" sizes="150px" className={css.cover} />
        ) : (
          <img
            className={css.cover}
            src={card.cover}
            alt=""
            width={PRODUCT_COVER_SIZE.width / 4}
            height={PRODUCT_COVER_SIZE.height / 4}
            loading="lazy"
            decoding="async"
          />
        )}
      </Link>
      <p className={cards.eyebrow}>
        {card.productType} ·{" "}
        <Link className={cards.eyebrowLink} to={`/store?topic=${card.topic.slug}`}>
          {card.topic.name}
        </Link>
      </p>
      <h3 className={`${cards.cardTitle} ${css.title}`}>
        <Link className={cards.cardTitleLink} to={card.url}>
          {card.title}
        </Link>
      </h3>
      <p className={css.facts}>{card.formats.join(", ")}</p>
      <p className={css.price}>
        {card.fromPriceCents < card.priceCents ? `From ${formatUsd(card.fromPriceCents)}` : formatUsd(card.priceCents)}
      </p>
      {card.comingSoon ? <p className={css.comingSoon}>{availableLabel(card.availableDate)}</p> : null}
    </article>
  );
}
