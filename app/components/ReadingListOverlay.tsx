import { Link } from "@remix-run/react";
import type { ReadingListContext } from "../../server/reading-lists";
import { readingListPath } from "../../shared/urls";
import * as css from "./paywall.css";

/**
 * The reading list a reader is working through (spec "Reading-list overlay"): numbered items
 * and the other lists this article appears in. A <details>, so it opens and closes without JS.
 */
export function ReadingListOverlay({ list, open }: { list: ReadingListContext; open: boolean }) {
  return (
    <details className={css.readingList} open={open} data-reading-list={list.slug}>
      <summary className={css.readingListToggle}>Reading list: {list.name}</summary>
      <ol>
        {list.items.map((item) => (
          <li key={item.url}>
            {item.current ? (
              <span aria-current="page">{item.title}</span>
            ) : (
              <Link to={`${item.url}?list=${encodeURIComponent(list.slug)}`}>{item.title}</Link>
            )}
          </li>
        ))}
      </ol>
      {list.others.length > 0 ? (
        <>
          <p>THIS ARTICLE APPEARS IN</p>
          <ul>
            {list.others.map((other) => (
              <li key={other.slug}>
                <Link to={readingListPath(other.slug)}>{other.name}</Link>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </details>
  );
}
