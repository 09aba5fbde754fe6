import type { NewsletterIssueStatus } from "~/server/db/schema";
import { ISSUE_STATUS_NAMES } from "~/shared/newsletter-issue-vocabulary";
import { StateBadge, type BadgeTone } from "../StateBadge";

const TONES: Record<NewsletterIssueStatus, BadgeTone> = { draft: "quiet", queued: "waiting", sending: "waiting", sent: "done" };

/** An issue's state, as a word. */
export function IssueBadge({ status }: { status: NewsletterIssueStatus }) {
  return <StateBadge tone={TONES[status]}>{ISSUE_STATUS_NAMES[status]}</StateBadge>;
}
