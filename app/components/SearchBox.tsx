import { Form } from "@remix-run/react";
import { Suspense, useId, useRef, useState } from "react";
import { MAX_QUERY_LENGTH } from "~/shared/search-query";
import { lazyEnhancement } from "~/app/lib/http/lazy-enhancement";
import { SITE_NAME } from "~/app/lib/forms/cross-site";
import { useHydrated } from "./useHydrated";
import * as css from "./SearchBox.css";

// The suggestions arrive after hydration, in a chunk of their own: the field works as a plain
// search form until then, and no page waits for the combobox's code before it can run (ADR 045).
const SearchSuggestions = lazyEnhancement(() => import("./SearchSuggestions"));

/**
 * The header's search field: a plain GET form to /search that works without JS. With JS the
 * field becomes a combobox (WAI-ARIA APG, list autocomplete) offering topics and titles from
 * the auto-suggest service; each option is a link, followed on click or Enter.
 */
export function SearchBox() {
  const hydrated = useHydrated();
  const id = useId();
  const inputId = `${id}q`;
  const input = useRef<HTMLInputElement>(null);
  const [liveRegion, setLiveRegion] = useState<HTMLDivElement | null>(null);

  return (
    <div className={css.slot}>
      <Form method="get" action="/search" role="search" aria-label="Site" className={css.form}>
        <label htmlFor={inputId} className="visually-hidden">
          Search {SITE_NAME}
        </label>
        <div className={css.field}>
          <MagnifierIcon />
          <input
            ref={input}
            id={inputId}
            type="search"
            name="q"
            placeholder="Search"
            maxLength={MAX_QUERY_LENGTH}
            autoComplete="off"
            className={css.input}
          />
          <button type="submit" className={css.submit}>
            <ArrowIcon />
            <span className="visually-hidden">Search</span>
          </button>
        </div>
        {hydrated && liveRegion ? (
          <Suspense fallback={null}>
            <SearchSuggestions input={input} idPrefix={id} liveRegion={liveRegion} />
          </Suspense>
        ) : null}
      </Form>
      {/* In the page from the start, so that screen readers follow it before anything is announced. */}
      <div ref={setLiveRegion} aria-live="polite" className="visually-hidden" />
    </div>
  );
}

function MagnifierIcon() {
  return (
    <svg className={css.icon} viewBox="0 0 20 20" width="20" height="20" aria-hidden="true" focusable="false">
      <circle cx="8.5" cy="8.5" r="5.5" fill="none" stroke="currentColor" strokeWidth="2" />
      <path d="M12.5 12.5 17 17" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

function ArrowIcon() {
  return (
    <svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true" focusable="false">
      <path d="M3 10h13M11 5l5 5-5 5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
