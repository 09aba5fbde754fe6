import { z } from "zod";
import { articleFieldsSchema, type ArticleFields } from "~/shared/article-fields";

// The desk's article form (issue 38): plain text controls, as a form without JS sends them,
// mapped to the article's fields and checked by the one schema the Admin API and the content
// files use too, with its messages. Loaded in the browser after hydration (ADR 047).

/** A comma-separated list as the form writes it ("a, b, c"); blanks dropped. */
export const commaList = (text: string) =>
  text
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");

/** A textarea sends CRLF line breaks; the article keeps LF, so revisions diff line by line. */
const lines = (text: string) => text.replace(/\r\n?/g, "\n");

/** conform sends an empty control as undefined, and a lone ticked checkbox as a string. */
const text = z.string().optional();
const ticked = z.union([z.string(), z.array(z.string())]).optional();

/** A series part as typed: a whole number, else a value the shared schema refuses with its message. */
function seriesPart(value: string): number | null {
  const trimmed = value.trim();
  if (trimmed === "") return null;
  return /^\d{1,4}$/.test(trimmed) ? Number(trimmed) : -1;
}

export const articleFormSchema = z
  .object({
    title: text,
    dek: text,
    subDek: text,
    summary: text,
    body: text,
    slug: text,
    authors: text,
    topics: text,
    contentType: text,
    tier: text,
    series: text,
    seriesTitle: text,
    seriesPart: text,
    streams: ticked,
    published: text,
  })
  .transform((form) => {
    const series = form.series?.trim() ?? "";
    const seriesTitle = form.seriesTitle?.trim() ?? "";
    const part = seriesPart(form.seriesPart ?? "");
    return {
      title: form.title ?? "",
      dek: form.dek ?? "",
      subDek: form.subDek ?? "",
      summary: lines(form.summary ?? ""),
      body: lines(form.body ?? ""),
      slug: form.slug ?? "",
      authors: commaList(form.authors ?? ""),
      topics: commaList(form.topics ?? ""),
      contentType: form.contentType ?? "",
      tier: form.tier ?? "",
      // An empty series is no series; one part of it given makes the shared schema ask for the rest.
      series: series === "" ? null : series,
      seriesTitle: seriesTitle === "" ? null : seriesTitle,
      seriesPart: part,
      streams: form.streams === undefined ? [] : typeof form.streams === "string" ? [form.streams] : form.streams,
      published: form.published ?? "",
    };
  })
  .pipe(articleFieldsSchema);

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

/** The schedule form's time: a datetime-local value read as UTC. */
export const scheduleSchema = z.object({
  publishAt: z
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
    }),
});
