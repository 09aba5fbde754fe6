import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { ARTICLE_STATUSES, CURATED_STREAMS, TIERS } from "~/shared/article-fields";
import { topicKey } from "~/shared/slugs";

// Reads and validates content in the seed format (content/README.md): the original seed content
// under content/, and a folder `npm run content -- import` takes (server/content-files/).

const dateString = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
/**
 * A date that must still be ahead whenever a site is seeded (a coming-soon product's, a print
 * subscription's end): a day, or `{ "daysAfterSeeding": n }`, the UTC day n days after the seed runs.
 */
export const seedDay = z.union([dateString, z.object({ daysAfterSeeding: z.number().int().min(1) }).strict()]);
export type SeedDay = z.infer<typeof seedDay>;

/** The day a seed day names, days after seeding counted from `now`'s UTC day. */
export function seedDate(day: SeedDay, now: Date): string {
  if (typeof day === "string") return day;
  const at = new Date(now);
  at.setUTCDate(at.getUTCDate() + day.daysAfterSeeding);
  return at.toISOString().slice(0, 10);
}
const slugString = z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/);
const list = z.string().transform((v) =>
  v
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean),
);

/** Letters, digits, spaces, hyphens and "&": a name whose slug (spec: "&" as "and", spaces as hyphens) is a plain URL segment. */
const topicName = z.string().regex(/^[A-Za-z0-9]+([ &-]+[A-Za-z0-9]+)*$/, "a topic name is letters, digits, spaces, hyphens and &");
const topicFields = { name: topicName, description: z.string().min(1) };

/** A subject (a broad topic such as Strategy) with its topics, which follow its subscriber and executive rules. */
const subjectSchema = z.object({
  ...topicFields,
  subscriberOnly: z.boolean().default(false),
  executiveOnly: z.boolean().default(false),
  // A subject may have no topics yet when it was added at the desk; the seed's all have some.
  topics: z.array(z.object(topicFields)),
});

/** The taxonomy flattened: every subject first, in file order, then every topic, each naming its subject. */
const taxonomySchema = z.array(subjectSchema).transform((subjects, ctx): SeedTopic[] => {
  const flags = (s: (typeof subjects)[number]) => ({ subscriberOnly: s.subscriberOnly, executiveOnly: s.executiveOnly });
  const topics = [
    ...subjects.map((s) => ({ name: s.name, description: s.description, ...flags(s), subject: null })),
    ...subjects.flatMap((s) => s.topics.map((t) => ({ ...t, ...flags(s), subject: s.name }))),
  ];
  const seen = new Set<string>();
  for (const t of topics) {
    if (seen.has(topicKey(t.name))) ctx.addIssue({ code: "custom", message: `two topics share the page of "${t.name}"` });
    seen.add(topicKey(t.name));
  }
  return topics;
});

const authorSchema = z.object({ name: z.string().min(1), role: z.string().min(1) });

const articleSchema = z
  .object({
    title: z.string().min(1),
    dek: z.string().min(1),
    subDek: z.string().default(""),
    summary: z.string().min(1),
    authors: list.pipe(z.array(slugString).min(1)),
    topics: list.pipe(z.array(z.string()).min(1)),
    contentType: z.string().min(1),
    published: dateString,
    tier: z.enum(TIERS),
    series: slugString.optional(),
    seriesTitle: z.string().optional(),
    seriesPart: z.coerce.number().int().positive().optional(),
    streams: list.pipe(z.array(z.enum(CURATED_STREAMS))).default(""),
    /** The article's state; a file without one is published. */
    status: z.enum(ARTICLE_STATUSES).default("published"),
    /** When a scheduled article is to be published: an ISO time with its offset. */
    publishAt: z.string().datetime({ offset: true }).optional(),
  })
  .refine((a) => !a.series || (a.seriesTitle && a.seriesPart), "a series needs seriesTitle and seriesPart")
  .refine((a) => (a.status === "scheduled") === (a.publishAt !== undefined), {
    message: "publishAt goes with status: scheduled, and only with it",
    path: ["publishAt"],
  });

