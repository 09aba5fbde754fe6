import { sql, type Kysely } from "kysely";
import { isPostgres } from "~/server/db/dialect";

// PostgreSQL finds the newest matches of a common word by walking search_document in key order
// and testing each row's words (ADR 030). A body's tsvector is a few kilobytes, so by default it
// was compressed with pglz and moved out of the row (TOAST): every row tested cost a lookup in
// the TOAST table and a decompression, about 10 µs, and 125 ms for the newest 1,000 matches of
// "supply chain". Kept in the row (up to a page) and compressed with lz4, a test costs 1.5–2.5 µs.
// The table stays about the size it was with its TOAST table. SQLite has nothing to change.
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  const { rows } = await sql<{ lz4: boolean }>`
    select 'lz4' = any(enumvals) as lz4 from pg_settings where name = 'default_toast_compression'`.execute(db);
  await sql`alter table search_document set (toast_tuple_target = 8160)`.execute(db);
  await sql`alter table search_document alter column document set storage main`.execute(db);
  if (rows[0]?.lz4) await sql`alter table search_document alter column document set compression lz4`.execute(db);
  // Existing rows keep their stored form until written again: a new value is stored the new way.
  await sql`update search_document set document = document || ''::tsvector`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`alter table search_document alter column document set compression default`.execute(db);
  await sql`alter table search_document alter column document set storage extended`.execute(db);
  await sql`alter table search_document reset (toast_tuple_target)`.execute(db);
}
