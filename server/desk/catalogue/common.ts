import { sql, type Expression, type SqlBool } from "kysely";
import type { Database } from "~/server/db/connection";
import { bumpContentGeneration } from "~/server/content/content-generation";
import { reindexArticle } from "~/server/search/documents";
import { isPostgres } from "~/server/db/dialect";
import type { AuditActor } from "~/server/desk/audit";

// What authors and topics share at the desk (ADR 078), and videos and podcast episodes with them
// (ADR 083): who saves, what a save answers, the listing's search, and new ids (the seed assigns
// ids, so the tables have no sequence).

/** Who saves: as the audit log names them, and as the conflict message does ("changed by {name}"). */
export interface Editor {
  actor: AuditActor;
  name: string;
}

export type FieldErrors = Record<string, string[]>;

export type SaveResult<T> =
  | { ok: true; value: T; changed: boolean }
  | { ok: false; reason: "not-found" }
  | { ok: false; reason: "invalid"; fields: FieldErrors }
  /** The row moved on since the version the save read: nothing was written; this is what is there now. */
  | { ok: false; reason: "stale"; current: T };

export interface ListQuery {
  q?: string;
  page: number;
  pageSize: number;
}

export interface Listing<T> {
  total: number;
  items: T[];
}

/** Who saved a row last, and when; null for a row as the seed wrote it. */
export interface LastSave {
  version: number;
  updatedAt: string | null;
  updatedBy: string | null;
}

/** `%` and `_` match themselves in a LIKE pattern (with ESCAPE '\'). */
const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Whether any of these columns holds the words, in any case. */
export function containsText(columns: Expression<string>[], q: string): Expression<SqlBool> {
  const pattern = likePattern(q);
  return sql<SqlBool>`(${sql.join(
    columns.map((column) => sql`lower(${column}) like ${pattern} escape '\\'`),
    sql` or `,
  )})`;
}

/**
 * Runs a create in a transaction, with the next id of the table. On PostgreSQL the transaction
 * first takes the lock the content files' import takes for the same table (ADR 080), so two
 * creates never pick one id, and the second sees the first's slug.
 */
export async function withNextId<T>(
  db: Database,
  table: "author" | "topic" | "video" | "podcast_episode",
  create: (tx: Database, id: number) => Promise<T>,
): Promise<T> {
  return db.transaction().execute(async (tx) => {
    if (isPostgres(tx)) await sql`select pg_advisory_xact_lock(hashtextextended(${`${table}:ids`}, 0))`.execute(tx);
    const row = await tx
      .selectFrom(table)
      .select((eb) => eb.fn.max("id").as("max"))
      .executeTakeFirst();
    return create(tx, Number(row?.max ?? 0) + 1);
  });
}

/** The fields whose values differ, before and after, for the audit log. */
export function changes<T extends object>(before: T, after: T): { before: Partial<T>; after: Partial<T> } | null {
  const was: Partial<T> = {};
  const now: Partial<T> = {};
  for (const key of Object.keys(after) as (keyof T)[]) {
    if (JSON.stringify(before[key]) === JSON.stringify(after[key])) continue;
    was[key] = before[key];
    now[key] = after[key];
  }
  return Object.keys(now).length === 0 ? null : { before: was, after: now };
}

/**
 * What readers see changed: the articles that show the new name are indexed again, and the
 * content generation counts up in the same transaction, so every instance's caches follow within
 * seconds (ADR 076). Answers the generation for `noteContentChanged` once committed.
 */
export async function catalogueChanged(tx: Database, now: Date, reindex: { id: number }[] = []): Promise<number> {
  for (const { id } of reindex) await reindexArticle(tx, id);
  return bumpContentGeneration(tx, now);
}
