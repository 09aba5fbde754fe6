import { sql, type Kysely } from "kysely";
import { isPostgres } from "~/server/db/dialect";

// PostgreSQL's GIN indexes take new entries into a pending list (fastupdate), which every search
// reads in full until it is merged into the index. Its default bound, 4 MB, was reached by a
// bulk load: after 100,000 articles a word found nowhere cost 5–7 ms instead of 0.4. Writing
// straight into the index instead (fastupdate off) made that bulk load take 184 s instead of 110.
// So the list stays, bounded at 64 kB (about eight pages for a search to read), and bulk loads
// merge it when they finish (optimizeSearchIndex). SQLite has nothing to change.
const INDEXES = ["search_document_words_idx", "search_document_heading_idx", "search_document_title_idx"];

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  for (const index of INDEXES) {
    await sql`alter index ${sql.ref(index)} set (gin_pending_list_limit = 64)`.execute(db);
    await sql`select gin_clean_pending_list(${sql.lit(index)}::regclass)`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  for (const index of INDEXES) await sql`alter index ${sql.ref(index)} reset (gin_pending_list_limit)`.execute(db);
}
