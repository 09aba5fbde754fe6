import type { NewsletterIssueStatus } from "~/server/db/schema";
import type { IssueCounts } from "~/server/newsletters/issues";
import { deskTime } from "./format";

// How the desk words an issue's progress (ADR 084): queued, sending n of N, sent, with what failed.

/** An issue's page at the desk. */
export const issuePath = (id: number) => `/desk/newsletters/issues/${id}`;

export interface ProgressOf {
  status: NewsletterIssueStatus;
  sendAt: string | null;
  sentAt: string | null;
  counts: IssueCounts | null;
}

const readers = (n: number) => (n === 1 ? "1 reader" : `${n.toLocaleString("en-US")} readers`);

export function issueProgress(issue: ProgressOf, now: Date): string {
  const { counts } = issue;
  switch (issue.status) {
    case "draft":
      return "Not sent yet.";
    case "queued":
      return issue.sendAt && issue.sendAt > now.toISOString()
        ? `Scheduled for ${deskTime(issue.sendAt)}.`
        : "Queued: sending starts within seconds.";
    case "sending": {
      const c = counts!;
      const done = c.sent + c.failed + c.skipped;
      return `Sending: ${done.toLocaleString("en-US")} of ${c.recipients.toLocaleString("en-US")} done, ${c.failed.toLocaleString("en-US")} failed.`;
    }
    case "sent": {
      const c = counts!;
      const skipped = c.skipped > 0 ? `, ${readers(c.skipped)} skipped (no longer following or subscribing)` : "";
      return `Sent ${issue.sentAt ? deskTime(issue.sentAt) : ""} to ${readers(c.sent)}, ${c.failed.toLocaleString("en-US")} failed${skipped}.`;
    }
  }
}

/** Whether the page should look again by itself: while the jobs have work to do on it soon. */
export function progressMoving(issue: ProgressOf, now: Date): boolean {
  return issue.status === "sending" || (issue.status === "queued" && (issue.sendAt ?? "") <= now.toISOString());
}
