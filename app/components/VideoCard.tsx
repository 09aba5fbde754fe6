import { Link } from "@remix-run/react";
import type { VideoCard as Card } from "~/server/content/videos";
import { formatDuration, formatPublished } from "~/app/lib/content/format";
import * as css from "./cards.css";
import { SaveControl } from "./library/SaveControl";

export function VideoCard({ card, href = card.url }: { card: Card; href?: string }) {
  return (
    <article className={css.stackedCard}>
      <img className={css.cardImage} src={card.poster} alt="" width={320} height={180} loading="lazy" decoding="async" />
      <div>
        <p className={css.eyebrow}>Video{card.subscriberOnly ? " · For subscribers" : null}</p>
        <h3 className={css.cardTitle}>
          <Link className={css.cardTitleLink} to={href}>
            {card.title}
          </Link>
        </h3>
        <p className={css.byline}>
          {formatDuration(card.durationSeconds)} · <time dateTime={card.published}>{formatPublished(card.published)}</time>
        </p>
        <SaveControl type="video" id={card.id} title={card.title} look="card" />
      </div>
    </article>
  );
}
