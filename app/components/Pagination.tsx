import { Link } from "@remix-run/react";
import { paginationItems } from "~/shared/pagination";
import * as css from "./stream.css";

interface Props {
  current: number;
  last: number;
  /** Builds the link for a page number, keeping the page's other query values. */
  href: (page: number) => string;
  label?: string;
}

export function Pagination({ current, last, href, label = "Pagination" }: Props) {
  if (last <= 1) return null;
  return (
    <nav aria-label={label} className={css.pagination}>
      <ul className={css.pages}>
        {current > 1 ? (
          <li>
            <Link className={css.pageLink} to={href(current - 1)} rel="prev">
              Previous
            </Link>
          </li>
        ) : null}
        {paginationItems(current, last).map((item, i) =>
          item.kind === "gap" ? (
            <li key={`gap-${i}`} aria-hidden="true">
              <span className={css.gap}>...</span>
            </li>
          ) : (
            <li key={item.number} className={item.wideOnly ? css.wideOnly : undefined}>
              <Link
                className={css.pageLink}
                to={href(item.number)}
                aria-current={item.current ? "page" : undefined}
                aria-label={`Page ${item.number}`}
              >
                {item.number}
              </Link>
            </li>
          ),
        )}
        {current < last ? (
          <li>
            <Link className={css.pageLink} to={href(current + 1)} rel="next">
              Next
            </Link>
          </li>
        ) : null}
      </ul>
    </nav>
  );
}
