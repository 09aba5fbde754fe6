import { z } from "zod";
import { endpoint } from "~/app/lib/api/contract";
import { ARTICLE_STATUSES } from "~/shared/article-fields";

// The Admin API (issue 38, ADR 074): the desk's JSON API for tools, at /desk/api/, called with a
// staff API key (`Authorization: Bearer …`) whose roles the desk's table allows the action.

export const TAG = "Admin API";
export const ADMIN_PAGE_SIZE = 20;

const STATUS_INVALID = `status is one of ${ARTICLE_STATUSES.join(", ")}.`;
const PAGE_INVALID = "page is a whole number from 1.";
const Q_TOO_LONG = "q is at most 200 characters.";

export const adminArticleSchema = z.object({
  id: z.number().int(),
  slug: z.string(),
  status: z.enum(ARTICLE_STATUSES),
  version: z.number().int().describe("Counts the article's saves; a change names the version it read."),
  title: z.string(),
  dek: z.string(),
  summary: z.string(),
  authors: z.array(z.string()).describe("Author slugs, in the byline's order."),
  topics: z.array(z.string()).describe("Topic names, the primary first."),
  contentType: z.string(),
  tier: z.enum(["article", "top50", "cases", "visual-library"]),
  publishedAt: z.string().describe("The publication day, YYYY-MM-DD."),
  url: z.string().url().nullable().describe("The article's address on the site while it is published; null otherwise."),
});

export const listArticles = endpoint({
  method: "get",
  operationId: "adminListArticles",
  path: "/desk/api/articles",
  summary:
    `Articles, newest first, ${ADMIN_PAGE_SIZE} a page: \`status\` filters by state, \`q\` finds words in the title, dek or summary (any case). ` +
    "An unknown parameter is refused (400). Needs a key with the Admin or Editor role.",
  tag: TAG,
  access: "desk-key",
  deskAction: "api.articles.read",
  query: z
    .object({
      status: z.enum(ARTICLE_STATUSES, { errorMap: () => ({ message: STATUS_INVALID }) }).optional(),
      q: z.string().trim().max(200, Q_TOO_LONG).optional(),
      page: z.coerce
        .number({ invalid_type_error: PAGE_INVALID })
        .int(PAGE_INVALID)
        .min(1, PAGE_INVALID)
        .max(100_000, "page is at most 100000.")
        .optional(),
    })
    .strict("The parameters are status, q and page."),
  answers: {
    200: {
      description: "One page of articles, and how many match in all.",
      schema: z.object({
        page: z.number().int(),
        pageSize: z.number().int(),
        total: z.number().int(),
        items: z.array(adminArticleSchema),
      }),
    },
  },
});

export const endpoints = [listArticles];
