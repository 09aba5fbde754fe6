import type { Database } from "~/server/db/connection";
import { noteContentChanged } from "~/server/content/content-generation";
import type { ArticleFields } from "~/shared/article-fields";
import { AUTOSAVE_OFF, AUTOSAVED_STATES } from "~/shared/article-vocabulary";
import type { AuditActor } from "../audit";
import {
  checkFields,
  holdArticleIds,
  isUniqueViolation,
  nextArticleId,
  recordValues,
  resolveFields,
  seriesId,
  slugInUse,
  slugTaken,
  writeLinks,
} from "./fields";
import { recordChange } from "./history";
import { getDeskArticle } from "./read";
import type { AutosaveResult, CreateResult, DeskArticle, SaveResult } from "./types";

/** Ends a transaction without writing anything, with the answer to give. */
export class Outcome<T> extends Error {
  constructor(readonly result: T) {
    super("outcome");
  }
}

/** Generations counted up by changes made inside a caller's transaction, for it to note once it commits. */
const pendingGenerations = new WeakMap<Database, number>();

/**
 * Runs `work` in a transaction; an Outcome thrown in it rolls the transaction back and is the
 * answer. A generation returned with the answer (a change readers see) is noted in this process
 * once the transaction has committed.
 *
 * Given a transaction already (the content import applies a file's changes as one, ADR 080),
 * `work` runs in it: the caller's commit makes the change, and notes its generation. An Outcome
 * is then the answer without a rollback: every change made through this throws one before it writes.
 */
export async function inTransaction<T>(
  db: Database,
  work: (tx: Database) => Promise<{ result: T; generation: number | null }>,
): Promise<T> {
  try {
    if (db.isTransaction) {
      const { result, generation } = await work(db);
      if (generation !== null) pendingGenerations.set(db, Math.max(pendingGenerations.get(db) ?? 0, generation));
      return result;
    }
    const { result, generation } = await db.transaction().execute(async (tx) => {
      const done = await work(tx);
      const inner = pendingGenerations.get(tx);
      return inner === undefined ? done : { result: done.result, generation: Math.max(done.generation ?? 0, inner) };
    });
    if (generation !== null) noteContentChanged(db, generation);
    return result;
  } catch (error) {
    if (error instanceof Outcome) return error.result as T;
    throw error;
  }
}

/**
 * Holds an article for the rest of the caller's transaction if it is still at `version`: every
 * other save or state change of it waits until that transaction ends, then finds its version
 * gone. False, holding nothing, when the article has moved on (or is no more).
 */
export async function holdArticle(tx: Database, id: number, version: number): Promise<boolean> {
  // The saves' own lock first, as they take it, so that a save and this never wait on each other.
  await holdArticleIds(tx);
  const held = await tx
    .updateTable("article_record")
    .set((eb) => ({ version: eb.ref("version") }))
    .where("id", "=", id)
    .where("version", "=", version)
    .executeTakeFirst();
  return Number(held.numUpdatedRows) === 1;
}

const editor = (actor: AuditActor, now: Date) => ({ updated_at: now.toISOString(), updated_by: actor.id, updated_by_name: actor.label });

/** A new article, as a draft at version 1. Unknown authors or topics, or a slug in use, are field errors. */
export async function createArticle(db: Database, actor: AuditActor, fields: ArticleFields, now: Date): Promise<CreateResult> {
  const checked = checkFields(fields);
  if (!checked.ok) return { ok: false, reason: "invalid", fieldErrors: checked.fieldErrors };
  const found = await resolveFields(db, checked.fields);
  if (!found.ok) return { ok: false, reason: "invalid", fieldErrors: found.fieldErrors };
  const { resolved } = found;
  const slugError: CreateResult = { ok: false, reason: "invalid", fieldErrors: { slug: [slugTaken(resolved.fields.slug)] } };
  try {
    return await inTransaction(db, async (tx) => {
      await holdArticleIds(tx);
      if (await slugInUse(tx, resolved.fields.slug, null)) throw new Outcome(slugError);
      const id = await nextArticleId(tx);
      const series = await seriesId(tx, resolved.fields);
      await tx
        .insertInto("article_record")
        .values({
          id,
          ...recordValues(resolved.fields, resolved.topicIds[0]!, series),
          status: "draft",
          version: 1,
          publish_at: null,
          ...editor(actor, now),
        })
        .execute();
      await writeLinks(tx, id, resolved);
      const article = (await getDeskArticle(tx, id))!;
      const generation = await recordChange(tx, { actor, action: "article.create", before: undefined, after: article, now });
      return { result: { ok: true, article }, generation };
    });
  } catch (error) {
    if (isUniqueViolation(error)) return slugError;
    throw error;
  }
}

