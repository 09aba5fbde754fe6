// PostgreSQL's GIN index gives a word's matches in table order, never newest first, so "the
// newest 1,001 matches" meant reading every match of a common word (ADR 030). The words are
// therefore indexed in time slices: partial GIN indexes over key ranges, the newest slice
// SLICE_BASE documents and each older one twice the one before. A search asks the slices newest
// first and stops at the first that completes its list, so it reads about as many matches as it
// keeps, whatever the word. SQLite's FTS5 walks a word's list in key order and needs none of this.
import { sql, type RawBuilder } from "kysely";
import type { Database } from "~/server/db/connection";
import { isPostgres } from "~/server/db/dialect";

/** Documents in the newest slice; each older slice holds twice as many as the one before. */
export const SLICE_BASE = 2048;

/** A key range: `first` ≤ key < `end`, an absent bound open. Keys grow older (documents.ts). */
export interface Slice {
  first: number | null;
  end: number | null;
}

/** The tsvector columns of search_match indexed by slice, and the prefix of their indexes' names. */
const SLICED = [
  { column: "words", prefix: "search_words" },
  { column: "heading_words", prefix: "search_heading" },
] as const;

/** How long a process trusts the slices it read: another instance may have re-sliced. */
const SLICES_TTL_MS = 60_000;
const known = new WeakMap<Database, { slices: Promise<Slice[]>; readAt: number }>();

/**
 * The slices, newest first. A layout read before another instance re-sliced still covers every
 * key, so a search with it is right, only slower until it is read again.
 */
export function searchSlices(db: Database, now = Date.now()): Promise<Slice[]> {
  const cached = known.get(db);
  if (cached && now - cached.readAt < SLICES_TTL_MS) return cached.slices;
  const slices = readSlices(db);
  known.set(db, { slices, readAt: now });
  slices.catch(() => known.delete(db));
  return slices;
}

async function readSlices(db: Database): Promise<Slice[]> {
  const { rows } = await sql<{ first_key: string | null; end_key: string | null }>`
    select first_key, end_key from search_slice order by position`.execute(db);
  return rows.map((r) => ({
    first: r.first_key === null ? null : Number(r.first_key),
    end: r.end_key === null ? null : Number(r.end_key),
  }));
}

const bigint = (n: number) => sql`${sql.lit(n)}::bigint`;

/** The slice as a condition on a key, the same text as its indexes' predicate so that the planner can use them. */
export function sliceCondition(key: RawBuilder<unknown>, slice: Slice): RawBuilder<unknown> | null {
  const parts = [
    ...(slice.first === null ? [] : [sql`${key} >= ${bigint(slice.first)}`]),
    ...(slice.end === null ? [] : [sql`${key} < ${bigint(slice.end)}`]),
  ];
  return parts.length === 0 ? null : sql.join(parts, sql` and `);
}

/** The slices that hold keys in [low, high), either bound absent for open. */
export function slicesWithin(slices: Slice[], low: number | null, high: number | null): Slice[] {
  return slices.filter((s) => (high === null || s.first === null || s.first < high) && (low === null || s.end === null || s.end > low));
}

/**
 * The boundaries the documents call for now: keys at ranks base, 2·base, 4·base…
 * in key order, as long as the slice that follows would not be empty.
 */
async function plannedBoundaries(db: Database, base: number): Promise<number[]> {
  const { rows } = await sql<{ n: string }>`select count(*) as n from search_document`.execute(db);
  const total = Number(rows[0]?.n ?? 0);
  const boundaries: number[] = [];
  for (let rank = base; rank < total; rank *= 2) {
    const { rows: at } = await sql<{ id: string }>`select id from search_document order by id offset ${rank} limit 1`.execute(db);
    if (at[0]) boundaries.push(Number(at[0].id));
  }
  return boundaries;
}

const toSlices = (boundaries: number[]): Slice[] => [null, ...boundaries].map((first, i) => ({ first, end: boundaries[i] ?? null }));

/**
 * Whether the slices have drifted from what the documents call for: the newest slice holds more
 * than twice its planned size (new content lands in it), or there are fewer slices than the documents
 * fill (a bulk load). Smaller drifts are left alone: re-slicing rebuilds every index.
 */
async function drifted(db: Database, current: Slice[], planned: Slice[], base: number): Promise<boolean> {
  const newest = current[0];
  if (!newest || planned.length > current.length) return true;
  const { rows } = await sql<{ n: string }>`
    select count(*) as n from search_document where ${sliceCondition(sql`id`, newest) ?? sql`true`}`.execute(db);
  return Number(rows[0]?.n ?? 0) > 2 * base;
}

