// The one place that speaks each database's full-text dialect (ADR 030): FTS5 with bm25 on
// SQLite, tsvector with ts_rank on PostgreSQL. Both get the same parsed query and filters, do
// the same bounded work and answer in the same shape:
// - the newest TITLE_WINDOW matches in titles, with each engine's score of the title: search
//   lists them first, best first;
// - the newest COUNT_WINDOW + 1 matching keys (shared/search-kinds.ts): the counts, the facets,
//   the list "newest first", and after the title matches the rest of the list by relevance.
// Keys order documents newest first (documents.ts), so "newest" is a walk along an index that
// stops once it has enough, however many documents match.
import { sql, type RawBuilder } from "kysely";
import type { Database } from "../db/connection";
import { isPostgres } from "../db/dialect";
import { SEARCH_KINDS, type SearchKind } from "../../shared/search-kinds";
import { keysOfDay, REF_BITS } from "./documents";
import { toFts5, toTsquery, type ParsedQuery } from "./query";

/** How many of the newest title matches are ranked by their engine's score (a title is short: cheap to score). */
export const TITLE_WINDOW = 200;

export interface EngineFilters {
  kinds: SearchKind[];
  topicId: number | null;
  /** Inclusive bounds on the publication date, YYYY-MM-DD. */
  from: string | null;
  to: string | null;
}

export interface DocumentRow {
  id: number;
  kind: SearchKind;
  ref_id: number;
  published: string;
  title: string;
  url: string;
  label: string;
  image: string;
  teaser: string;
}

/** A match with its engine's score: higher is better. */
export interface Scored {
  key: number;
  score: number;
}

const DOCUMENT_COLUMNS = sql.raw("d.id, d.kind, d.ref_id, d.published, d.title, d.url, d.label, d.image, d.teaser");
const kindCode = (kind: SearchKind) => SEARCH_KINDS.indexOf(kind) + 1;

/** Filters as conditions on a document key (dates and kinds live in the key). */
function keyConditions(key: RawBuilder<unknown>, filters: EngineFilters): RawBuilder<unknown> {
  const out: RawBuilder<unknown>[] = [];
  // Newer documents have smaller keys.
  if (filters.from) out.push(sql`${key} < ${keysOfDay(filters.from).end}`);
  if (filters.to) out.push(sql`${key} >= ${keysOfDay(filters.to).first}`);
  if (filters.kinds.length > 0 && filters.kinds.length < SEARCH_KINDS.length) {
    out.push(sql`(${key} / ${REF_BITS}) % 8 in (${sql.join(filters.kinds.map(kindCode))})`);
  }
  if (filters.topicId !== null) {
    out.push(sql`${key} in (select document_id from search_document_topic where topic_id = ${filters.topicId})`);
  }
  return out.length === 0 ? sql`` : sql` and ${sql.join(out, sql` and `)}`;
}

const numbers = <T extends { key: number | string; score?: number | string }>(rows: T[]): Scored[] =>
  rows.map((r) => ({ key: Number(r.key), score: Number(r.score ?? 0) }));

/** The newest TITLE_WINDOW documents matching in their titles, scored on the title alone. */
export async function titleWindow(db: Database, query: ParsedQuery, filters: EngineFilters): Promise<Scored[]> {
  if (isPostgres(db)) {
    const { rows } = await sql<{ key: string; score: number }>`
      select d.id as key, ts_rank(d.heading_words, q) as score
      from search_document d, to_tsquery('english', ${toTsquery(query)}) q
      where d.heading_words @@ q${keyConditions(sql`d.id`, filters)}
      order by d.id limit ${TITLE_WINDOW}`.execute(db);
    return numbers(rows);
  }
  const { rows } = await sql<{ key: number; score: number }>`
    select rowid as key, -bm25(search_heading) as score from search_heading
    where search_heading match ${toFts5(query)}${keyConditions(sql`rowid`, filters)}
    order by rowid limit ${TITLE_WINDOW}`.execute(db);
  return numbers(rows);
}

/** Keys of the newest matching documents, newest first. */
export async function newestKeys(db: Database, query: ParsedQuery, filters: EngineFilters, limit: number): Promise<number[]> {
  const { rows } = isPostgres(db)
    ? await sql<{ key: string }>`
        select d.id as key from search_document d
        where d.document @@ to_tsquery('english', ${toTsquery(query)})${keyConditions(sql`d.id`, filters)}
        order by d.id limit ${limit}`.execute(db)
    : await sql<{ key: number }>`
        select rowid as key from search_text
        where search_text match ${toFts5(query)}${keyConditions(sql`rowid`, filters)}
        order by rowid limit ${limit}`.execute(db);
  return rows.map((r) => Number(r.key));
}

/**
 * How many of the given documents each topic has. The keys go as one parameter (a list of a
 * thousand costs more to plan than to run), each key one index lookup. PostgreSQL otherwise
 * chose from its statistics to hash or scan the whole table (8–26 ms against 2–3 at 100,000
 * documents); `offset 0` keeps it from flattening the lookup into such a join.
 */
export async function countTopics(db: Database, keys: number[]): Promise<Map<number, number>> {
  if (keys.length === 0) return new Map();
  const { rows } = isPostgres(db)
    ? await sql<{ topic_id: number; documents: string }>`
        select x.topic_id, count(*) as documents
        from unnest(${keys}::bigint[]) k(id)
        cross join lateral (select topic_id from search_document_topic t where t.document_id = k.id offset 0) x
        group by x.topic_id`.execute(db)
    : await sql<{ topic_id: number; documents: number }>`
        select t.topic_id, count(*) as documents
        from json_each(${JSON.stringify(keys)}) k join search_document_topic t on t.document_id = k.value
        group by t.topic_id`.execute(db);
  return new Map(rows.map((r) => [r.topic_id, Number(r.documents)]));
}

/** The documents with these keys, in the order given. */
export async function documentsInOrder(db: Database, keys: number[]): Promise<DocumentRow[]> {
  if (keys.length === 0) return [];
  const { rows } = await sql<DocumentRow>`select ${DOCUMENT_COLUMNS} from search_document d where d.id in (${sql.join(keys)})`.execute(db);
  const byKey = new Map(rows.map((r) => [Number(r.id), { ...r, id: Number(r.id) }]));
  return keys.flatMap((k) => byKey.get(k) ?? []);
}

/** The newest documents whose title holds the words typed so far, unstemmed, for auto-suggest. */
export async function titlesMatching(db: Database, query: ParsedQuery, limit: number): Promise<DocumentRow[]> {
  const { rows } = isPostgres(db)
    ? await sql<DocumentRow>`
        select ${DOCUMENT_COLUMNS} from search_document d
        where d.title_words @@ to_tsquery('simple', ${toTsquery(query)})
        order by d.id limit ${limit}`.execute(db)
    : await sql<DocumentRow>`
        select ${DOCUMENT_COLUMNS} from search_title t join search_document d on d.id = t.rowid
        where search_title match ${toFts5(query)} order by t.rowid limit ${limit}`.execute(db);
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}
