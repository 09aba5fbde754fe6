import { sql } from "kysely";
import type { Database } from "~/server/db/connection";

// Which content each process's caches hold (ADR 076). Every change readers can see (a publish,
// an update of a published article, an unpublish) counts up the one row of content_generation
// in its own transaction. A process reads that row at most once a second, when a cache is asked
// for an entry, and a cache filled at an older generation empties itself; the process that made
// the change counts up its own reading at once, so its next page shows it.

/** How long a process trusts the generation it read last. */
export const GENERATION_RECHECK_MS = 1_000;

export interface Clock {
  now(): number;
}

interface Watch {
  generation: number;
  readAt: number;
  reading?: Promise<number>;
}

const watches = new WeakMap<Database, Watch>();

/**
 * The newest content generation this process knows of for `db`, read again from the database
 * when the last reading is older than a second (one reading at a time, shared by every caller).
 * A failed reading keeps the last known generation and is tried again a second later: a cache
 * then serves what it holds rather than failing a page.
 */
export function contentGeneration(db: Database, clock: Clock = performance): Promise<number> {
  let watch = watches.get(db);
  if (!watch) watches.set(db, (watch = { generation: 0, readAt: -Infinity }));
  const now = clock.now();
  if (now - watch.readAt < GENERATION_RECHECK_MS) return Promise.resolve(watch.generation);
  if (watch.reading) return watch.reading;
  const current = watch;
  current.reading = readGeneration(db)
    .then(
      (generation) => (current.generation = Math.max(current.generation, generation)),
      () => current.generation,
    )
    .finally(() => {
      current.readAt = clock.now();
      current.reading = undefined;
    });
  return current.reading;
}

async function readGeneration(db: Database): Promise<number> {
  const row = await db.selectFrom("content_generation").select("generation").where("id", "=", 1).executeTakeFirst();
  return Number(row?.generation ?? 0);
}

/**
 * Counts the content generation up, inside the transaction that changes what readers see, and
 * returns the new generation; call noteContentChanged with it once the transaction commits.
 */
export async function bumpContentGeneration(tx: Database, now: Date): Promise<number> {
  const row = await tx
    .updateTable("content_generation")
    .set({ generation: sql<number>`generation + 1`, changed_at: now.toISOString() })
    .where("id", "=", 1)
    .returning("generation")
    .executeTakeFirstOrThrow();
  return Number(row.generation);
}

/** This process made a change (committed): its caches for `db` are out of date from now. */
export function noteContentChanged(db: Database, generation: number): void {
  const watch = watches.get(db);
  if (!watch) watches.set(db, { generation, readAt: -Infinity });
  else watch.generation = Math.max(watch.generation, generation);
}
