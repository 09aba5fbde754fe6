import fs from "node:fs";
import path from "node:path";
import type { Database } from "~/server/db/connection";
import type { AuditActor } from "~/server/desk/audit";
import { createArticle, getDeskArticle, publishArticle, saveArticle, unpublishArticle, type DeskArticle } from "~/server/desk/articles";
import { checkFields } from "~/server/desk/articles/fields";
import {
  readArticleFiles,
  readAuthorFiles,
  readTopicsFile,
  type FileProblem,
  type SeedArticle,
  type SeedAuthor,
  type SeedTopic,
} from "~/server/seed/content-source";
import type { ArticleFields } from "~/shared/article-fields";
import { topicSlug } from "~/shared/slugs";
import { putAuthor, putTopic, type PutOutcome } from "./catalogue";
import { orderedStreams } from "./format";

// `npm run content -- import DIR` (ADR 080): a folder in the seed format read with the seed's own
// reader, checked whole before anything is written, then applied by slug through the editorial
// domain: a new article is created, a changed one saved as one new revision, an equal one left
// alone, and its state brought to the file's `status`. Running it again changes nothing.

export class ImportRefused extends Error {}

interface Counts {
  created: number;
  updated: number;
  unchanged: number;
}

export interface ImportSummary {
  /** Absent when the folder had no such part. */
  articles?: Counts;
  authors?: Counts;
  topics?: Counts;
  /** State changes made, by what happened. */
  moves: { published: number; scheduled: number; unscheduled: number; unpublished: number };
  /** Files that passed the checks but could not be applied (someone saved meanwhile, say). */
  failures: FileProblem[];
}

export type ImportResult = { ok: false; problems: FileProblem[] } | { ok: true; summary: ImportSummary };

interface Folder {
  topics?: SeedTopic[];
  authors?: SeedAuthor[];
  articles?: { file: string; seed: SeedArticle; fields: ArticleFields }[];
}

const counts = (): Counts => ({ created: 0, updated: 0, unchanged: 0 });
const articleFile = (slug: string) => `articles/${slug}.md`;

/** An article from its file as the editorial domain takes it. */
function fieldsOf(a: SeedArticle): unknown {
  return {
    title: a.title,
    dek: a.dek,
    subDek: a.subDek,
    summary: a.summary,
    body: a.body,
    slug: a.slug,
    authors: a.authors,
    topics: a.topics,
    contentType: a.contentType,
    tier: a.tier,
    series: a.series ?? null,
    seriesTitle: a.series ? (a.seriesTitle ?? null) : null,
    seriesPart: a.series ? (a.seriesPart ?? null) : null,
    streams: a.streams,
    published: a.published,
  };
}

