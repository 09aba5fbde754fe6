import { Link, useLocation, useNavigation } from "@remix-run/react";
import { useEffect, useRef, type ReactNode } from "react";
import { MAX_STREAM_LOADS } from "~/shared/pagination";
import type { StreamPage } from "~/server/content/streams";
import { ArticleCard } from "./ArticleCard";
import { Pagination } from "./Pagination";
import * as cards from "./cards.css";
import * as css from "./stream.css";

interface Props {
  stream: StreamPage;
  /** Whether "Load more items" may go on past the spec's two loads. */
  unlimited: boolean;
  emptyText: string;
}

interface EntryListProps<T extends { id: number }> extends Omit<Props, "stream"> {
  stream: { entries: T[]; page: StreamPage["page"] };
  /** An entry as the list shows it: an <article> that takes focus (tabIndex -1) after a load. */
  renderEntry: (entry: T) => ReactNode;
  /** Query values the "Load more items" and page links add (search's referral code). */
  linkParams?: Record<string, string>;
  /** How the total is told, when it is not an exact number ("more than 1,000"). */
  totalText?: string;
}

function withParams(search: string, changes: Record<string, number | string | null>): string {
  const params = new URLSearchParams(search);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === 1) params.delete(key);
    else params.set(key, String(value));
  }
  const query = params.toString();
  return query ? `?${query}` : "?";
}

export function StreamList(props: Props) {
  return <EntryList {...props} renderEntry={(entry) => <ArticleCard card={entry} focusTarget />} />;
}

/**
 * A stream of cards with "Load more items" (a real link to ?loaded=N that renders the pages
 * on the server; with JS the router fetches it in place) and numbered pagination.
 */
export function EntryList<T extends { id: number }>({
  stream,
  unlimited,
  emptyText,
  renderEntry,
  linkParams,
  totalText,
}: EntryListProps<T>) {
  const { search } = useLocation();
  const navigation = useNavigation();
  const { number, loaded, last, size, total } = stream.page;
  const lastShown = number + loaded - 1;
  const canLoadMore = lastShown < last && (unlimited || loaded < MAX_STREAM_LOADS);
  const firstNew = useRef(loaded);

  // After an in-place load, move focus to the first new entry so keyboard and screen-reader users continue there.
  useEffect(() => {
    if (loaded > firstNew.current) {
      const target = document.querySelector<HTMLElement>(`[data-stream-index="${(loaded - 1) * size}"] article`);
      target?.focus();
    }
    firstNew.current = loaded;
  }, [loaded, size]);

  if (stream.entries.length === 0) return <p>{emptyText}</p>;
  const first = (number - 1) * size + 1;
  return (
    <>
      <p className={css.count}>
        Showing {first}–{first + stream.entries.length - 1} of {totalText ?? total}
      </p>
      <ol className={cards.list} start={first > 1 ? first : undefined} aria-busy={navigation.state === "loading" ? true : undefined}>
        {stream.entries.map((entry, i) => (
          <li key={entry.id} data-stream-index={i}>
            {renderEntry(entry)}
          </li>
        ))}
      </ol>
      {canLoadMore ? (
        <Link
          className={css.loadMore}
          to={withParams(search, { ...linkParams, loaded: loaded + 1 })}
          preventScrollReset
          replace
          rel="nofollow"
        >
          Load more items
        </Link>
      ) : null}
      <Pagination current={lastShown} last={last} href={(page) => withParams(search, { ...linkParams, page, loaded: null })} />
    </>
  );
}