/** The answer when the version moved on: the article as it is now, and who changed it when. */
export function conflictWith(current: DeskArticle): SaveResult {
  return {
    ok: false,
    reason: "conflict",
    conflict: { current, by: current.updatedBy?.name ?? "someone else", at: current.updatedAt ?? "" },
  };
}

/**
 * Saves an article's fields, if it is still at `expectedVersion` (the version the editor read):
 * a stale save writes nothing and answers with the article as it is now. A published article
 * changes live; if its address (/YYYY/MM/slug) changes, the old one answers 301 from then on.
 */
export function saveArticle(
  db: Database,
  actor: AuditActor,
  id: number,
  expectedVersion: number,
  fields: ArticleFields,
  now: Date,
): Promise<SaveResult> {
  return writeFields(db, actor, id, expectedVersion, fields, now, "article.save");
}

/**
 * Autosaves an article's fields (ADR 085) as saveArticle saves them, on the same version check,
 * while the article is a draft or unpublished: one that readers see, or will see without anyone
 * acting again (published, scheduled), changes only when an editor presses Save. Consecutive
 * autosaves by one editor make one revision.
 */
export function autosaveArticle(
  db: Database,
  actor: AuditActor,
  id: number,
  expectedVersion: number,
  fields: ArticleFields,
  now: Date,
): Promise<AutosaveResult> {
  return writeFields(db, actor, id, expectedVersion, fields, now, "article.autosave");
}

export function writeFields(
  db: Database,
  actor: AuditActor,
  id: number,
  expectedVersion: number,
  fields: ArticleFields,
  now: Date,
  action: "article.save" | "article.restore",
): Promise<SaveResult>;
export function writeFields(
  db: Database,
  actor: AuditActor,
  id: number,
  expectedVersion: number,
  fields: ArticleFields,
  now: Date,
  action: "article.autosave",
): Promise<AutosaveResult>;
export async function writeFields(
  db: Database,
  actor: AuditActor,
  id: number,
  expectedVersion: number,
  fields: ArticleFields,
  now: Date,
  action: "article.save" | "article.restore" | "article.autosave",
): Promise<AutosaveResult> {
  const autosave = action === "article.autosave";
  const checked = checkFields(fields);
  if (!checked.ok) return { ok: false, reason: "invalid", fieldErrors: checked.fieldErrors };
  const found = await resolveFields(db, checked.fields);
  if (!found.ok) return { ok: false, reason: "invalid", fieldErrors: found.fieldErrors };
  const { resolved } = found;
  const slugError: SaveResult = { ok: false, reason: "invalid", fieldErrors: { slug: [slugTaken(resolved.fields.slug)] } };
  try {
    return await inTransaction(db, async (tx) => {
      await holdArticleIds(tx);
      const before = await getDeskArticle(tx, id);
      if (!before) throw new Outcome<SaveResult>({ ok: false, reason: "missing" });
      if (before.version !== expectedVersion) throw new Outcome(conflictWith(before));
      if (autosave && !AUTOSAVED_STATES.includes(before.status))
        throw new Outcome<AutosaveResult>({ ok: false, reason: "state", status: before.status, message: AUTOSAVE_OFF });
      if (await slugInUse(tx, resolved.fields.slug, id)) throw new Outcome(slugError);
      const series = await seriesId(tx, resolved.fields);
      const updated = await tx
        .updateTable("article_record")
        .set((eb) => ({
          ...recordValues(resolved.fields, resolved.topicIds[0]!, series),
          version: eb("version", "+", 1),
          ...editor(actor, now),
        }))
        .where("id", "=", id)
        .where("version", "=", expectedVersion)
        .executeTakeFirst();
      // Another save got in between our reading and our writing: it wins, ours writes nothing.
      if (Number(updated.numUpdatedRows) === 0) throw new Outcome(conflictWith((await getDeskArticle(tx, id))!));
      await writeLinks(tx, id, resolved);
      const after = (await getDeskArticle(tx, id))!;
      await keepOldAddress(tx, before, after, now);
      const generation = await recordChange(tx, { actor, action, before, after, now, autosave });
      return { result: { ok: true, article: after }, generation };
    });
  } catch (error) {
    if (isUniqueViolation(error)) return slugError;
    throw error;
  }
}

/**
 * An article readers have known (published, or unpublished since) keeps its old address as a
 * redirect when its slug or date changes; an address it takes back is no longer a redirect.
 */
async function keepOldAddress(tx: Database, before: DeskArticle, after: DeskArticle, now: Date): Promise<void> {
  await tx.deleteFrom("article_redirect").where("path", "=", after.path).execute();
  const known = before.status === "published" || before.status === "unpublished";
  if (!known || before.path === after.path) return;
  await tx
    .insertInto("article_redirect")
    .values({ path: before.path, article_id: after.id, created_at: now.toISOString() })
    .onConflict((oc) => oc.column("path").doUpdateSet({ article_id: after.id, created_at: now.toISOString() }))
    .execute();
}