const mediaSchema = z.object({
  videos: z.array(
    z.object({
      slug: slugString,
      title: z.string(),
      description: z.string(),
      durationSeconds: z.number().int().positive(),
      published: dateString,
      topic: z.string(),
      tags: z.array(z.string()),
      subscriberOnly: z.boolean(),
    }),
  ),
  playlists: z.array(z.object({ slug: z.string().regex(/^[A-Za-z0-9-]+$/), name: z.string(), videos: z.array(slugString).min(1) })),
  podcasts: z.array(
    z.object({
      slug: slugString,
      title: z.string(),
      description: z.string(),
      feedType: z.enum(["serial", "episodic"]),
      hosts: z.array(z.string()),
      episodes: z.array(
        z.object({
          title: z.string(),
          description: z.string(),
          pubDate: dateString,
          season: z.number().int().positive(),
          episode: z.number().int().positive(),
          episodeType: z.enum(["full", "bonus", "trailer"]),
          durationSeconds: z.number().int().positive(),
        }),
      ),
    }),
  ),
  newsletters: z.array(
    z.object({
      slug: slugString,
      name: z.string(),
      frequency: z.string(),
      description: z.string(),
      subscriberOnly: z.boolean(),
    }),
  ),
  marketingCampaigns: z.array(z.object({ id: slugString, name: z.string(), description: z.string() })),
});

const storeSchema = z.object({
  products: z.array(
    z.object({
      slug: slugString,
      title: z.string(),
      productType: z.string(),
      topic: z.string(),
      authors: z.array(z.string()),
      summary: z.string(),
      description: z.string(),
      published: seedDay,
      pages: z.number().int().positive(),
      /** Seed articles a magazine issue or reprint holds, in order: its download is their text. */
      articles: z.array(slugString).optional(),
      /** Other products its page offers with it under "Better together", in order. */
      betterTogether: z.array(slugString).optional(),
      availabilities: z
        .array(
          z.object({
            format: z.string(),
            code: z.string().regex(/^[A-Z]{3}$/),
            language: z.string(),
            listPrice: z.number().positive(),
            lineType: z.enum(["SHIP", "EBOOK", "BUNDLE", "DIGITAL"]),
            status: z.enum(["A", "F"]),
            availableDate: seedDay.optional(),
            permissionsAvailable: z.boolean(),
            volumePricing: z.boolean(),
          }),
        )
        .min(1),
    }),
  ),
  promoCodes: z
    .array(
      z
        .object({
          code: z.string().regex(/^[A-Z0-9-]{3,32}$/),
          description: z.string().min(1),
          percentOff: z.number().int().min(1).max(100).optional(),
          amountOff: z.number().positive().optional(),
          productType: z.string().optional(),
          starts: dateString,
          expires: dateString.optional(),
        })
        .refine((p) => (p.percentOff === undefined) !== (p.amountOff === undefined), "a promo code takes either percentOff or amountOff"),
    )
    .default([]),
  vouchers: z
    .array(z.object({ code: z.string().regex(/^[A-Z0-9-]{6,40}$/), product: slugString, formatCode: z.string().regex(/^[A-Z]{3}$/) }))
    .default([]),
});

const eraSchema = z.enum(["1956-1979", "1980-1999", "2000-2025"]);
const magazineSchema = z.object({
  // `since`: the first year the cover story could have run (no "Generative AI" in 2002).
  themes: z.array(z.object({ title: z.string(), summary: z.string(), era: eraSchema, since: z.number().int().min(1956).max(2025) })),
  // `since`, as for themes: the first year the title could have run (no "Selling on the World Wide Web" in 1980).
  features: z.array(z.object({ title: z.string(), era: eraSchema, since: z.number().int().min(1956).max(2025) })),
});

