import type { NewsletterIssueStatus } from "~/server/db/schema";
import { ISSUE_STATUS_NAMES } from "~/shared/newsletter-issue-vocabulary";
import * as css from "./newsletters.css";

/** An issue's state, as a word. */
export function IssueBadge({ status }: { status: NewsletterIssueStatus }) {
  return <span className={css.badge[status]}>{ISSUE_STATUS_NAMES[status]}</span>;
}
