import { sql, type Kysely } from "kysely";
import { isPostgres } from "~/server/db/dialect";

// PostgreSQL: what a search reads of each match moves from search_document into a narrow table
// (ADR 040). A GIN bitmap scan visits a heap row per match; search_document's rows carried a
// body's words inline (migration 013), about 3.9 kB, so each of the newest 1,001 matches of a
// common word cost a page of its own, 3.2 ms in all. Here a row is the key, the topics and the
// title's words, with the body's words stored out of line (TOAST): 80 rows a page, 0.8 ms. Only a
// phrase, which GIN cannot tell from its words alone, reads a match's body words.
//
// The key has a hash index, not a primary key: a b-tree on it would let the planner walk the
// keys in order and test each row's out-of-line words, ten times slower than the slices' bitmap
// scans. The hash index serves the cascade from search_document, whose key is unique.
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`create table search_match (
    id bigint not null references search_document (id) on delete cascade,
    topic_ids integer[] not null default '{}',
    heading_words tsvector not null,
    words tsvector not null
  )`.execute(db);
  await sql`alter table search_match alter column words set storage external`.execute(db);
  await sql`create index search_match_id on search_match using hash (id)`.execute(db);
  await sql`
    insert into search_match (id, topic_ids, heading_words, words)
    select id, topic_ids, heading_words, document from search_document order by id`.execute(db);
  await moveSliceIndexes(db, "search_document", { table: "search_match", words: "words" });
  await sql`alter table search_document drop column document, drop column heading_words, drop column topic_ids`.execute(db);
  // A dropped column's values stay in each row until the row is written again: rewriting the
  // table (a type change with USING does) leaves its rows about 0.8 kB instead of 3.9, so that
  // auto-suggest's walk along the key reads a fifth of the pages (396 MB to 81 MB at 100,000 articles).
  await sql`alter table search_document alter column teaser type text using teaser || ''`.execute(db);
  await sql`analyze search_match`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`alter table search_document
    add column document tsvector not null default ''::tsvector,
    add column heading_words tsvector not null default ''::tsvector,
    add column topic_ids integer[] not null default '{}'`.execute(db);
  await sql`alter table search_document alter column document set storage main`.execute(db);
  await sql`update search_document d set document = m.words, heading_words = m.heading_words, topic_ids = m.topic_ids
    from search_match m where m.id = d.id`.execute(db);
  await moveSliceIndexes(db, "search_match", { table: "search_document", words: "document" });
  await sql`drop table search_match`.execute(db);
}

/**
 * Rebuilds the current layout's slice indexes (search_slice) on the other table, under the same
 * names, and drops any a re-slice left behind.
 */
async function moveSliceIndexes(db: Kysely<unknown>, from: string, to: { table: string; words: string }): Promise<void> {
  const { rows: old } = await sql<{ name: string }>`
    select indexname as name from pg_indexes
    where schemaname = current_schema() and tablename = ${from}
      and (indexname like 'search\\_words\\_%' or indexname like 'search\\_heading\\_%')`.execute(db);
  for (const { name } of old) await sql`drop index ${sql.ref(name)}`.execute(db);
  const { rows: slices } = await sql<{ position: number; first_key: string | null; end_key: string | null; generation: number }>`
    select position, first_key, end_key, generation from search_slice order by position`.execute(db);
  for (const slice of slices) {
    const bounds = [
      ...(slice.first_key === null ? [] : [sql`id >= ${sql.lit(Number(slice.first_key))}::bigint`]),
      ...(slice.end_key === null ? [] : [sql`id < ${sql.lit(Number(slice.end_key))}::bigint`]),
    ];
    const where = bounds.length === 0 ? sql`` : sql` where ${sql.join(bounds, sql` and `)}`;
    for (const [prefix, column] of [
      ["search_words", to.words],
      ["search_heading", "heading_words"],
    ]) {
      await sql`create index ${sql.ref(`${prefix}_${slice.generation}_${slice.position}`)}
        on ${sql.table(to.table)} using gin (${sql.ref(column!)}) with (gin_pending_list_limit = 64)${where}`.execute(db);
    }
  }
}