const readingListSchema = z
  .object({
    slug: slugString,
    name: z.string().min(1),
    description: z.string().min(1),
    series: slugString.optional(),
    /** The list holds the newest six articles tagged with any of these topics. */
    topics: z.array(z.string()).optional(),
    /** Articles of other lists that belong in this one too, after its own. */
    alsoIncludes: z.array(slugString).optional(),
  })
  .refine((l) => Boolean(l.series) !== Boolean(l.topics), "a reading list takes either series or topics");

const courseSchema = z.object({
  slug: slugString,
  title: z.string().min(1),
  description: z.string().min(1),
  /** The reading list the course follows, by its slug. */
  readingList: slugString,
});

export type Era = z.infer<typeof eraSchema>;
export type SeedArticle = z.infer<typeof articleSchema> & { slug: string; body: string };
export type SeedAuthor = z.infer<typeof authorSchema> & { slug: string; bio: string };
export interface SeedTopic {
  name: string;
  description: string;
  subscriberOnly: boolean;
  executiveOnly: boolean;
  /** The subject's name; null for a subject. */
  subject: string | null;
}
export type SeedMedia = z.infer<typeof mediaSchema>;
export type SeedStore = z.infer<typeof storeSchema>;
export type SeedMagazine = z.infer<typeof magazineSchema>;
export type SeedReadingList = z.infer<typeof readingListSchema>;
export type SeedCourse = z.infer<typeof courseSchema>;

/** A book's or case study's text, from content/books/{slug}.md: its sections in order. */
export interface SeedProductText {
  slug: string;
  sections: { title: string; body: string }[];
}

export interface SeedContent {
  topics: SeedTopic[];
  authors: SeedAuthor[];
  articles: SeedArticle[];
  media: SeedMedia;
  store: SeedStore;
  magazine: SeedMagazine;
  readingLists: SeedReadingList[];
  courses: SeedCourse[];
  productTexts: SeedProductText[];
}

/** Splits a "---" front-matter block (one `key: value` per line) from the body. */
export function splitFrontMatter(text: string): { fields: Record<string, string>; body: string } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
  if (!match) throw new Error("missing front matter");
  const fields: Record<string, string> = {};
  for (const line of match[1]!.split(/\r?\n/)) {
    if (!line.trim()) continue;
    const at = line.indexOf(":");
    if (at < 0) throw new Error(`front matter line without a key: ${line}`);
    const value = line.slice(at + 1).trim();
    if (value !== "") fields[line.slice(0, at).trim()] = value;
  }
  return { fields, body: match[2]!.trim() };
}

/** Something wrong with one file: its path (as given to the reader, under its folder) and what. */
export interface FileProblem {
  file: string;
  message: string;
}

/** What a reader found: the items it could read, and a problem for each it could not. */
export interface Checked<T> {
  items: T;
  problems: FileProblem[];
}