/** Reads what the folder holds and everything wrong with it, against what the database holds. */
async function readFolder(db: Database, dir: string): Promise<{ folder: Folder; problems: FileProblem[] }> {
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new ImportRefused(`${dir} is not a folder.`);
  const has = (name: string) => fs.existsSync(path.join(dir, name));
  if (!has("topics.json") && !has("authors") && !has("articles"))
    throw new ImportRefused(`${dir} holds no topics.json, authors/ or articles/: there is nothing to import.`);

  const problems: FileProblem[] = [];
  const folder: Folder = {};
  if (has("topics.json")) {
    const read = readTopicsFile(dir);
    problems.push(...read.problems);
    folder.topics = read.items ?? [];
  }
  if (has("authors")) {
    const read = readAuthorFiles(dir);
    problems.push(...read.problems);
    folder.authors = read.items;
  }

  // The topics there will be: the database's, as the folder's topics.json changes them.
  const dbTopics = await db.selectFrom("topic").select(["slug", "name", "subject_id"]).execute();
  const topics = new Map(dbTopics.map((t) => [t.slug, { name: t.name, isSubject: t.subject_id === null }]));
  for (const t of folder.topics ?? []) {
    const slug = topicSlug(t.name);
    const known = topics.get(slug);
    if (known && known.isSubject !== (t.subject === null))
      problems.push({
        file: "topics.json",
        message: `"${t.name}" is ${known.isSubject ? "a subject" : "a topic within a subject"} in the database: import does not move a topic between the two levels.`,
      });
    topics.set(slug, { name: t.name, isSubject: t.subject === null });
  }
  const topicByName = new Map([...topics.values()].map((t) => [t.name.toLowerCase(), t]));
  const authorSlugs = new Set([
    ...(await db.selectFrom("author").select("slug").execute()).map((a) => a.slug),
    ...(folder.authors ?? []).map((a) => a.slug),
  ]);

  if (has("articles")) {
    const read = readArticleFiles(dir);
    problems.push(...read.problems);
    folder.articles = [];
    const seriesTitles = new Map<string, { title: string; file: string }>();
    for (const seed of read.items) {
      const file = articleFile(seed.slug);
      const checked = checkFields(fieldsOf(seed));
      if (!checked.ok) {
        for (const [field, messages] of Object.entries(checked.fieldErrors))
          for (const message of messages ?? []) problems.push({ file, message: `${field}: ${message}` });
        continue;
      }
      const { fields } = checked;
      for (const slug of fields.authors)
        if (!authorSlugs.has(slug))
          problems.push({ file, message: `authors: no author has the slug "${slug}" (in the database or authors/).` });
      fields.topics.forEach((name, index) => {
        const topic = topicByName.get(name.toLowerCase());
        if (!topic) problems.push({ file, message: `topics: no topic is named "${name}" (in the database or topics.json).` });
        else if (index === 0 && !topic.isSubject)
          problems.push({
            file,
            message: `topics: the first topic is the primary one and must be a subject; "${topic.name}" is a topic within one.`,
          });
      });
      if (fields.series && fields.seriesTitle) {
        const seen = seriesTitles.get(fields.series);
        if (seen && seen.title !== fields.seriesTitle)
          problems.push({
            file,
            message: `seriesTitle: "${fields.seriesTitle}" differs from "${seen.title}" in ${seen.file} for the series ${fields.series}.`,
          });
        else seriesTitles.set(fields.series, { title: fields.seriesTitle, file });
      }
      // Topics as the database names them, so that "strategy" and "Strategy" are no change.
      const canonical = { ...fields, topics: fields.topics.map((name) => topicByName.get(name.toLowerCase())?.name ?? name) };
      folder.articles.push({ file, seed, fields: canonical });
    }
  }
  return { folder, problems };
}

/** The fields as compared: the streams as the domain stores them (a visual-library piece is in its stream). */
function comparable(fields: ArticleFields): string {
  const streams = new Set<string>(fields.streams);
  if (fields.tier === "visual-library") streams.add("visual-library");
  const { title, dek, subDek, summary, body, slug, authors, topics, contentType, tier, series, seriesTitle, seriesPart, published } =
    fields;
  return JSON.stringify([
    title,
    dek,
    subDek,
    summary,
    body,
    slug,
    authors,
    topics,
    contentType,
    tier,
    series,
    seriesTitle,
    seriesPart,
    published,
    orderedStreams([...streams]),
  ]);
}

type Target = { status: "published" } | { status: "scheduled"; at: Date } | { status: "hidden" };

/** The state the file asks for; a time that has come means published, as the scheduler would have made it. */
function targetOf(seed: SeedArticle, now: Date): Target {
  if (seed.status === "scheduled") {
    const at = new Date(seed.publishAt!);
    return at.getTime() > now.getTime() ? { status: "scheduled", at } : { status: "published" };
  }
  return seed.status === "published" ? { status: "published" } : { status: "hidden" };
}

const visible = (article: DeskArticle) => article.status === "published" || article.status === "scheduled";

class ApplyFailed extends Error {}

/**
 * Applies one article file. A change that hides the article is made before its fields are
 * saved, one that shows it after, so readers never see the new text under the old state.
 */
