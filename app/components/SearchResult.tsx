import { Link } from "@remix-run/react";
import { Fragment } from "react";
import type { SearchResult as Result } from "~/server/search";
import { formatPublished } from "~/app/lib/content/format";
import * as cards from "./cards.css";
import * as css from "./search.css";

/** One search result: what it is, its title as a link, the passage that matched and its date. */
export function SearchResult({ result }: { result: Result }) {
  return (
    <article className={css.result} tabIndex={-1} data-result-kind={result.kind}>
      {result.image ? (
        <img className={css.resultImage} src={result.image} alt="" width={160} height={90} loading="lazy" decoding="async" />
      ) : (
        <span className={css.resultImage} aria-hidden="true" />
      )}
      <div>
        <p className={cards.eyebrow}>{result.label}</p>
        <h3 className={cards.cardTitle}>
          <Link className={cards.cardTitleLink} to={result.url}>
            {result.title}
          </Link>
        </h3>
        {result.snippet.length > 0 ? (
          <p className={css.snippet}>{result.snippet.map((part, i) => (part.mark ? <mark key={i}>{part.text}</mark> : part.text))}</p>
        ) : null}
        {result.otherIssues.length > 0 ? (
          <p className={css.otherIssues}>
            Also the cover story of {result.otherIssues.length} other {result.otherIssues.length === 1 ? "issue" : "issues"}:{" "}
            {result.otherIssues.map((issue, i) => (
              <Fragment key={issue.url}>
                {i > 0 ? ", " : null}
                <Link to={issue.url}>{issue.when}</Link>
              </Fragment>
            ))}
            .
          </p>
        ) : null}
        {/* An issue's title already names its months. */}
        {result.kind === "issue" ? null : (
          <p className={cards.byline}>
            <time dateTime={result.published}>{formatPublished(result.published)}</time>
          </p>
        )}
      </div>
    </article>
  );
}
