import { Link } from "@remix-run/react";
import type { IssueSummary } from "~/server/content/archive";
import { ISSUE_COVER_SIZE } from "~/shared/art-sizes";
import { ResponsiveImage } from "./ResponsiveImage";
import * as cards from "./cards.css";
import * as css from "./magazine.css";

type Cover = Pick<IssueSummary, "monthLabel" | "year" | "title" | "cover" | "coverImage">;

export function coverAlt(issue: Pick<IssueSummary, "monthLabel" | "year" | "title">): string {
  return `Cover of the ${issue.monthLabel} ${issue.year} issue: ${issue.title}`;
}

/**
 * An issue's cover: the uploaded one with its srcset (the editor's description after the
 * issue's name), else the drawn one at `scale` of its size.
 */
export function IssueCover({
  issue,
  sizes,
  scale,
  lazy,
  className,
}: {
  issue: Cover;
  sizes: string;
  scale: number;
  lazy: boolean;
  className?: string;
}) {
  const alt = coverAlt(issue);
  if (issue.coverImage) {
    const image = { ...issue.coverImage, alt: issue.coverImage.alt ? `${alt}. ${issue.coverImage.alt}` : alt };
    return <ResponsiveImage image={image} sizes={sizes} largest={!lazy} className={className ?? css.uploadedCover} />;
  }
  return (
    <img
      className={className}
      src={issue.cover}
      alt={alt}
      width={ISSUE_COVER_SIZE.width * scale}
      height={ISSUE_COVER_SIZE.height * scale}
      loading={lazy ? "lazy" : undefined}
    />
  );
}

/** Spec card: magazine issue with cover, title, summary and a "Featuring" list. */
export function IssueCard({ issue, featuring }: { issue: IssueSummary; featuring: { title: string; url: string | null }[] }) {
  return (
    <article className={css.issueCard}>
      <Link to={issue.url}>
        <IssueCover issue={issue} sizes="150px" scale={1 / 4} lazy />
      </Link>
      <div>
        <h3 className={css.issueTitle}>
          <Link to={issue.url} className={cards.cardTitleLink}>
            {issue.title}
          </Link>
        </h3>
        <p className={css.issueDate}>
          {issue.monthLabel} {issue.year}
        </p>
        <p className={css.issueSummary}>{issue.summary}</p>
        {featuring.length > 0 ? (
          <>
            <p className={css.featuringLabel}>Featuring</p>
            <ul className={css.featuring}>
              {featuring.map((f, index) => (
                <li key={`${index}:${f.title}`}>{f.url ? <Link to={f.url}>{f.title}</Link> : f.title}</li>
              ))}
            </ul>
          </>
        ) : null}
      </div>
    </article>
  );
}
