import { sql } from "kysely";
import type { Database } from "~/server/db/connection";
import { isPostgres } from "~/server/db/dialect";
import { bumpContentGeneration } from "~/server/content/content-generation";
import { isUniqueViolation } from "~/server/desk/articles/fields";
import { Outcome, inTransaction } from "~/server/desk/articles/write";
import { READING_LIST_MESSAGES, READING_LIST_MAX_ITEMS, type ReadingListFields } from "~/shared/curation-fields";
import { recordAudit, type AuditActor } from "../audit";
import { articlesInOrder, choiceProblem, type CuratedArticle } from "./articles";

// Reading lists at the desk (issue 38): their title, slug and description and their articles in
// order. Every change names the version it read and writes nothing when it moved on; each is
// audited, and counts the content generation up, since readers see lists at once.

export interface DeskReadingListSummary {
  id: number;
  slug: string;
  name: string;
  size: number;
  version: number;
  updatedAt: string | null;
  updatedBy: string | null;
}

export interface DeskReadingList extends Omit<DeskReadingListSummary, "size"> {
  description: string;
  /** Its page on the site. */
  path: string;
  items: CuratedArticle[];
}

/** A list's fields and its articles (ids, in order), as a change sets them. */
export interface ReadingListChange extends ReadingListFields {
  articleIds: number[];
}

export type ReadingListResult =
  | { ok: true; list: DeskReadingList }
  | { ok: false; reason: "invalid"; fieldErrors: Record<string, string[]> }
  | { ok: false; reason: "missing" }
  | { ok: false; reason: "conflict"; current: DeskReadingList; by: string; at: string };

export const slugTaken = (slug: string) => `Another reading list has the slug ${slug}.`;

/** Every list, by title, with how many articles it holds. */
export async function listDeskReadingLists(db: Database): Promise<DeskReadingListSummary[]> {
  const rows = await db
    .selectFrom("reading_list as l")
    .select(["l.id", "l.slug", "l.name", "l.version", "l.updated_at", "l.updated_by_name"])
    .select((eb) =>
      eb
        .selectFrom("reading_list_item as i")
        .whereRef("i.list_id", "=", "l.id")
        .select((e) => e.fn.countAll<number>().as("n"))
        .as("size"),
    )
    .orderBy("l.name")
    .orderBy("l.id")
    .execute();
  return rows.map((r) => ({
    id: r.id,
    slug: r.slug,
    name: r.name,
    size: Number(r.size ?? 0),
    version: r.version,
    updatedAt: r.updated_at,
    updatedBy: r.updated_by_name,
  }));
}

/** One list with its articles in order (in any state), or undefined. */
export async function getDeskReadingList(db: Database, id: number): Promise<DeskReadingList | undefined> {
  const list = await db
    .selectFrom("reading_list")
    .select(["id", "slug", "name", "description", "version", "updated_at", "updated_by_name"])
    .where("id", "=", id)
    .executeTakeFirst();
  if (!list) return undefined;
  const items = await db.selectFrom("reading_list_item").select("article_id").where("list_id", "=", id).orderBy("position").execute();
  return {
    id: list.id,
    slug: list.slug,
    name: list.name,
    description: list.description,
    version: list.version,
    updatedAt: list.updated_at,
    updatedBy: list.updated_by_name,
    path: `/reading-lists/${list.slug}`,
    items: await articlesInOrder(
      db,
      items.map((i) => i.article_id),
    ),
  };
}

/** What the audit log keeps of a list. */
const snapshot = (list: DeskReadingList) => ({
  name: list.name,
  slug: list.slug,
  description: list.description,
  items: list.items.map((item) => item.slug),
});

/** Only what changed, with the version before and after. */
function changed(before: DeskReadingList, after: DeskReadingList) {
  const [b, a] = [snapshot(before), snapshot(after)];
  const keys = (Object.keys(a) as (keyof typeof a)[]).filter((key) => JSON.stringify(b[key]) !== JSON.stringify(a[key]));
  return {
    before: { version: before.version, ...Object.fromEntries(keys.map((key) => [key, b[key]])) },
    after: { version: after.version, ...Object.fromEntries(keys.map((key) => [key, a[key]])) },
  };
}

const invalid = (field: string, message: string): ReadingListResult => ({
  ok: false,
  reason: "invalid",
  fieldErrors: { [field]: [message] },
});

async function checkItems(db: Database, ids: readonly number[], kept: ReadonlySet<number>): Promise<ReadingListResult | null> {
  if (ids.length > READING_LIST_MAX_ITEMS) return invalid("items", READING_LIST_MESSAGES.items);
  const problem = choiceProblem(await articlesInOrder(db, ids), ids, kept);
  return problem ? invalid("items", problem) : null;
}

