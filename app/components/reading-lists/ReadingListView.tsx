import { Link, useLocation } from "@remix-run/react";
import { useId } from "react";
import type { ReadingListPage } from "~/server/content/reading-lists";
import { readingListPath } from "~/shared/urls";
import { formatAuthors } from "~/app/lib/content/format";
import { useRootData } from "~/app/lib/http/root-data";
import * as css from "./reading-lists.css";
import { primaryButton } from "~/app/components/controls.css";

export const articleCount = (n: number) => (n === 1 ? "1 article" : `${n} articles`);

/**
 * A reading list's numbered articles, what is left for subscribers, and related lists: the body
 * of the list's page, and of the dialog that shows the same page over an article.
 */
export function ReadingListView({ list, headingLevel }: { list: ReadingListPage; headingLevel: 2 | 3 }) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const relatedId = useId();
  return (
    <>
      <ol className={css.items}>
        {list.items.map((item) => (
          <li key={item.url} value={item.position} className={css.item}>
            {/* The list gives each item its place to assistive technology. */}
            <span className={css.number} aria-hidden="true">
              {item.position}
            </span>
            <img className={css.image} src={item.image} alt="" width={320} height={180} loading="lazy" />
            <Heading className={css.itemTitle}>
              <Link className={css.itemLink} to={item.url}>
                {item.title}
              </Link>
            </Heading>
            <div className={css.itemText}>
              {item.authors.length > 0 ? <p className={css.byline}>by {formatAuthors(item.authors)}</p> : null}
              <p className={css.summary}>{item.summary}</p>
            </div>
          </li>
        ))}
      </ol>
      {list.withheld > 0 ? <Withheld count={list.withheld} /> : null}
      {list.related.length > 0 ? (
        <section className={css.related} aria-labelledby={relatedId}>
          <Heading id={relatedId} className={css.relatedHeading}>
            Related reading lists
          </Heading>
          <ul className={css.relatedLists}>
            {list.related.map((r) => (
              <li key={r.slug}>
                <Link className={css.relatedName} to={readingListPath(r.slug)}>
                  {r.name}
                </Link>
                <p className={css.meta}>{articleCount(r.size)}</p>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}

/** The rest of the list is for subscribers: how much there is, and the ways to it. */
function Withheld({ count }: { count: number }) {
  const signedIn = Boolean(useRootData()?.user);
  const { pathname, search } = useLocation();
  return (
    <div className={css.withheld}>
      <p>
        <strong>{count === 1 ? "1 more article completes" : `${count} more articles complete`} this list</strong> for subscribers.
      </p>
      <Link className={primaryButton} to="/subscriptions">
        Subscribe
      </Link>
      {signedIn ? null : (
        <p>
          Already a subscriber?{" "}
          <Link to={`/sign-in?redirectTo=${encodeURIComponent(pathname + search)}`} rel="nofollow">
            Sign in
          </Link>
        </p>
      )}
    </div>
  );
}
