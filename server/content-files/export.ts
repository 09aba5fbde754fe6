import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Database } from "~/server/db/connection";
import { isPostgres } from "~/server/db/dialect";
import { getDeskArticle } from "~/server/desk/articles";
import { articleText, authorText, multiLineFields, topicsText, type ExportedSubject } from "./format";

// `npm run content -- export DIR` (ADR 080): the database's articles (every state), authors and
// topics written out in the seed format. Each file is written whole or not at all (a temporary
// file renamed over it); a file whose text is the same is left untouched, and nothing else in
// the folder is removed or changed.

export interface ExportSummary {
  written: number;
  unchanged: number;
  articles: number;
  authors: number;
  topics: number;
  /** Values that could not be written as they are (a line break in a one-line field), per file. */
  warnings: string[];
}

export class ExportRefused extends Error {}

/** Every file of the export, by its path under the folder, read from one snapshot of the database. */
async function exportedFiles(db: Database): Promise<{ files: Map<string, string>; warnings: string[]; counts: Record<string, number> }> {
  let transaction = db.transaction();
  if (isPostgres(db)) transaction = transaction.setIsolationLevel("repeatable read");
  return transaction.execute(async (tx) => {
    const files = new Map<string, string>();
    const warnings: string[] = [];
    const warn = (file: string, values: Record<string, string>) => {
      const fields = multiLineFields(values);
      if (fields.length > 0) warnings.push(`${file}: line breaks in ${fields.join(", ")} written as spaces`);
    };

    const topics = await tx
      .selectFrom("topic")
      .select(["id", "name", "description", "subscriber_only", "executive_only", "subject_id"])
      .orderBy("id")
      .execute();
    const subjects: ExportedSubject[] = topics
      .filter((t) => t.subject_id === null)
      .map((s) => ({
        name: s.name,
        description: s.description,
        subscriberOnly: Boolean(s.subscriber_only),
        executiveOnly: Boolean(s.executive_only),
        topics: topics.filter((t) => t.subject_id === s.id).map((t) => ({ name: t.name, description: t.description })),
      }));
    files.set("topics.json", topicsText(subjects));

    const authors = await tx.selectFrom("author").select(["slug", "name", "role", "bio"]).orderBy("slug").execute();
    for (const author of authors) {
      const file = `authors/${author.slug}.md`;
      warn(file, { name: author.name, role: author.role });
      files.set(file, authorText(author));
    }

    const ids = await tx.selectFrom("article_record").select("id").orderBy("slug").execute();
    for (const { id } of ids) {
      const article = (await getDeskArticle(tx, id))!;
      const file = `articles/${article.slug}.md`;
      const { title, dek, subDek, summary, contentType } = article;
      warn(file, { title, dek, subDek, summary, contentType, seriesTitle: article.seriesTitle ?? "" });
      files.set(file, articleText(article));
    }
    return { files, warnings, counts: { articles: ids.length, authors: authors.length, topics: topics.length } };
  });
}

/** Writes `text` to `file` by renaming a temporary file of the same folder over it. */
function writeAtomically(file: string, text: string): void {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${crypto.randomUUID()}.tmp`);
  try {
    fs.writeFileSync(temporary, text, { flag: "wx" });
    fs.renameSync(temporary, file);
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    throw error;
  }
}

function ensureFolder(dir: string): void {
  if (fs.existsSync(dir) && !fs.statSync(dir).isDirectory())
    throw new ExportRefused(`${dir} is a file, not a folder: export writes a folder.`);
  fs.mkdirSync(dir, { recursive: true });
}

export async function exportContent(db: Database, dir: string): Promise<ExportSummary> {
  ensureFolder(dir);
  const { files, warnings, counts } = await exportedFiles(db);
  ensureFolder(path.join(dir, "articles"));
  ensureFolder(path.join(dir, "authors"));
  let written = 0;
  let unchanged = 0;
  for (const [name, text] of files) {
    const file = path.join(dir, name);
    if (fs.existsSync(file) && !fs.statSync(file).isFile()) throw new ExportRefused(`${file} is a folder: export writes a file there.`);
    if (fs.existsSync(file) && fs.readFileSync(file, "utf8") === text) {
      unchanged += 1;
      continue;
    }
    writeAtomically(file, text);
    written += 1;
  }
  return { written, unchanged, articles: counts.articles!, authors: counts.authors!, topics: counts.topics!, warnings };
}
