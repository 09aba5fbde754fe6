import type { Submission } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { Database } from "~/server/db/connection";
import type { AuditActor } from "~/server/desk/audit";
import {
  autosaveArticle,
  diffRevision,
  getDeskArticle,
  saveArticle,
  type AutosaveResult,
  type DeskArticle,
  type SaveConflict,
} from "~/server/desk/articles";
import type { ArticleFields } from "~/shared/article-fields";
import { notFound } from "./access.server";
import { articleFormSchema } from "./article-form";
import { changedSinceOpened } from "./conflict";

// What the desk's article routes share: the article an address names, the one way its form is
// saved (the Save button and autosave alike), and the answer to a save that someone else's
// save got ahead of.

/** The article form's body: a body of 200,000 characters, URL-encoded, with room to spare. */
export const ARTICLE_FORM_BYTES = 2 * 1024 * 1024;

/** The article an address's id names, in any state; the 404 for anything else. */
export async function articleFromParam(db: Database, param: string | undefined): Promise<DeskArticle> {
  const id = /^[1-9]\d{0,8}$/.test(param ?? "") ? Number(param) : null;
  const article = id === null ? undefined : await getDeskArticle(db, id);
  return article ?? notFound();
}

/** The version a form says it read; null when it says none that could be. */
export function formVersion(form: FormData): number | null {
  const value = form.get("version");
  return typeof value === "string" && /^[1-9]\d{0,8}$/.test(value.trim()) ? Number(value.trim()) : null;
}

export const STALE_FORM = "This form is out of date: reload the page and make your change again.";

/**
 * The article form, posted by its Save button or by autosave (ADR 085), read and saved if the
 * article is still at the version the form names. Without `saved`, the form itself was wrong:
 * `submission` carries its field errors, and `formError` a stale or missing version.
 */
export async function saveArticleForm(
  db: Database,
  actor: AuditActor,
  article: DeskArticle,
  form: FormData,
  how: "save" | "autosave",
  now: Date,
): Promise<
  | { submission: Submission<unknown>; saved: null; formError: string | null }
  | { submission: Submission<unknown>; saved: AutosaveResult; fields: ArticleFields }
> {
  const submission = parseWithZod(form, { schema: articleFormSchema });
  if (submission.status !== "success") return { submission, saved: null, formError: null };
  const version = formVersion(form);
  if (version === null) return { submission, saved: null, formError: STALE_FORM };
  const write = how === "save" ? saveArticle : autosaveArticle;
  return { submission, saved: await write(db, actor, article.id, version, submission.value, now), fields: submission.value };
}

/**
 * A stale save's answer for the page: who changed it and when, the fields where the article as
 * it is now differs from the editor's version (theirs the newer side), and the version a second
 * save is to name.
 */
export function conflictView(conflict: SaveConflict, mine: ArticleFields) {
  const { current } = conflict;
  return {
    message: changedSinceOpened("article", conflict.by, conflict.at),
    version: current.version,
    status: current.status,
    diff: diffRevision({ fields: mine, status: current.status }, { fields: current, status: current.status }).filter((f) => f.changed),
  };
}
