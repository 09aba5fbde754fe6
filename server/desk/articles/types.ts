import type { ArticleFields, ArticleStatus } from "~/shared/article-fields";

// The editorial domain's answers (ADR 076). Dates are ISO strings; `published` (and
// `publishedAt`) is the day the article carries, YYYY-MM-DD, which decides its address.

/** Who last changed an article or saved a revision: a staff member, an API key, the scheduler. */
export interface DeskEditor {
  /** The staff member's user id (or the API key's id); null for the scheduler and the command line. */
  id: string | null;
  /** Their name when a staff member still has one, else how the audit log named them (an address, "scheduler"). */
  name: string;
  /** A staff member's address; null for anyone else. */
  email: string | null;
}

/** An article as the desk edits it: its fields and its state. */
export interface DeskArticle extends ArticleFields {
  id: number;
  /** Counts the saves, from 1; a save names the version it read. */
  version: number;
  status: ArticleStatus;
  /** When a scheduled article is to be published; null in any other state. */
  publishAt: string | null;
  /** The day the article carries (its `published` field). */
  publishedAt: string;
  /** The site path the article has, or will have once published: /YYYY/MM/slug. */
  path: string;
  /** The site path readers reach it at: `path` while published, else null. */
  url: string | null;
  /** The last change at the desk; null for an article as seeded and never changed since. */
  updatedAt: string | null;
  updatedBy: DeskEditor | null;
}

/** One line of the desk's list of articles. */
export interface DeskArticleSummary {
  id: number;
  slug: string;
  status: ArticleStatus;
  version: number;
  title: string;
  dek: string;
  summary: string;
  /** Author slugs, in the byline's order. */
  authors: string[];
  /** Topic names, the primary first. */
  topics: string[];
  contentType: string;
  tier: ArticleFields["tier"];
  publishedAt: string;
  publishAt: string | null;
  path: string;
  url: string | null;
  updatedAt: string | null;
}

export interface DeskArticleQuery {
  status?: ArticleStatus;
  /** Words in the title, dek or summary, any case. */
  q?: string;
  /** A topic's name or slug, any case: articles filed under it (not only as primary). */
  topic?: string;
  /** An author's slug. */
  author?: string;
  /** A content type, any case ("Article", "Interview"). */
  contentType?: string;
  /** From 1. */
  page: number;
  pageSize: number;
}

/** Messages per field, as a form shows them beside the field (the keys of ArticleFields). */
export type FieldErrors = Partial<Record<keyof ArticleFields, string[]>>;

/** Someone else saved since the version this save was based on: nothing was written. */
export interface SaveConflict {
  /** The article as it is now, to show beside the editor's own version. */
  current: DeskArticle;
  /** Who made the change the editor has not seen: a name (or an address). */
  by: string;
  /** When (ISO). */
  at: string;
}

export type Refusal =
  | { ok: false; reason: "missing" }
  /** The article is not in a state the action applies to; `message` says why, for the editor. */
  | { ok: false; reason: "state"; status: ArticleStatus; message: string };

export type CreateResult = { ok: true; article: DeskArticle } | { ok: false; reason: "invalid"; fieldErrors: FieldErrors };

export type SaveResult =
  | { ok: true; article: DeskArticle }
  | { ok: false; reason: "invalid"; fieldErrors: FieldErrors }
  | { ok: false; reason: "conflict"; conflict: SaveConflict }
  | { ok: false; reason: "missing" };

export type RestoreResult = SaveResult | { ok: false; reason: "no-revision" };

/** An autosave's answer (ADR 085): a save's, or the state's refusal of a published or scheduled article. */
export type AutosaveResult = SaveResult | Extract<Refusal, { reason: "state" }>;

export type PublishResult = { ok: true; article: DeskArticle } | Refusal;

/** A revision as listed: which save it was, and by whom. */
export interface RevisionSummary {
  id: string;
  version: number;
  status: ArticleStatus;
  savedAt: string;
  savedBy: { id: string | null; name: string };
  /** Made by autosaves (ADR 085): the editor's last autosave of a sitting. */
  autosaved: boolean;
}

/** A revision with what the article was then. */
export interface Revision extends RevisionSummary {
  articleId: number;
  fields: ArticleFields;
}

/** One line of a line diff: in both, only in the newer, or only in the older. */
export interface DiffLine {
  kind: "same" | "added" | "removed";
  text: string;
}

/** The diff of one field between two revisions (`status` included). */
export interface FieldDiff {
  field: keyof ArticleFields | "status";
  changed: boolean;
  lines: DiffLine[];
}

/** What one run of the scheduler published: the ids, each published by this run alone. */
export interface DuePublished {
  published: number[];
}
