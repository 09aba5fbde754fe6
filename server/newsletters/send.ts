import type { Mailer, MailMessage } from "~/server/adapters/mail";
import type { Database } from "~/server/db/connection";
import { COMMAND_LINE, recordAudit, type AuditActor } from "~/server/desk/audit";
import { deliverIssue, startIssue, type DeliveryOptions } from "./delivery";
import { composeIssue, type IssueRecipient } from "./issue";
import { auditSubject, createIssue, deliveryCounts, issueContent, queueIssue, sampleRecipient, type DeskIssue } from "./issues";

// Sending outside the scheduled jobs: the command line's fixed template, and a desk member's test
// of a draft to themselves; and the desk's preview of the mail.

export interface SendResult {
  sent: number;
  failed: number;
}

/**
 * The command line's `newsletter:send`: an issue of the fixed template (the newsletter's
 * description and newest articles), made and sent as the desk's issues are, by this process
 * (the scheduled jobs may help). Answers the issue's counts, or undefined for an unknown newsletter.
 */
export async function sendLatestIssue(
  db: Database,
  mailer: Mailer,
  slug: string,
  options: Omit<DeliveryOptions, "now">,
): Promise<SendResult | undefined> {
  const now = new Date();
  const draft = await createIssue(db, COMMAND_LINE, slug, now);
  if (!draft) return undefined;
  const queued = await queueIssue(db, COMMAND_LINE, draft.id, draft.version, null, now);
  if (!queued.ok) throw new Error(`the template's issue could not be queued: ${queued.reason}`);
  await startIssue(db, draft.id, now);
  await deliverIssue(db, mailer, draft.id, options);
  const { sent, failed } = await deliveryCounts(db, draft.id);
  return { sent, failed };
}

/** The subject a test copy carries, so that no one takes it for the issue itself. */
export const testSubject = (subject: string) => `[Test] ${subject}`;

/**
 * Mails an issue, as its followers will get it, to one staff member alone (`to`), marked as a
 * test, and audits it. Throws what the mailer throws.
 */
export async function sendTestIssue(
  db: Database,
  mailer: Mailer,
  actor: AuditActor,
  issue: DeskIssue,
  to: IssueRecipient,
  options: { siteUrl: string; secret: string },
  now: Date,
): Promise<void> {
  const content = await issueContent(db, issue, options.siteUrl);
  await mailer.send(
    composeIssue({
      newsletter: issue.newsletter,
      content: { ...content, subject: testSubject(content.subject) },
      recipient: to,
      ...options,
    }),
  );
  await recordAudit(
    db,
    {
      actor,
      action: "newsletter-issue.test",
      subject: auditSubject(issue),
      after: { version: issue.version, to: to.email },
    },
    now,
  );
}

/**
 * The mail as the newsletter's longest follower (`sample`) will get it, or as the staff member
 * viewing it would when no one follows it. Its unsubscribe link is the viewer's own, so that
 * following it from a preview never unsubscribes a reader.
 */
export async function previewIssue(
  db: Database,
  issue: DeskIssue,
  viewer: IssueRecipient,
  options: { siteUrl: string; secret: string },
): Promise<{ mail: MailMessage; sample: IssueRecipient | undefined }> {
  const [sample, content] = await Promise.all([sampleRecipient(db, issue.newsletter.slug), issueContent(db, issue, options.siteUrl)]);
  const recipient = { ...(sample ?? viewer), userId: viewer.userId };
  return { mail: composeIssue({ newsletter: issue.newsletter, content, recipient, ...options }), sample };
}