async function slugInUse(db: Database, slug: string, exceptId: number | null): Promise<boolean> {
  let query = db.selectFrom("reading_list").select("id").where("slug", "=", slug);
  if (exceptId !== null) query = query.where("id", "!=", exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

async function writeItems(tx: Database, listId: number, articleIds: readonly number[]): Promise<void> {
  await tx.deleteFrom("reading_list_item").where("list_id", "=", listId).execute();
  if (articleIds.length > 0)
    await tx
      .insertInto("reading_list_item")
      .values(articleIds.map((article_id, index) => ({ list_id: listId, article_id, position: index + 1 })))
      .execute();
}

const conflict = (current: DeskReadingList): ReadingListResult => ({
  ok: false,
  reason: "conflict",
  current,
  by: current.updatedBy ?? "someone else",
  at: current.updatedAt ?? "",
});

/** Catches the unique index when two lists take one slug at once. */
async function slugGuarded(slug: string, work: () => Promise<ReadingListResult>): Promise<ReadingListResult> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) return invalid("slug", slugTaken(slug));
    throw error;
  }
}

/** A new reading list, at version 1, with these articles (published ones) in order. */
export function createReadingList(db: Database, actor: AuditActor, change: ReadingListChange, now: Date): Promise<ReadingListResult> {
  return slugGuarded(change.slug, () =>
    inTransaction(db, async (tx) => {
      // Ids are max(id) + 1, as the seeders give them: two new lists at once take turns.
      if (isPostgres(tx)) await sql`select pg_advisory_xact_lock(hashtextextended('reading_list:ids', 0))`.execute(tx);
      const refused = await checkItems(tx, change.articleIds, new Set());
      if (refused) throw new Outcome(refused);
      if (await slugInUse(tx, change.slug, null)) throw new Outcome(invalid("slug", slugTaken(change.slug)));
      const max = await tx
        .selectFrom("reading_list")
        .select((eb) => eb.fn.max("id").as("id"))
        .executeTakeFirstOrThrow();
      const id = Number(max.id ?? 0) + 1;
      await tx
        .insertInto("reading_list")
        .values({
          id,
          slug: change.slug,
          name: change.name,
          description: change.description,
          version: 1,
          updated_at: now.toISOString(),
          updated_by_name: actor.label,
        })
        .execute();
      await writeItems(tx, id, change.articleIds);
      const list = (await getDeskReadingList(tx, id))!;
      await recordAudit(tx, { actor, action: "reading-list.create", subject: `reading-list:${list.slug}`, after: snapshot(list) }, now);
      return { result: { ok: true, list }, generation: await bumpContentGeneration(tx, now) };
    }),
  );
}

/**
 * Saves a list's fields and articles, if it is still at `expectedVersion`: a stale save writes
 * nothing and answers with the list as it is now, and who changed it when.
 */
export function saveReadingList(
  db: Database,
  actor: AuditActor,
  id: number,
  expectedVersion: number,
  change: ReadingListChange,
  now: Date,
): Promise<ReadingListResult> {
  return slugGuarded(change.slug, () =>
    inTransaction(db, async (tx) => {
      const before = await getDeskReadingList(tx, id);
      if (!before) throw new Outcome<ReadingListResult>({ ok: false, reason: "missing" });
      if (before.version !== expectedVersion) throw new Outcome(conflict(before));
      const refused = await checkItems(tx, change.articleIds, new Set(before.items.map((item) => item.id)));
      if (refused) throw new Outcome(refused);
      if (await slugInUse(tx, change.slug, id)) throw new Outcome(invalid("slug", slugTaken(change.slug)));
      const updated = await tx
        .updateTable("reading_list")
        .set((eb) => ({
          slug: change.slug,
          name: change.name,
          description: change.description,
          version: eb("version", "+", 1),
          updated_at: now.toISOString(),
          updated_by_name: actor.label,
        }))
        .where("id", "=", id)
        .where("version", "=", expectedVersion)
        .executeTakeFirst();
      // Another save got in between our reading and our writing: it wins, ours writes nothing.
      if (Number(updated.numUpdatedRows) === 0) throw new Outcome(conflict((await getDeskReadingList(tx, id))!));
      await writeItems(tx, id, change.articleIds);
      const after = (await getDeskReadingList(tx, id))!;
      await recordAudit(tx, { actor, action: "reading-list.save", subject: `reading-list:${after.slug}`, ...changed(before, after) }, now);
      return { result: { ok: true, list: after }, generation: await bumpContentGeneration(tx, now) };
    }),
  );
}
