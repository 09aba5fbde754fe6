import * as css from "~/app/components/desk/desk.css";

export interface IssueTextProps {
  subject: string;
  preheader: string;
  intro: string;
  /** The articles' titles, in order. */
  articles: string[];
}

/**
 * What an issue says, as facts: an issue that can no longer be changed, the one a send page
 * confirms, or an editor's own version beside a refused save.
 */
export function IssueText({ issue, heading, headingId }: { issue: IssueTextProps; heading: string; headingId: string }) {
  return (
    <section aria-labelledby={headingId} className={css.facts}>
      <h2 id={headingId}>{heading}</h2>
      <dl>
        <dt>Subject</dt>
        <dd>{issue.subject}</dd>
        <dt>Preheader</dt>
        <dd>{issue.preheader || "(none)"}</dd>
        <dt>Introduction</dt>
        <dd>{issue.intro || "(none)"}</dd>
        <dt>Articles</dt>
        <dd>
          {issue.articles.length === 0 ? (
            "(none)"
          ) : (
            <ol>
              {issue.articles.map((title, index) => (
                <li key={`${index}:${title}`}>{title}</li>
              ))}
            </ol>
          )}
        </dd>
      </dl>
    </section>
  );
}
