import { z } from "zod";
import { CURATED_STREAMS, TIERS } from "./article-vocabulary";

// An article as the desk, the Admin API and the content files write it: the seed format's keys
// (content/README.md). The desk's form, the API and `npm run content -- import` all check an
// article with this one schema; the domain (server/desk/articles) stores what it accepts.

export { ARTICLE_STATUSES, ARTICLE_STATUS_NAMES, CURATED_STREAMS, TIERS, type ArticleStatus } from "./article-vocabulary";

const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const slug = (message: string) => z.string().trim().max(120, message).regex(SLUG, message);
const text = (max: number, missing: string, tooLong: string) => z.string().trim().min(1, missing).max(max, tooLong);

export const ARTICLE_FIELD_MESSAGES = {
  title: "Enter a title of up to 300 characters.",
  dek: "Enter a dek of up to 600 characters.",
  subDek: "Enter a sub-dek of up to 600 characters.",
  summary: "Enter a summary of up to 2,000 characters.",
  body: "Enter the article's text, up to 200,000 characters.",
  slug: "Enter a slug of lowercase letters, digits and single hyphens, up to 120 characters.",
  authors: "Name at least one author, by slug.",
  topics: "Name at least one topic; the first is the primary topic.",
  contentType: "Enter a content type of up to 60 characters, such as Article.",
  tier: "Choose a tier.",
  streams: "Choose streams from the list.",
  series: "A series needs its slug, its title and the article's part in it.",
  published: "Enter the publication date as YYYY-MM-DD.",
} as const;

const m = ARTICLE_FIELD_MESSAGES;

/** The longest body, in characters. */
export const BODY_MAX = 200_000;

/** A calendar date that exists (2025-02-30 does not). */
export const calendarDate = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, m.published)
  .refine((value) => {
    const date = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value) && date.getUTCFullYear() >= 1900;
  }, m.published);

export const articleFieldsSchema = z
  .object({
    title: text(300, m.title, m.title),
    dek: text(600, m.dek, m.dek),
    subDek: z.string().trim().max(600, m.subDek).default(""),
    summary: text(2000, m.summary, m.summary),
    body: text(BODY_MAX, m.body, m.body),
    slug: slug(m.slug),
    /** Author slugs, in the byline's order. */
    authors: z.array(slug(m.authors)).min(1, m.authors).max(20, m.authors),
    /** Topic names, the primary first. */
    topics: z.array(z.string().trim().min(1, m.topics).max(80, m.topics)).min(1, m.topics).max(20, m.topics),
    contentType: text(60, m.contentType, m.contentType),
    tier: z.enum(TIERS, { errorMap: () => ({ message: m.tier }) }),
    series: slug(m.series).nullable().default(null),
    seriesTitle: z.string().trim().max(300, m.series).nullable().default(null),
    seriesPart: z.number().int().positive(m.series).max(999, m.series).nullable().default(null),
    streams: z
      .array(z.enum(CURATED_STREAMS, { errorMap: () => ({ message: m.streams }) }))
      .max(CURATED_STREAMS.length, m.streams)
      .default([]),
    /** The date the article carries (its URL's year and month come from it). */
    published: calendarDate,
  })
  .superRefine((a, ctx) => {
    const parts = [a.series, a.seriesTitle, a.seriesPart];
    if (parts.some((p) => p !== null) && parts.some((p) => p === null || p === "")) {
      ctx.addIssue({ code: "custom", path: ["series"], message: m.series });
    }
    const topics = new Set(a.topics.map((t) => t.toLowerCase()));
    if (topics.size !== a.topics.length) ctx.addIssue({ code: "custom", path: ["topics"], message: "Name each topic once." });
    if (new Set(a.authors).size !== a.authors.length)
      ctx.addIssue({ code: "custom", path: ["authors"], message: "Name each author once." });
  });

export type ArticleFields = z.infer<typeof articleFieldsSchema>;
