import crypto from "node:crypto";
import type { Database } from "~/server/db/connection";
import { articlePath } from "~/shared/urls";

export const MAX_PARAGRAPH = 9_999;
export const MAX_NOTE_LENGTH = 2_000;
export const MAX_QUOTE_LENGTH = 500;

export interface Annotation {
  id: string;
  articleId: number;
  paragraph: number;
  /** The words the note is about; empty means the whole paragraph. */
  quote: string;
  note: string;
  createdAt: string;
}

export interface AnnotationWithArticle extends Annotation {
  articleTitle: string;
  articleUrl: string;
}

export interface NewAnnotation {
  userId: string;
  articleId: number;
  paragraph: number;
  quote: string;
  note: string;
}

export type AddAnnotationResult = { ok: true; annotation: Annotation } | { ok: false; error: string };

const columns = ["n.id", "n.article_id", "n.paragraph", "n.quote", "n.note", "n.created_at"] as const;

type Row = { id: string; article_id: number; paragraph: number; quote: string; note: string; created_at: string };

function toAnnotation(row: Row): Annotation {
  return {
    id: row.id,
    articleId: Number(row.article_id),
    paragraph: Number(row.paragraph),
    quote: row.quote,
    note: row.note,
    createdAt: row.created_at,
  };
}

/** The reason the input cannot be stored, or undefined when it can (before the article check). */
function invalidInput(paragraph: number, quote: string, note: string): string | undefined {
  if (!Number.isInteger(paragraph) || paragraph < 0 || paragraph > MAX_PARAGRAPH) {
    return `The paragraph must be a whole number from 0 to ${MAX_PARAGRAPH}.`;
  }
  if (note.length === 0) return "Write a note before saving.";
  if (note.length > MAX_NOTE_LENGTH) return `The note is too long: at most ${MAX_NOTE_LENGTH.toLocaleString("en-US")} characters.`;
  if (quote.length > MAX_QUOTE_LENGTH) return `The quoted passage is too long: at most ${MAX_QUOTE_LENGTH} characters.`;
  return undefined;
}

export async function addAnnotation(db: Database, input: NewAnnotation, now = new Date()): Promise<AddAnnotationResult> {
  const quote = input.quote.trim();
  const note = input.note.trim();
  const error = invalidInput(input.paragraph, quote, note);
  if (error) return { ok: false, error };
  const article = Number.isSafeInteger(input.articleId)
    ? await db.selectFrom("article").select("id").where("id", "=", input.articleId).executeTakeFirst()
    : undefined;
  if (!article) return { ok: false, error: "That article does not exist." };

  // The same note posted again (a double click, a replayed form) is the note already kept.
  const same = await db
    .selectFrom("annotation")
    .select(["id", "created_at"])
    .where("user_id", "=", input.userId)
    .where("article_id", "=", input.articleId)
    .where("paragraph", "=", input.paragraph)
    .where("quote", "=", quote)
    .where("note", "=", note)
    .executeTakeFirst();
  if (same)
    return {
      ok: true,
      annotation: { id: same.id, articleId: input.articleId, paragraph: input.paragraph, quote, note, createdAt: same.created_at },
    };

  const annotation: Annotation = {
    id: crypto.randomUUID(),
    articleId: input.articleId,
    paragraph: input.paragraph,
    quote,
    note,
    createdAt: now.toISOString(),
  };
  await db
    .insertInto("annotation")
    .values({
      id: annotation.id,
      user_id: input.userId,
      article_id: annotation.articleId,
      paragraph: annotation.paragraph,
      quote,
      note,
      created_at: annotation.createdAt,
    })
    .execute();
  return { ok: true, annotation };
}

/** The reader's own notes on one article, in reading order. */
export async function annotationsForArticle(db: Database, userId: string, articleId: number): Promise<Annotation[]> {
  if (!Number.isSafeInteger(articleId)) return [];
  const rows = await db
    .selectFrom("annotation as n")
    .select(columns)
    .where("n.user_id", "=", userId)
    .where("n.article_id", "=", articleId)
    .orderBy("n.paragraph")
    .orderBy("n.created_at")
    .orderBy("n.id")
    .execute();
  return rows.map(toAnnotation);
}

/** One page of all the reader's notes, newest first, with the total for pagination. */
export async function annotationsForUser(
  db: Database,
  userId: string,
  page: { limit: number; offset: number },
): Promise<{ total: number; annotations: AnnotationWithArticle[] }> {
  const limit = Math.max(1, Math.min(Math.floor(page.limit) || 1, 500));
  const offset = Math.max(0, Math.floor(page.offset) || 0);
  const [count, rows] = await Promise.all([
    db
      .selectFrom("annotation as n")
      .innerJoin("article as a", "a.id", "n.article_id")
      .select((eb) => eb.fn.countAll().as("total"))
      .where("n.user_id", "=", userId)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("annotation as n")
      .innerJoin("article as a", "a.id", "n.article_id")
      .select([...columns, "a.title", "a.year", "a.month", "a.slug"])
      .where("n.user_id", "=", userId)
      .orderBy("n.created_at", "desc")
      .orderBy("n.id")
      .limit(limit)
      .offset(offset)
      .execute(),
  ]);
  return {
    total: Number(count.total),
    annotations: rows.map((r) => ({ ...toAnnotation(r), articleTitle: r.title, articleUrl: articlePath(r) })),
  };
}

/** Deletes the reader's own note; another reader's or an unknown id deletes nothing. */
export async function deleteAnnotation(db: Database, userId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom("annotation").where("id", "=", id).where("user_id", "=", userId).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
