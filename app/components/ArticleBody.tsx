import type { ReactNode } from "react";
import * as css from "./article.css";

/** The class that wraps the gated part of an article, named in its JSON-LD `hasPart`. */
export const GATED_CLASS = "paywalled-content";

export interface ArticleBodyHtml {
  /** The free preview: the first paragraphs, shown to everyone. */
  preview: string;
  /** The rest, either side of the promo; absent when the reader meets a wall. */
  gated: { beforePromo: string; afterPromo: string } | null;
}

/**
 * The article text. Readers entitled to it get the whole body with the promo about half way
 * through; others get the preview followed by the wall, and the rest of the text is not in the
 * page at all. The HTML is made on the server from our own content, every text escaped (see
 * blocksToHtml in server/content/markdown.ts); each part sits in a box-less wrapper, so its
 * paragraphs lay out as children of the body.
 */
export function ArticleBody({ html, promo, wall }: { html: ArticleBodyHtml; promo: ReactNode; wall: ReactNode }) {
  return (
    <div className={css.body} id="article-body">
      <div className={css.bodyPart} dangerouslySetInnerHTML={{ __html: html.preview }} />
      {html.gated ? (
        <div className={`${css.bodyPart} ${GATED_CLASS}`}>
          <div className={css.bodyPart} dangerouslySetInnerHTML={{ __html: html.gated.beforePromo }} />
          {promo}
          <div className={css.bodyPart} dangerouslySetInnerHTML={{ __html: html.gated.afterPromo }} />
        </div>
      ) : (
        wall
      )}
    </div>
  );
}