const issueText = (issue: z.ZodIssue) => `${issue.path.join(".") || "front matter"}: ${issue.message}`;
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** A JSON file checked by `schema`; `file` is relative to `root`. Every issue is a problem. */
export function readJsonFile<T>(root: string, file: string, schema: z.ZodType<T, z.ZodTypeDef, unknown>): Checked<T | undefined> {
  let json: unknown;
  try {
    json = JSON.parse(fs.readFileSync(path.join(root, file), "utf8"));
  } catch (error) {
    return { items: undefined, problems: [{ file, message: messageOf(error) }] };
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return { items: parsed.data, problems: [] };
  return {
    items: undefined,
    problems: parsed.error.issues.map((issue) => ({ file, message: `${issue.path.join(".")} ${issue.message}` })),
  };
}

/**
 * Each `{slug}.md` of the folder `sub` under `root`, in name order, parsed; a file that cannot be
 * read is left out and gives a problem for each thing wrong with it.
 */
function readTextFiles<T>(root: string, sub: string, parse: (slug: string, text: string) => T | z.ZodIssue[]): Checked<T[]> {
  const items: T[] = [];
  const problems: FileProblem[] = [];
  const names = fs
    .readdirSync(path.join(root, sub))
    .filter((f) => f.endsWith(".md"))
    .sort();
  for (const name of names) {
    const file = path.join(sub, name);
    try {
      const read = parse(name.slice(0, -3), fs.readFileSync(path.join(root, file), "utf8"));
      if (Array.isArray(read)) problems.push(...read.map((issue) => ({ file, message: issueText(issue) })));
      else items.push(read);
    } catch (error) {
      problems.push({ file, message: messageOf(error) });
    }
  }
  return { items, problems };
}

/** `{slug}.md` files with front matter checked by `schema`, the body after it. */
function readMarkdownFiles<S extends z.ZodTypeAny, T>(
  root: string,
  sub: string,
  schema: S,
  make: (fields: z.infer<S>, slug: string, body: string) => T,
): Checked<T[]> {
  return readTextFiles(root, sub, (slug, text) => {
    const { fields, body } = splitFrontMatter(text);
    const parsed = schema.safeParse(fields);
    const issues = parsed.success ? [] : [...parsed.error.issues];
    if (!slugString.safeParse(slug).success)
      issues.unshift({
        code: "custom",
        path: [],
        message: `the file name "${slug}" is not a slug (lowercase letters, digits and hyphens)`,
      });
    return issues.length > 0 ? issues : make(parsed.data, slug, body);
  });
}

export const readTopicsFile = (root: string): Checked<SeedTopic[] | undefined> => readJsonFile(root, "topics.json", taxonomySchema);

export const readAuthorFiles = (root: string): Checked<SeedAuthor[]> =>
  readMarkdownFiles(root, "authors", authorSchema, (fields, slug, bio) => ({ ...fields, slug, bio }));

export const readArticleFiles = (root: string): Checked<SeedArticle[]> =>
  readMarkdownFiles(root, "articles", articleSchema, (fields, slug, body) => ({ ...fields, slug, body }));

/** The seed's reading: the first problem stops it, naming the file. */
function orThrow<T>(root: string, checked: Checked<T | undefined>): T {
  const problem = checked.problems[0];
  if (problem) throw new Error(`${path.join(root, problem.file)}: ${problem.message}`);
  return checked.items!;
}

const readJson = <T>(root: string, file: string, schema: z.ZodType<T, z.ZodTypeDef, unknown>): T =>
  orThrow(root, readJsonFile(root, file, schema));

/** Sections open with a "# Title" line; each body is in the article bodies' Markdown subset. */
export function splitSections(text: string): { title: string; body: string }[] {
  const parts = text.replace(/\r\n/g, "\n").split(/^# (.+)$/m);
  if (parts[0]!.trim() !== "") throw new Error('text before the first "# " section heading');
  const sections: { title: string; body: string }[] = [];
  for (let i = 1; i < parts.length; i += 2) {
    const title = parts[i]!.trim();
    const body = parts[i + 1]!.trim();
    if (!body) throw new Error(`section "${title}" is empty`);
    sections.push({ title, body });
  }
  if (sections.length === 0) throw new Error("no sections");
  return sections;
}

function readProductTexts(dir: string): SeedProductText[] {
  if (!fs.existsSync(path.join(dir, "books"))) return [];
  return orThrow(
    dir,
    readTextFiles(dir, "books", (slug, text) => ({ slug, sections: splitSections(text) })),
  );
}

export function loadSeedContent(dir: string): SeedContent {
  return {
    topics: orThrow(dir, readTopicsFile(dir)),
    authors: orThrow(dir, readAuthorFiles(dir)),
    articles: orThrow(dir, readArticleFiles(dir)),
    media: readJson(dir, "media.json", mediaSchema),
    store: readJson(dir, "store.json", storeSchema),
    magazine: readJson(dir, "magazine.json", magazineSchema),
    readingLists: readJson(dir, "reading-lists.json", z.array(readingListSchema)),
    courses: readJson(dir, "courses.json", z.array(courseSchema)),
    productTexts: readProductTexts(dir),
  };
}
