import { z } from "zod";
import { articleFieldsSchema, type ArticleFields } from "~/shared/article-fields";
import { commaList } from "./comma-list";

// The desk's article form (issue 38): plain text controls, as a form without JS sends them,
// mapped to the article's fields and checked by the one schema the Admin API and the content
// files use too, with its messages. Loaded in the browser after hydration (ADR 047).

/** A textarea sends CRLF line breaks; the article keeps LF, so revisions diff line by line. */
const lines = (text: string) => text.replace(/\r\n?/g, "\n");

/**
 * conform sends an empty control as undefined, a lone ticked checkbox as a string and a name
 * sent twice as a list; a text control's first value counts.
 */
const control = z.union([z.string(), z.array(z.string())]).optional();

/** A series part as typed: a whole number, else a value the shared schema refuses with its message. */
function seriesPart(value: string): number | null {
  const trimmed = value.trim();
  if (trimmed === "") return null;
  return /^\d{1,4}$/.test(trimmed) ? Number(trimmed) : -1;
}

/** The form's text as the article's fields, before the shared schema checks them. */
function candidate(form: Record<string, string | string[] | undefined>) {
  const one = (name: string) => {
    const value = form[name];
    return (Array.isArray(value) ? value[0] : value) ?? "";
  };
  const series = one("series").trim();
  const seriesTitle = one("seriesTitle").trim();
  const streams = form.streams;
  return {
    title: one("title"),
    dek: one("dek"),
    subDek: one("subDek"),
    summary: lines(one("summary")),
    body: lines(one("body")),
    slug: one("slug"),
    authors: commaList(one("authors")),
    topics: commaList(one("topics")),
    contentType: one("contentType"),
    tier: one("tier"),
    // An empty series is no series; one part of it given makes the shared schema ask for the rest.
    series: series === "" ? null : series,
    seriesTitle: seriesTitle === "" ? null : seriesTitle,
    seriesPart: seriesPart(one("seriesPart")),
    streams: streams === undefined ? [] : typeof streams === "string" ? [streams] : streams,
    published: one("published"),
  };
}

/**
 * The form's schema. A list's item that is wrong (an author slug, a stream) is the list's
 * error: the form has one control per list, so each message goes to the field, once.
 */
export const articleFormSchema = z
  .object({
    title: control,
    dek: control,
    subDek: control,
    summary: control,
    body: control,
    slug: control,
    authors: control,
    topics: control,
    contentType: control,
    tier: control,
    series: control,
    seriesTitle: control,
    seriesPart: control,
    streams: control,
    published: control,
  })
  .transform((form, ctx): ArticleFields => {
    const parsed = articleFieldsSchema.safeParse(candidate(form));
    if (parsed.success) return parsed.data;
    const seen = new Set<string>();
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? "");
      if (seen.has(`${field}:${issue.message}`)) continue;
      seen.add(`${field}:${issue.message}`);
      ctx.addIssue({ code: "custom", message: issue.message, path: field ? [field] : [] });
    }
    return z.NEVER;
  });

/** The article's fields as the form's controls hold them. */
export function articleFormValues(fields: ArticleFields): Record<string, string | string[]> {
  return {
    title: fields.title,
    dek: fields.dek,
    subDek: fields.subDek,
    summary: fields.summary,
    body: fields.body,
    slug: fields.slug,
    authors: fields.authors.join(", "),
    topics: fields.topics.join(", "),
    contentType: fields.contentType,
    tier: fields.tier,
    series: fields.series ?? "",
    seriesTitle: fields.seriesTitle ?? "",
    seriesPart: fields.seriesPart === null ? "" : String(fields.seriesPart),
    streams: [...fields.streams],
    published: fields.published,
  };
}

export const SCHEDULE_MESSAGE = "Enter a date and time in the future, in UTC, such as 2026-06-01 09:00.";

/** A datetime-local value read as UTC (the desk's schedules: an article's, a newsletter issue's). */
export const utcTime = z
  .string({ required_error: SCHEDULE_MESSAGE })
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/, SCHEDULE_MESSAGE)
  .transform((value, ctx) => {
    const at = new Date(`${value.length === 16 ? `${value}:00` : value}Z`);
    if (Number.isNaN(at.getTime()) || !at.toISOString().startsWith(value.slice(0, 16))) {
      ctx.addIssue({ code: "custom", message: SCHEDULE_MESSAGE });
      return z.NEVER;
    }
    return at;
  });

/** The schedule form's time. */
export const scheduleSchema = z.object({ publishAt: utcTime });
