import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { CURATED_STREAMS, TIERS } from "~/shared/article-fields";
import { topicKey } from "~/shared/slugs";

// Reads and validates the original seed content under content/ (see content/README.md).

const dateString = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
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
  topics: z.array(z.object(topicFields)).min(1),
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
  })
  .refine((a) => !a.series || (a.seriesTitle && a.seriesPart), "a series needs seriesTitle and seriesPart");

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
      published: dateString,
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
            availableDate: dateString.optional(),
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

function readJson<T>(file: string, schema: z.ZodType<T, z.ZodTypeDef, unknown>): T {
  const parsed = schema.safeParse(JSON.parse(fs.readFileSync(file, "utf8")));
  if (!parsed.success) throw new Error(`${file}: ${parsed.error.issues[0]?.path.join(".")} ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}

/** Each `{slug}.md` of a folder, in name order, parsed; an error names the file. */
function readTextDir<T>(dir: string, parse: (slug: string, text: string) => T): T[] {
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".md"))
    .sort()
    .map((f) => {
      const file = path.join(dir, f);
      try {
        return parse(f.slice(0, -3), fs.readFileSync(file, "utf8"));
      } catch (error) {
        throw new Error(`${file}: ${error instanceof Error ? error.message : String(error)}`);
      }
    });
}

function readMarkdownDir<T>(dir: string, parse: (slug: string, fields: Record<string, string>, body: string) => T): T[] {
  return readTextDir(dir, (slug, text) => {
    const { fields, body } = splitFrontMatter(text);
    return parse(slug, fields, body);
  });
}

function parseWith<S extends z.ZodTypeAny>(schema: S, fields: Record<string, string>): z.infer<S> {
  const parsed = schema.safeParse(fields);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`${issue.path.join(".") || "front matter"}: ${issue.message}`);
  }
  return parsed.data;
}

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
  if (!fs.existsSync(dir)) return [];
  return readTextDir(dir, (slug, text) => ({ slug, sections: splitSections(text) }));
}

export function loadSeedContent(dir: string): SeedContent {
  return {
    topics: readJson(path.join(dir, "topics.json"), taxonomySchema),
    authors: readMarkdownDir(path.join(dir, "authors"), (slug, fields, bio) => ({
      ...parseWith(authorSchema, fields),
      slug,
      bio,
    })),
    articles: readMarkdownDir(path.join(dir, "articles"), (slug, fields, body) => ({
      ...parseWith(articleSchema, fields),
      slug,
      body,
    })),
    media: readJson(path.join(dir, "media.json"), mediaSchema),
    store: readJson(path.join(dir, "store.json"), storeSchema),
    magazine: readJson(path.join(dir, "magazine.json"), magazineSchema),
    readingLists: readJson(path.join(dir, "reading-lists.json"), z.array(readingListSchema)),
    courses: readJson(path.join(dir, "courses.json"), z.array(courseSchema)),
    productTexts: readProductTexts(path.join(dir, "books")),
  };
}
