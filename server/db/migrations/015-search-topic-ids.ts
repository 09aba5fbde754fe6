import { sql, type Kysely } from "kysely";
import { isPostgres } from "~/server/db/dialect";

// A search counts its newest 1,000 matches by topic. On PostgreSQL that was 1,000 lookups in
// search_document_topic (1.7 ms at 100,000 documents), after the rows had already been read to
// find the matches: each document's topics now ride in its row, and come back with it.
// search_document_topic stays: the topic filter looks a topic's documents up there. SQLite's
// FTS5 answers keys alone, so it keeps counting through the join.
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`alter table search_document add column topic_ids integer[] not null default '{}'`.execute(db);
  await sql`
    update search_document d set topic_ids = t.ids
    from (select document_id, array_agg(topic_id order by topic_id) as ids from search_document_topic group by document_id) t
    where t.document_id = d.id`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`alter table search_document drop column topic_ids`.execute(db);
}
