import { z } from "zod";
import { ISSUE_MAX_ARTICLES } from "./newsletter-issue-vocabulary";

// What the desk's newsletter issue form sends (ADR 084): a subject and a preheader on one line
// each, an introduction in the site's Markdown subset, and the articles, named by their address
// or slug as in the curation forms.

export const ISSUE_MESSAGES = {
  subject: "Enter a subject of up to 200 characters, on one line.",
  preheader: "Enter a preheader of up to 200 characters, on one line, or leave it empty.",
  intro: "Enter an introduction of up to 5,000 characters.",
  articles: `An issue holds up to ${ISSUE_MAX_ARTICLES} articles, each named by its address or slug.`,
} as const;

const m = ISSUE_MESSAGES;
const ONE_LINE = /^[^\r\n]*$/;

export const issueFieldsSchema = z.object({
  subject: z.string({ required_error: m.subject }).trim().min(1, m.subject).max(200, m.subject).regex(ONE_LINE, m.subject),
  preheader: z.string().trim().max(200, m.preheader).regex(ONE_LINE, m.preheader).default(""),
  intro: z.string().trim().max(5000, m.intro).default(""),
});
export type IssueFields = z.output<typeof issueFieldsSchema>;
