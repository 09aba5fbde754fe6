import { sql, type Kysely } from "kysely";
import { isPostgres } from "~/server/db/dialect";

// PostgreSQL indexes a document's words by time slice (server/search/slices.ts, ADR 040). The
// layout starts as one slice covering every key, which is what the word indexes already were:
// they are renamed into it, and the site re-slices them once there are documents enough.
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await db.schema
    .createTable("search_slice")
    .addColumn("position", "integer", (c) => c.primaryKey())
    .addColumn("first_key", "bigint")
    .addColumn("end_key", "bigint")
    .addColumn("generation", "integer", (c) => c.notNull())
    .execute();
  await sql`insert into search_slice (position, first_key, end_key, generation) values (0, null, null, 1)`.execute(db);
  await sql`alter index search_document_words_idx rename to search_words_1_0`.execute(db);
  await sql`alter index search_document_heading_idx rename to search_heading_1_0`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  const { rows } = await sql<{ name: string }>`
    select indexname as name from pg_indexes
    where schemaname = current_schema() and tablename = 'search_document'
      and (indexname like 'search\\_words\\_%' or indexname like 'search\\_heading\\_%')`.execute(db);
  for (const { name } of rows) await sql`drop index ${sql.ref(name)}`.execute(db);
  await sql`create index search_document_words_idx on search_document using gin (document) with (gin_pending_list_limit = 64)`.execute(db);
  await sql`create index search_document_heading_idx on search_document using gin (heading_words) with (gin_pending_list_limit = 64)`.execute(
    db,
  );
  await sql`drop table search_slice`.execute(db);
}
