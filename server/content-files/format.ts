import { CURATED_STREAMS, type ArticleFields, type ArticleStatus } from "~/shared/article-fields";

// Writes content in the seed format (content/README.md), as the seed files are written: the same
// keys in the same order, lists joined with ", ", the body after the front matter, and topics.json
// one subject to a line with its topics below it. Parsing is server/seed/content-source.ts's.

export interface ExportedArticle extends ArticleFields {
  status: ArticleStatus;
  publishAt: string | null;
}

export interface ExportedAuthor {
  slug: string;
  name: string;
  role: string;
  bio: string;
}

export interface ExportedSubject {
  name: string;
  description: string;
  subscriberOnly: boolean;
  executiveOnly: boolean;
  topics: { name: string; description: string }[];
}

/** A front-matter value is one line: a line break in it is written as a space. */
export const oneLine = (value: string) => value.replace(/\s*[\r\n]+\s*/g, " ").trim();

/** Fields whose value had to lose its line breaks to be written, for the exporter to say so. */
export function multiLineFields(values: Record<string, string>): string[] {
  return Object.entries(values)
    .filter(([, value]) => /[\r\n]/.test(value.trim()))
    .map(([key]) => key);
}

function document(lines: [string, string][], body: string): string {
  const front = lines.map(([key, value]) => (value === "" ? `${key}:` : `${key}: ${oneLine(value)}`));
  return `---\n${front.join("\n")}\n---\n${body.trim()}\n`;
}

/** The streams in the list's order (the desk reads them alphabetically). */
export const orderedStreams = (streams: readonly string[]) => CURATED_STREAMS.filter((s) => streams.includes(s));

/** articles/{slug}.md. `status` and `publishAt` are written only when not published, as seed files have neither. */
export function articleText(a: ExportedArticle): string {
  const lines: [string, string][] = [
    ["title", a.title],
    ["dek", a.dek],
    ["subDek", a.subDek],
    ["summary", a.summary],
    ["authors", a.authors.join(", ")],
    ["topics", a.topics.join(", ")],
    ["contentType", a.contentType],
    ["published", a.published],
    ["tier", a.tier],
  ];
  if (a.series !== null && a.seriesTitle !== null && a.seriesPart !== null)
    lines.push(["series", a.series], ["seriesTitle", a.seriesTitle], ["seriesPart", String(a.seriesPart)]);
  const streams = orderedStreams(a.streams);
  if (streams.length > 0) lines.push(["streams", streams.join(", ")]);
  if (a.status !== "published") lines.push(["status", a.status]);
  if (a.status === "scheduled" && a.publishAt !== null) lines.push(["publishAt", a.publishAt]);
  return document(lines, a.body);
}

/** authors/{slug}.md. */
export function authorText(a: ExportedAuthor): string {
  return document(
    [
      ["name", a.name],
      ["role", a.role],
    ],
    a.bio,
  );
}

/** topics.json. */
export function topicsText(subjects: ExportedSubject[]): string {
  const json = JSON.stringify;
  const subject = (s: ExportedSubject) => {
    const flags = `${s.subscriberOnly ? ` "subscriberOnly": true,` : ""}${s.executiveOnly ? ` "executiveOnly": true,` : ""}`;
    const head = `  {"name": ${json(s.name)}, "description": ${json(s.description)},${flags} "topics": [`;
    if (s.topics.length === 0) return `${head}]}`;
    const topics = s.topics.map((t) => `    {"name": ${json(t.name)}, "description": ${json(t.description)}}`);
    return `${head}\n${topics.join(",\n")}\n  ]}`;
  };
  return `[\n${subjects.map(subject).join(",\n")}\n]\n`;
}
