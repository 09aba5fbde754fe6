import crypto from "node:crypto";
import type { Database } from "~/server/db/connection";
import { bumpContentGeneration } from "~/server/content/content-generation";
import { reindexArticle } from "~/server/search/documents";
import type { ArticleFields, ArticleStatus } from "~/shared/article-fields";
import { recordAudit, type AuditAction, type AuditActor } from "../audit";
import type { DeskArticle } from "./types";

// What every change of an article leaves, in the change's transaction: a revision (what the
// article is now), an audit row (what changed, before and after) and, when readers can see the
// change, the search index brought up to date and the content generation counted up.

/** What a revision keeps: the fields and the state. */
export type RevisionSnapshot = ArticleFields & { status: ArticleStatus };

const FIELD_KEYS = [
  "title",
  "dek",
  "subDek",
  "summary",
  "body",
  "slug",
  "authors",
  "topics",
  "contentType",
  "tier",
  "series",
  "seriesTitle",
  "seriesPart",
  "streams",
  "published",
] as const satisfies readonly (keyof ArticleFields)[];

export function snapshotOf(article: DeskArticle): RevisionSnapshot {
  const snapshot = Object.fromEntries(FIELD_KEYS.map((key) => [key, article[key]])) as ArticleFields;
  return { ...snapshot, status: article.status };
}

/** The fields and state that differ, as two objects (before, after) holding only those. */
function changedParts(before: RevisionSnapshot, after: RevisionSnapshot) {
  const keys = ([...FIELD_KEYS, "status"] as const).filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]));
  return {
    before: Object.fromEntries(keys.map((key) => [key, before[key]])),
    after: Object.fromEntries(keys.map((key) => [key, after[key]])),
  };
}

async function insertRevision(
  tx: Database,
  article: { id: number; version: number },
  snapshot: RevisionSnapshot,
  by: { id: string | null; name: string },
  at: string,
  autosaved = false,
): Promise<void> {
  await tx
    .insertInto("article_revision")
    .values({
      id: crypto.randomUUID(),
      article_id: article.id,
      version: article.version,
      fields: JSON.stringify(snapshot),
      saved_by: by.id,
      saved_by_name: by.name,
      saved_at: at,
      autosaved: autosaved ? 1 : 0,
    })
    .execute();
}

/** How long an editor's pause may last for their next autosave to fold into the same revision. */
export const AUTOSAVE_SITTING_MS = 30 * 60_000;

/**
 * An autosave folds into the article's latest revision when that revision is the change just
 * before this one and was autosaved by the same editor less than AUTOSAVE_SITTING_MS ago: it
 * becomes this version (ADR 085). Anything else in between (a Save, another editor, a state
 * change, a restore) made a revision of its own, so the fold never crosses it. True if folded.
 */
async function foldIntoLastAutosave(
  tx: Database,
  before: DeskArticle,
  after: DeskArticle,
  snapshot: RevisionSnapshot,
  actor: AuditActor,
  now: Date,
): Promise<boolean> {
  const last = await tx
    .selectFrom("article_revision")
    .select(["id", "version", "saved_by", "saved_at", "autosaved"])
    .where("article_id", "=", after.id)
    .orderBy("version", "desc")
    .limit(1)
    .executeTakeFirst();
  const folds =
    last !== undefined &&
    last.autosaved === 1 &&
    last.version === before.version &&
    actor.id !== null &&
    last.saved_by === actor.id &&
    now.getTime() - Date.parse(last.saved_at) < AUTOSAVE_SITTING_MS;
  if (!folds) return false;
  await tx
    .updateTable("article_revision")
    .set({ version: after.version, fields: JSON.stringify(snapshot), saved_by_name: actor.label, saved_at: now.toISOString() })
    .where("id", "=", last.id)
    .execute();
  return true;
}

export interface Change {
  actor: AuditActor;
  action: AuditAction;
  /** The article before the change; undefined for a new one. */
  before: DeskArticle | undefined;
  after: DeskArticle;
  now: Date;
  /** An autosave (ADR 085): its revision may fold into the editor's previous autosave's. */
  autosave?: boolean;
}

/**
 * Records a change made in `tx`. An article that had no revision yet (seeded from the content
 * files) first gets one of how it was, so its first change has something to be compared with
 * and restored. Returns the new content generation when readers can see the change, else null.
 */
export async function recordChange(tx: Database, change: Change): Promise<number | null> {
  const { actor, action, before, after, now, autosave = false } = change;
  if (before) {
    const any = await tx.selectFrom("article_revision").select("id").where("article_id", "=", before.id).limit(1).executeTakeFirst();
    if (!any)
      await insertRevision(
        tx,
        before,
        snapshotOf(before),
        { id: before.updatedBy?.id ?? null, name: before.updatedBy?.name ?? "content files" },
        before.updatedAt ?? now.toISOString(),
      );
  }
  const snapshot = snapshotOf(after);
  const folded = autosave && before !== undefined && (await foldIntoLastAutosave(tx, before, after, snapshot, actor, now));
  if (!folded) await insertRevision(tx, after, snapshot, { id: actor.id, name: actor.label }, now.toISOString(), autosave);
  const parts = before ? changedParts(snapshotOf(before), snapshot) : { before: null, after: snapshot };
  await recordAudit(
    tx,
    {
      actor,
      action,
      subject: `article:${after.id}`,
      before: parts.before && { version: before!.version, ...parts.before },
      after: { version: after.version, ...parts.after },
    },
    now,
  );
  const visible = before?.status === "published" || after.status === "published";
  if (!visible) return null;
  await reindexArticle(tx, after.id);
  return bumpContentGeneration(tx, now);
}
