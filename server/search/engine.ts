// The one place that speaks each database's full-text dialect (ADR 030): FTS5 with bm25 on
// SQLite, tsvector with ts_rank on PostgreSQL. Both get the same parsed query and filters, do
// the same bounded work and answer in the same shape:
// - windows: the newest RANK_WINDOW matches in titles and the newest RANK_WINDOW matches
//   anywhere, with each engine's score; search ranks their union (title matches first);
// - the newest COUNT_WINDOW + 1 matching keys, from which counts and facets are taken;
// - a page of matches, newest first.
// Keys order documents by publication date (documents.ts), so "newest" is a walk down an index
// that stops once it has enough, however many documents match.
import { sql, type RawBuilder } from "kysely";
import type { Database } from "../db/connection";
import { isPostgres } from "../db/dialect";
import { SEARCH_KINDS, type SearchKind } from "../../shared/search-kinds";
import { firstKeyOf, kindOfKey } from "./documents";
import { toFts5, toTsquery, type ParsedQuery } from "./query";

/** How many of the newest matches (in titles, and anywhere) are ranked by relevance. */
export const RANK_WINDOW = 200;
/** How many of the newest matches are counted; beyond it a search has "more than" this many. */
export const COUNT_WINDOW = 1000;

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
const REF_BITS = 16_777_216;
const kindCode = (kind: SearchKind) => SEARCH_KINDS.indexOf(kind) + 1;

/** The day after `to`, as the first key not in the range. */
function keyAfter(to: string): number {
  const next = new Date(`${to}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return firstKeyOf(next.toISOString().slice(0, 10));
}

/** Filters as conditions on a document key (dates and kinds live in the key). */
function keyConditions(key: RawBuilder<unknown>, filters: EngineFilters): RawBuilder<unknown> {
  const out: RawBuilder<unknown>[] = [];
  if (filters.from) out.push(sql`${key} >= ${firstKeyOf(filters.from)}`);
  if (filters.to) out.push(sql`${key} < ${keyAfter(filters.to)}`);
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

/** The newest RANK_WINDOW documents matching in their titles, scored on the title alone. */
export async function titleWindow(db: Database, query: ParsedQuery, filters: EngineFilters): Promise<Scored[]> {
  if (isPostgres(db)) {
    const { rows } = await sql<{ key: string; score: number }>`
      select d.id as key, ts_rank(d.heading_words, q) as score
      from search_document d, to_tsquery('english', ${toTsquery(query)}) q
      where d.heading_words @@ q${keyConditions(sql`d.id`, filters)}
      order by d.id desc limit ${RANK_WINDOW}`.execute(db);
    return numbers(rows);
  }
  const { rows } = await sql<{ key: number; score: number }>`
    select rowid as key, -bm25(search_heading) as score from search_heading
    where search_heading match ${toFts5(query)}${keyConditions(sql`rowid`, filters)}
    order by rowid desc limit ${RANK_WINDOW}`.execute(db);
  return numbers(rows);
}

/** The newest RANK_WINDOW matching documents, scored with title above summary above body. */
export async function matchWindow(db: Database, query: ParsedQuery, filters: EngineFilters): Promise<Scored[]> {
  if (isPostgres(db)) {
    const { rows } = await sql<{ key: string; score: number }>`
      select d.id as key, ts_rank('{0.1, 0.2, 0.4, 1.0}', d.document, q, 1) as score
      from search_document d, to_tsquery('english', ${toTsquery(query)}) q
      where d.document @@ q${keyConditions(sql`d.id`, filters)}
      order by d.id desc limit ${RANK_WINDOW}`.execute(db);
    return numbers(rows);
  }
  const { rows } = await sql<{ key: number; score: number }>`
    select rowid as key, -bm25(search_text, 10.0, 4.0, 1.0) as score from search_text
    where search_text match ${toFts5(query)}${keyConditions(sql`rowid`, filters)}
    order by rowid desc limit ${RANK_WINDOW}`.execute(db);
  return numbers(rows);
}

/** Keys of matching documents, newest first. */
export async function newestKeys(db: Database, query: ParsedQuery, filters: EngineFilters, limit: number, offset = 0): Promise<number[]> {
  const { rows } = isPostgres(db)
    ? await sql<{ key: string }>`
        select d.id as key from search_document d
        where d.document @@ to_tsquery('english', ${toTsquery(query)})${keyConditions(sql`d.id`, filters)}
        order by d.id desc limit ${limit} offset ${offset}`.execute(db)
    : await sql<{ key: number }>`
        select rowid as key from search_text
        where search_text match ${toFts5(query)}${keyConditions(sql`rowid`, filters)}
        order by rowid desc limit ${limit} offset ${offset}`.execute(db);
  return rows.map((r) => Number(r.key));
}

/** Topics of the given documents, one entry per document and topic. */
export async function topicsOf(db: Database, keys: number[]): Promise<number[]> {
  if (keys.length === 0) return [];
  const rows = await db.selectFrom("search_document_topic").select("topic_id").where("document_id", "in", keys).execute();
  return rows.map((r) => r.topic_id);
}

export { kindOfKey };

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
    ? await sql<{ key: string }>`
        select d.id as key from search_document d
        where d.title_words @@ to_tsquery('simple', ${toTsquery(query)})
        order by d.id desc limit ${limit}`.execute(db)
    : await sql<{ key: number }>`
        select rowid as key from search_title where search_title match ${toFts5(query)} order by rowid desc limit ${limit}`.execute(db);
  return documentsInOrder(
    db,
    rows.map((r) => Number(r.key)),
  );
}
