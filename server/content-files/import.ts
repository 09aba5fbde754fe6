import fs from "node:fs";
import path from "node:path";
import type { Database } from "~/server/db/connection";
import type { AuditActor } from "~/server/desk/audit";
import {
  createArticle,
  getDeskArticle,
  holdArticle,
  publishArticle,
  saveArticle,
  unpublishArticle,
  type DeskArticle,
} from "~/server/desk/articles";
import { inTransaction } from "~/server/desk/articles/write";
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
// alone, and its state brought to the file's `status`. Running it again changes nothing. Each
// article file is applied whole or not at all, and only over the version the import read: one
// saved at the desk since is reported as a conflict, never overwritten.

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

interface ArticleEntry {
  file: string;
  seed: SeedArticle;
  fields: ArticleFields;
  /** The article with the file's slug as the import read it; none for a new one. */
  read?: DeskArticle;
}

interface Folder {
  topics?: SeedTopic[];
  authors?: SeedAuthor[];
  articles?: ArticleEntry[];
}

/** A folder read and checked, with the articles as they were then: what `applyImport` applies. */
export interface ImportPlan {
  folder: Folder;
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
      const row = await db.selectFrom("article_record").select("id").where("slug", "=", canonical.slug).executeTakeFirst();
      folder.articles.push({ file, seed, fields: canonical, read: row && (await getDeskArticle(db, row.id)) });
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

const visible = (article: Pick<DeskArticle, "status">) => article.status === "published" || article.status === "scheduled";

type Move = "hide" | "publish" | "schedule";
type Moves = ImportSummary["moves"];

/** What a move made of an article in a state, as the summary counts it. */
const MOVED: Record<Move, (from: DeskArticle["status"]) => keyof Moves> = {
  hide: (from) => (from === "published" ? "unpublished" : "unscheduled"),
  publish: () => "published",
  schedule: () => "scheduled",
};

/**
 * The state changes that bring an article in this state to the file's: those made before its
 * fields are saved (a change that hides it) and those after (one that shows it), so that readers
 * never see the new text under the old state.
 */
function movesTo(article: Pick<DeskArticle, "status" | "publishAt">, target: Target): { before: Move[]; after: Move[] } {
  if (target.status === "hidden") return { before: visible(article) ? ["hide"] : [], after: [] };
  if (target.status === "published") return { before: [], after: article.status === "published" ? [] : ["publish"] };
  if (article.status === "scheduled" && new Date(article.publishAt!).getTime() === target.at.getTime()) return { before: [], after: [] };
  return { before: [], after: article.status === "published" ? ["hide", "schedule"] : ["schedule"] };
}

class ApplyFailed extends Error {}

/** Why a file was not applied: its article was changed at the desk since the import read it. */
function conflict(current: DeskArticle | undefined): ApplyFailed {
  if (!current) return new ApplyFailed("the article was deleted meanwhile");
  const by = current.updatedBy?.name ?? "someone else";
  return new ApplyFailed(
    `conflict: ${by} changed the article at ${current.updatedAt ?? "an unknown time"} since the import read it, so nothing of this ` +
      "file was written; import again to apply it over that change.",
  );
}

interface Applied {
  outcome: "created" | "updated" | "unchanged";
  moves: Moves;
}

/**
 * Applies one article file in one transaction: its moves and its save all happen, or none (a
 * refusal rolls back what came before it). An article the file changes is first held at the
 * version the import read (`holdArticle`), so a desk save since is a conflict, and one after
 * waits for the file to be applied.
 */
async function applyArticle(db: Database, actor: AuditActor, entry: ArticleEntry, now: Date): Promise<Applied> {
  const target = targetOf(entry.seed, now);
  const { read } = entry;
  // Compared with the article as it is now, at the version read (an earlier file may have retitled its series).
  const current = read && (await getDeskArticle(db, read.id));
  if (read && current?.version !== read.version) throw conflict(current);
  const plan = movesTo(current ?? { status: "draft", publishAt: null }, target);
  const same = current !== undefined && comparable(current) === comparable(entry.fields);
  const moves: Moves = { published: 0, scheduled: 0, unscheduled: 0, unpublished: 0 };
  if (same && plan.before.length + plan.after.length === 0) return { outcome: "unchanged", moves };
  const scheduledAt = target.status === "scheduled" ? target.at : undefined;
  return inTransaction(db, async (tx) => {
    const move = async (article: DeskArticle, step: Move): Promise<DeskArticle> => {
      const result =
        step === "hide"
          ? await unpublishArticle(tx, actor, article.id, now)
          : await publishArticle(tx, actor, article.id, { at: step === "schedule" ? scheduledAt : undefined }, now);
      if (!result.ok) throw new ApplyFailed(result.reason === "missing" ? "the article was deleted meanwhile" : result.message);
      moves[MOVED[step](article.status)] += 1;
      return result.article;
    };
    let article: DeskArticle;
    if (read) {
      if (!(await holdArticle(tx, read.id, read.version))) throw conflict(await getDeskArticle(tx, read.id));
      article = (await getDeskArticle(tx, read.id))!;
      for (const step of plan.before) article = await move(article, step);
      if (!same) {
        const saved = await saveArticle(tx, actor, article.id, article.version, entry.fields, now);
        if (!saved.ok)
          throw saved.reason === "conflict"
            ? conflict(saved.conflict.current)
            : new ApplyFailed(
                saved.reason === "invalid" ? Object.values(saved.fieldErrors).flat().join(" ") : "the article was deleted meanwhile",
              );
        article = saved.article;
      }
    } else {
      const created = await createArticle(tx, actor, entry.fields, now);
      if (!created.ok) throw new ApplyFailed(Object.values(created.fieldErrors).flat().join(" "));
      article = created.article;
    }
    for (const step of plan.after) article = await move(article, step);
    return { result: { outcome: read ? "updated" : "created", moves }, generation: null };
  });
}

/** Counts an author's or topic's outcome, or reports it against its file when it could not be applied. */
function tally(summary: ImportSummary, into: Counts, outcome: PutOutcome, file: string): void {
  if (typeof outcome === "string") into[outcome] += 1;
  else summary.failures.push({ file, message: outcome.failed });
}

/** Reads and checks a folder against the database: every problem, or what to apply. */
export async function readImport(
  db: Database,
  dir: string,
): Promise<{ ok: false; problems: FileProblem[] } | { ok: true; plan: ImportPlan }> {
  const { folder, problems } = await readFolder(db, dir);
  return problems.length > 0 ? { ok: false, problems } : { ok: true, plan: { folder } };
}

/**
 * Applies what a folder holds: each topic, author and article in a transaction of its own, and a
 * file that then fails (a conflict, a rule broken meanwhile) is reported while the rest go on.
 */
export async function applyImport(db: Database, actor: AuditActor, { folder }: ImportPlan, now: Date): Promise<ImportSummary> {
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
        const { outcome, moves } = await applyArticle(db, actor, entry, now);
        summary.articles[outcome] += 1;
        for (const kind of Object.keys(moves) as (keyof Moves)[]) summary.moves[kind] += moves[kind];
      } catch (error) {
        if (!(error instanceof ApplyFailed)) throw error;
        summary.failures.push({ file: entry.file, message: error.message });
      }
    }
  }
  return summary;
}

/**
 * Imports a folder in the seed format. Any file that does not pass the checks stops the import
 * before it writes anything, with every problem found; otherwise the folder is applied.
 */
export async function importContent(db: Database, actor: AuditActor, dir: string, now: Date): Promise<ImportResult> {
  const read = await readImport(db, dir);
  return read.ok ? { ok: true, summary: await applyImport(db, actor, read.plan, now) } : read;
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