export interface ResliceOptions {
  /** Build without blocking writes (a running site); a bulk load builds faster with writes held. */
  concurrently: boolean;
  /** The newest slice's size (tests re-slice a small database with a small one). */
  base?: number;
}

/**
 * Re-slices the word indexes when they have drifted (see `drifted`): builds the new slices'
 * indexes, switches the layout in one transaction, then drops the old indexes, so searches go on
 * throughout. One instance at a time (an advisory lock; the others skip). Says whether it did;
 * SQLite never does.
 */
export async function resliceSearchIndex(db: Database, options: ResliceOptions): Promise<boolean> {
  if (!isPostgres(db)) return false;
  const maybeConcurrently = sql.raw(options.concurrently ? "concurrently " : "");
  const dropIndexes = async (conn: Database, names: string[]) => {
    for (const name of names) await sql`drop index ${maybeConcurrently}if exists ${sql.ref(name)}`.execute(conn);
  };
  return db.connection().execute(async (conn) => {
    const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(${SLICES_LOCK}) as locked`.execute(conn);
    if (!rows[0]?.locked) return false;
    try {
      const { rows: gen } = await sql<{ g: number | null }>`select max(generation) as g from search_slice`.execute(conn);
      const generation = Number(gen[0]?.g ?? 0);
      // Indexes of a generation never switched to were left by an interrupted re-slice.
      const existing = await sliceIndexes(conn);
      await dropIndexes(
        conn,
        existing.filter((name) => generationOf(name) !== generation),
      );
      const base = options.base ?? SLICE_BASE;
      const slices = toSlices(await plannedBoundaries(conn, base));
      if (!(await drifted(conn, await readSlices(conn), slices, base))) return false;
      const next = generation + 1;
      for (const [position, slice] of slices.entries()) {
        const where = sliceCondition(sql`id`, slice);
        for (const { column, prefix } of SLICED) {
          await sql`create index ${maybeConcurrently}${sql.ref(`${prefix}_${next}_${position}`)}
            on search_match using gin (${sql.ref(column)}) with (gin_pending_list_limit = 64)${where ? sql` where ${where}` : sql``}`.execute(
            conn,
          );
        }
      }
      await conn.transaction().execute(async (tx) => {
        await sql`delete from search_slice`.execute(tx);
        for (const [position, slice] of slices.entries()) {
          await sql`insert into search_slice (position, first_key, end_key, generation)
            values (${position}, ${slice.first}, ${slice.end}, ${next})`.execute(tx);
        }
      });
      known.delete(db);
      await dropIndexes(
        conn,
        existing.filter((name) => generationOf(name) === generation),
      );
      return true;
    } finally {
      await sql`select pg_advisory_unlock(${SLICES_LOCK})`.execute(conn);
    }
  });
}

/** One instance at a time changes the slices. */
const SLICES_LOCK = sql`hashtextextended('search-slices:' || current_schema(), 0)`;

/**
 * Before a bulk load that re-slices when it is done (the seed's synthetic articles): drops the
 * slices' indexes and their layout, so that the load does not keep up to date the indexes that
 * the re-slice would replace; with a two-word phrase's pairs (ADR 050), that upkeep doubled the
 * seed's time. Until the re-slice, searches find nothing; with no layout, the next re-slice
 * (housekeeping's, if the load stops half-way) always builds one.
 */
export async function dropSearchSlices(db: Database): Promise<void> {
  if (!isPostgres(db)) return;
  await db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(${SLICES_LOCK})`.execute(conn);
    try {
      await sql`delete from search_slice`.execute(conn);
      known.delete(db);
      for (const name of await sliceIndexes(conn)) await sql`drop index if exists ${sql.ref(name)}`.execute(conn);
    } finally {
      await sql`select pg_advisory_unlock(${SLICES_LOCK})`.execute(conn);
    }
  });
}

const generationOf = (indexName: string) => Number(indexName.split("_").at(-2));

/** The names of the slices' indexes in this schema (`<prefix>_<generation>_<position>`), old generations included. */
export async function sliceIndexes(db: Database): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select indexname as name from pg_indexes
    where schemaname = current_schema() and tablename = 'search_match'
      and (indexname like 'search\\_words\\_%' or indexname like 'search\\_heading\\_%')`.execute(db);
  return rows.map((r) => r.name);
}
