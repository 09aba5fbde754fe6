import type { Mailer } from "~/server/adapters/mail";
import type { Database } from "~/server/db/connection";
import { subscriberStatus } from "~/server/subscriptions/entitlements";
import { newsletterBySlug } from "./catalog";
import { composeIssue, latestIssueArticles } from "./issue";

export interface SendResult {
  sent: number;
  failed: number;
}

/**
 * Sends the newsletter's latest issue to every reader following it (a subscriber-only
 * newsletter only to those who subscribe now). Returns undefined for an unknown newsletter.
 */
export async function sendLatestIssue(
  db: Database,
  mailer: Mailer,
  slug: string,
  options: { siteUrl: string; secret: string; log?: (line: string) => void },
): Promise<SendResult | undefined> {
  const newsletter = await newsletterBySlug(db, slug);
  if (!newsletter) return undefined;
  const articles = await latestIssueArticles(db, options.siteUrl);
  const recipients = await db
    .selectFrom("follow")
    .innerJoin("app_user", "app_user.id", "follow.user_id")
    .select(["app_user.id", "app_user.email", "app_user.first_name"])
    .where("follow.kind", "=", "newsletter")
    .where("follow.target", "=", slug)
    .orderBy("follow.created_at")
    .execute();
  const result: SendResult = { sent: 0, failed: 0 };
  for (const r of recipients) {
    if (newsletter.subscriberOnly && !(await subscriberStatus(db, r.id))) continue;
    const message = composeIssue({
      newsletter,
      recipient: { userId: r.id, email: r.email, firstName: r.first_name },
      articles,
      siteUrl: options.siteUrl,
      secret: options.secret,
    });
    try {
      await mailer.send(message);
      result.sent += 1;
    } catch (error) {
      // One bad address must not stop the rest of the list.
      result.failed += 1;
      options.log?.(`newsletter ${slug}: sending to reader ${r.id} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return result;
}
