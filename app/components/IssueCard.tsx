import { Link } from "@remix-run/react";
import type { IssueSummary } from "~/server/content/archive";
import { ISSUE_COVER_SIZE } from "~/shared/art-sizes";
import * as css from "./magazine.css";

export function coverAlt(issue: IssueSummary): string {
  return `Cover of the ${issue.monthLabel} ${issue.year} issue: ${issue.title}`;
}

/** Spec card: magazine issue with cover, title, summary and a "Featuring" list. */
export function IssueCard({ issue, featuring }: { issue: IssueSummary; featuring: { title: string; url: string | null }[] }) {
  return (
    <article className={css.issueCard}>
      <Link to={issue.url}>
        <img
          src={issue.cover}
          alt={coverAlt(issue)}
          width={ISSUE_COVER_SIZE.width / 4}
          height={ISSUE_COVER_SIZE.height / 4}
          loading="lazy"
        />
      </Link>
      <div>
        <h3 className={css.issueTitle}>
          <Link to={issue.url}>{issue.title}</Link>
        </h3>
        <p className={css.issueDate}>
          {issue.monthLabel} {issue.year}
        </p>
        <p className={css.issueSummary}>{issue.summary}</p>
        {featuring.length > 0 ? (
          <>
            <p className={css.featuringLabel}>Featuring</p>
            <ul className={css.featuring}>
              {featuring.map((f) => (
                <li key={f.title}>{f.url ? <Link to={f.url}>{f.title}</Link> : f.title}</li>
              ))}
            </ul>
          </>
        ) : null}
      </div>
    </article>
  );
}
