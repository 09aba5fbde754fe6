import { useRef, type ReactNode } from "react";
import { useDocumentOnly } from "~/app/lib/http/document-only";
import * as css from "./article.css";

/** The key under which the article route gives the body to a whole page's render only (ADR 036). */
export const ARTICLE_BODY = "articleBody";

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
 *
 * `html` is null when the body came in the HTML and not in the data (a page's first render):
 * the server's render takes it from the document-only context, and the browser keeps the
 * markup it was sent: an empty inner HTML is never written while hydrating, nor by a render
 * that leaves it unchanged, so the parts it hydrated stay empty in React's eyes for as long as
 * this body is shown (the route gives each article a body of its own). A part that appears
 * later (the gated text, once the reader subscribes) comes with the data. `gated` says which
 * parts there are.
 */
export function ArticleBody({
  html: given,
  gated,
  promo,
  wall,
}: {
  html: ArticleBodyHtml | null;
  gated: boolean;
  promo: ReactNode;
  wall: ReactNode;
}) {
  const documentOnly = useDocumentOnly<ArticleBodyHtml>(ARTICLE_BODY);
  const hydratedFromHtml = useRef<{ gated: boolean } | null>(given === null && !documentOnly ? { gated } : null);
  const kept = hydratedFromHtml.current;
  const found = given ?? documentOnly;
  const html: ArticleBodyHtml = {
    preview: kept ? "" : (found?.preview ?? ""),
    gated: !gated ? null : kept?.gated || !found?.gated ? { beforePromo: "", afterPromo: "" } : found.gated,
  };
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
