import type { MailMessage } from "~/server/adapters/mail";
import { blocksToHtml, blocksToMailText, parseBody } from "~/server/content/markdown";
import type { Database } from "~/server/db/connection";
import { articlePath } from "~/shared/urls";
import { escapeHtml } from "~/server/text/escape";
import type { Newsletter } from "./catalog";
import { unsubscribeToken } from "./unsubscribe-token";

// What a newsletter issue says and how one reader's copy of it is written (ADR 084): the desk's
// issues and the command line's fixed template both go through composeIssue.

export const ISSUE_ARTICLES = 3;

export interface IssueArticle {
  title: string;
  summary: string;
  url: string;
}

/** An issue's text: its subject, the preheader inboxes show after it, an introduction in the site's Markdown subset, and its articles in order. */
export interface IssueContent {
  subject: string;
  preheader: string;
  intro: string;
  articles: IssueArticle[];
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
  return rows.map((r) => issueArticle(r, siteUrl));
}

/** An article as an issue links to it. */
export const issueArticle = (
  article: { title: string; summary: string; slug: string; year: number; month: number },
  siteUrl: string,
): IssueArticle => ({ title: article.title, summary: article.summary, url: `${siteUrl}${articlePath(article)}` });

/**
 * The command line's fixed template, and a new draft's starting point at the desk: the
 * newsletter's description and the newest articles, the first one's title in the subject.
 */
export function templateIssue(newsletter: Newsletter, articles: IssueArticle[]): IssueContent {
  return {
    subject: `${newsletter.name}: ${articles[0]?.title ?? newsletter.frequency}`,
    preheader: "",
    intro: newsletter.description,
    articles,
  };
}

export function unsubscribeUrl(siteUrl: string, secret: string, userId: string, slug: string): string {
  return `${siteUrl}/newsletters/unsubscribe?token=${encodeURIComponent(unsubscribeToken(secret, userId, slug))}`;
}

export interface IssueRecipient {
  userId: string;
  email: string;
  firstName: string;
}

/**
 * One reader's copy of a newsletter issue, as plain text and HTML, with the one-click
 * unsubscribe headers of RFC 8058 (the link's token only unsubscribes this reader from this
 * newsletter). `messageId`, the same for every attempt at one reader's copy, lets a mail system
 * drop a second copy of it.
 */
export function composeIssue(input: {
  newsletter: Newsletter;
  content: IssueContent;
  recipient: IssueRecipient;
  siteUrl: string;
  secret: string;
  messageId?: string;
}): MailMessage {
  const { newsletter, content, recipient, siteUrl } = input;
  const unsubscribe = unsubscribeUrl(siteUrl, input.secret, recipient.userId, newsletter.slug);
  const intro = parseBody(content.intro);
  const manage = `${siteUrl}/email-newsletters`;
  const text = [
    `${newsletter.name} (${newsletter.frequency})`,
    "",
    `Hello ${recipient.firstName},`,
    "",
    ...(intro.length > 0 ? [blocksToMailText(intro, siteUrl), ""] : []),
    ...content.articles.flatMap((a) => [a.title, a.summary, a.url, ""]),
    `You receive ${newsletter.name} because you subscribed to it on Meridian Review.`,
    `Unsubscribe: ${unsubscribe}`,
    `Manage your newsletters: ${manage}`,
    "",
  ].join("\n");
  const html = [
    `<!DOCTYPE html>`,
    `<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(content.subject)}</title></head>`,
    `<body>`,
    // The preheader: what an inbox shows after the subject, never in the mail itself. `hidden`
    // hides it where styles are not applied (the desk's preview); the style, in mail programs.
    ...(content.preheader
      ? [`<div hidden style="display:none;max-height:0;overflow:hidden;mso-hide:all">${escapeHtml(content.preheader)}</div>`]
      : []),
    `<h1>${escapeHtml(newsletter.name)}</h1>`,
    `<p>Hello ${escapeHtml(recipient.firstName)},</p>`,
    blocksToHtml(intro, { quoteClass: "quote", origin: siteUrl }),
    ...content.articles.map((a) => `<h2><a href="${escapeHtml(a.url)}">${escapeHtml(a.title)}</a></h2><p>${escapeHtml(a.summary)}</p>`),
    `<p>You receive ${escapeHtml(newsletter.name)} because you subscribed to it on Meridian Review.</p>`,
    `<p><a href="${escapeHtml(unsubscribe)}">Unsubscribe</a> · <a href="${escapeHtml(manage)}">Manage your newsletters</a></p>`,
    `</body></html>`,
  ].join("\n");
  return {
    to: recipient.email,
    subject: content.subject,
    text,
    html,
    headers: {
      "List-Unsubscribe": `<${unsubscribe}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    },
    ...(input.messageId ? { messageId: input.messageId } : {}),
  };
}

/** The Message-ID of one reader's copy of an issue: the same on every attempt, unique to the pair. */
export function issueMessageId(issueId: number, userId: string, siteUrl: string): string {
  return `<newsletter-issue-${issueId}.${userId}@${new URL(siteUrl).hostname}>`;
}
