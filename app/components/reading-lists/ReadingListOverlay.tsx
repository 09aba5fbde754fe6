import { Link } from "@remix-run/react";
import type { ReadingListContext } from "~/server/content/reading-lists";
import { readingListPath } from "~/shared/urls";
import * as css from "./reading-lists.css";
import { ReadingListLinks } from "./ReadingListLinks";

/**
 * The reading list an article is read within (spec "Reading-list overlay"): its numbered
 * articles, and the other lists this article appears in. A <details>, so it opens and closes
 * without JS; open beside the wall (the reading-list paywall).
 */
export function ReadingListOverlay({ list, open }: { list: ReadingListContext; open: boolean }) {
  return (
    <details className={css.overlay} open={open} data-reading-list={list.slug}>
      <summary className={css.overlayToggle}>Reading list: {list.name}</summary>
      <ol>
        {list.items.map((item) => (
          <li key={item.url} value={item.position}>
            {item.current ? <span aria-current="page">{item.title}</span> : <Link to={item.url}>{item.title}</Link>}
          </li>
        ))}
      </ol>
      {list.withheld > 0 ? (
        <p>
          {list.withheld === 1 ? "1 more article" : `${list.withheld} more articles`} for subscribers:{" "}
          <Link to={readingListPath(list.slug)}>the whole list</Link>.
        </p>
      ) : null}
      {list.others.length > 0 ? (
        <>
          <p className={css.overlayHeading}>THIS ARTICLE APPEARS IN</p>
          <ReadingListLinks lists={list.others} className={css.overlayLinks} />
        </>
      ) : null}
    </details>
  );
}
