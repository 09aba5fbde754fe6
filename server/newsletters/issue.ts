import type { MailMessage } from "~/server/adapters/mail";
import type { Database } from "~/server/db/connection";
import { articlePath } from "~/shared/urls";
import { escapeHtml } from "~/server/text/escape";
import type { Newsletter } from "./catalog";
import { unsubscribeToken } from "./unsubscribe-token";

export const ISSUE_ARTICLES = 3;

export interface IssueArticle {
  title: string;
  summary: string;
  url: string;
}

/** The newest articles an issue links to: titles, summaries and links only, never body text. */
export async function latestIssueArticles(db: Database, siteUrl: string, count = ISSUE_ARTICLES): Promise<IssueArticle[]> {
  const rows = await db
    .selectFrom("article")
    .select(["title", "summary", "slug", "year", "month"])
    .orderBy("published", "desc")
    .orderBy("id", "desc")
    .limit(count)
    .execute();
  return rows.map((r) => ({ title: r.title, summary: r.summary, url: `${siteUrl}${articlePath(r)}` }));
}

export function unsubscribeUrl(siteUrl: string, secret: string, userId: string, slug: string): string {
  return `${siteUrl}/newsletters/unsubscribe?token=${encodeURIComponent(unsubscribeToken(secret, userId, slug))}`;
}

/**
 * One reader's copy of a newsletter issue, with the one-click unsubscribe headers of RFC 8058
 * (the link's token only unsubscribes this reader from this newsletter).
 */
export function composeIssue(input: {
  newsletter: Newsletter;
  recipient: { userId: string; email: string; firstName: string };
  articles: IssueArticle[];
  siteUrl: string;
  secret: string;
}): MailMessage {
  const { newsletter, recipient, articles, siteUrl } = input;
  const unsubscribe = unsubscribeUrl(siteUrl, input.secret, recipient.userId, newsletter.slug);
  const text = [
    `${newsletter.name} (${newsletter.frequency})`,
    "",
    `Hello ${recipient.firstName},`,
    "",
    newsletter.description,
    "",
    ...articles.flatMap((a) => [a.title, a.summary, a.url, ""]),
    `You receive ${newsletter.name} because you subscribed to it on Meridian Review.`,
    `Unsubscribe: ${unsubscribe}`,
    `Manage your newsletters: ${siteUrl}/email-newsletters`,
    "",
  ].join("\n");
  const html = [
    `<h1>${escapeHtml(newsletter.name)}</h1>`,
    `<p>Hello ${escapeHtml(recipient.firstName)},</p>`,
    `<p>${escapeHtml(newsletter.description)}</p>`,
    ...articles.map((a) => `<h2><a href="${escapeHtml(a.url)}">${escapeHtml(a.title)}</a></h2><p>${escapeHtml(a.summary)}</p>`),
    `<p>You receive ${escapeHtml(newsletter.name)} because you subscribed to it on Meridian Review.</p>`,
    `<p><a href="${escapeHtml(unsubscribe)}">Unsubscribe</a> · <a href="${escapeHtml(`${siteUrl}/email-newsletters`)}">Manage your newsletters</a></p>`,
  ].join("\n");
  return {
    to: recipient.email,
    subject: `${newsletter.name}: ${articles[0]?.title ?? newsletter.frequency}`,
    text,
    html,
    headers: {
      "List-Unsubscribe": `<${unsubscribe}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    },
  };
}
