import { PREVIEW_VIEW_NAMES, PREVIEW_VIEWS, type PreviewView } from "~/shared/preview-views";
import * as css from "./PreviewBanner.css";

/** Says the page is a preview, of an article in which state ("draft") and in which view, with links to the other views (ADR 079). */
export function PreviewBanner({ state, view, links }: { state: string; view: PreviewView; links: Record<PreviewView, string> }) {
  return (
    <section className={css.banner} aria-label="Preview">
      <p className={css.label} role="status">
        <strong>Preview</strong> of a {state} article, as seen by: {PREVIEW_VIEW_NAMES[view]}
      </p>
      <nav aria-label="Preview as">
        <ul className={css.views}>
          {PREVIEW_VIEWS.map((each) => (
            <li key={each}>
              <a className={each === view ? css.current : css.view} href={links[each]} aria-current={each === view ? "page" : undefined}>
                {PREVIEW_VIEW_NAMES[each]}
              </a>
            </li>
          ))}
        </ul>
      </nav>
    </section>
  );
}