async function applyArticle(
  db: Database,
  actor: AuditActor,
  entry: NonNullable<Folder["articles"]>[number],
  now: Date,
  summary: ImportSummary,
): Promise<"created" | "updated" | "unchanged"> {
  const target = targetOf(entry.seed, now);
  const moved = (result: Awaited<ReturnType<typeof publishArticle>>, kind: keyof ImportSummary["moves"]): DeskArticle => {
    if (!result.ok) throw new ApplyFailed(result.reason === "missing" ? "the article was deleted meanwhile" : result.message);
    summary.moves[kind] += 1;
    return result.article;
  };
  const hide = async (article: DeskArticle) =>
    moved(await unpublishArticle(db, actor, article.id, now), article.status === "published" ? "unpublished" : "unscheduled");
  const show = async (article: DeskArticle): Promise<DeskArticle> => {
    if (target.status === "published")
      return article.status === "published" ? article : moved(await publishArticle(db, actor, article.id, {}, now), "published");
    if (target.status !== "scheduled" || (article.status === "scheduled" && new Date(article.publishAt!).getTime() === target.at.getTime()))
      return article;
    if (article.status === "published") article = await hide(article);
    return moved(await publishArticle(db, actor, article.id, { at: target.at }, now), "scheduled");
  };

  const row = await db.selectFrom("article_record").select("id").where("slug", "=", entry.fields.slug).executeTakeFirst();
  if (!row) {
    const created = await createArticle(db, actor, entry.fields, now);
    if (!created.ok) throw new ApplyFailed(Object.values(created.fieldErrors).flat().join(" "));
    if (target.status !== "hidden") await show(created.article);
    return "created";
  }

  let article = (await getDeskArticle(db, row.id))!;
  const startedAs = { status: article.status, publishAt: article.publishAt };
  const same = comparable(article) === comparable(entry.fields);
  if (target.status === "hidden" && visible(article)) article = await hide(article);
  if (!same) {
    const saved = await saveArticle(db, actor, article.id, article.version, entry.fields, now);
    if (!saved.ok)
      throw new ApplyFailed(
        saved.reason === "conflict"
          ? `${saved.conflict.by} saved the article meanwhile; run the import again.`
          : saved.reason === "invalid"
            ? Object.values(saved.fieldErrors).flat().join(" ")
            : "the article was deleted meanwhile",
      );
    article = saved.article;
  }
  if (target.status !== "hidden") article = await show(article);
  const stateChanged = article.status !== startedAs.status || article.publishAt !== startedAs.publishAt;
  return same && !stateChanged ? "unchanged" : "updated";
}

/** Counts an author's or topic's outcome, or reports it against its file when it could not be applied. */
function tally(summary: ImportSummary, into: Counts, outcome: PutOutcome, file: string): void {
  if (typeof outcome === "string") into[outcome] += 1;
  else summary.failures.push({ file, message: outcome.failed });
}

/**
 * Imports a folder in the seed format. Any file that does not pass the checks stops the import
 * before it writes anything, with every problem found; otherwise each topic, author and article
 * is applied in its own transaction, and a file that then fails is reported and the rest go on.
 */
export async function importContent(db: Database, actor: AuditActor, dir: string, now: Date): Promise<ImportResult> {
  const { folder, problems } = await readFolder(db, dir);
  if (problems.length > 0) return { ok: false, problems };

  const summary: ImportSummary = { moves: { published: 0, scheduled: 0, unscheduled: 0, unpublished: 0 }, failures: [] };
  if (folder.topics) {
    summary.topics = counts();
    // Subjects come first in the list, so a new topic's subject is there before it.
    for (const topic of folder.topics) tally(summary, summary.topics, await putTopic(db, actor, topic, now), "topics.json");
  }
  if (folder.authors) {
    summary.authors = counts();
    for (const author of folder.authors)
      tally(summary, summary.authors, await putAuthor(db, actor, author, now), `authors/${author.slug}.md`);
  }
  if (folder.articles) {
    summary.articles = counts();
    for (const entry of folder.articles) {
      try {
        summary.articles[await applyArticle(db, actor, entry, now, summary)] += 1;
      } catch (error) {
        if (!(error instanceof ApplyFailed)) throw error;
        summary.failures.push({ file: entry.file, message: error.message });
      }
    }
  }
  return { ok: true, summary };
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "12 articles created, 3 updated, 52 unchanged (2 published); 1 author created, 0 updated, 14 unchanged; …" */
export function describeSummary(summary: ImportSummary): string {
  const part = (c: Counts, one: string) => `${plural(c.created, one)} created, ${c.updated} updated, ${c.unchanged} unchanged`;
  const parts: string[] = [];
  if (summary.articles) {
    const moves = Object.entries(summary.moves)
      .filter(([, n]) => n > 0)
      .map(([kind, n]) => `${n} ${kind}`);
    parts.push(part(summary.articles, "article") + (moves.length > 0 ? ` (${moves.join(", ")})` : ""));
  }
  if (summary.authors) parts.push(part(summary.authors, "author"));
  if (summary.topics) parts.push(part(summary.topics, "topic"));
  return `${parts.join("; ")}.`;
}
