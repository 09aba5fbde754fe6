// The one place that speaks each database's full-text dialect (ADR 030): FTS5 with bm25 on
// SQLite, tsvector with ts_rank on PostgreSQL. Both get the same parsed query, the same
// filters and the same order: documents matching in their titles first (bm25's title weight is
// large enough to rank every title match first; PostgreSQL asks for the title's weight, A), then
// by rank with summary above body. Both answer in the same shape.
import { sql, type RawBuilder } from "kysely";
import type { Database } from "../db/connection";
import { isPostgres } from "../db/dialect";
import { SEARCH_KINDS, type SearchKind } from "../../shared/search-kinds";
import { firstKeyOf, kindOfKey } from "./documents";
import { toFts5, toTsquery, type ParsedQuery } from "./query";

export interface EngineFilters {
  kinds: SearchKind[];
  topicId: number | null;
  /** Inclusive bounds on the publication date, YYYY-MM-DD. */
  from: string | null;
  to: string | null;
}

export type SearchSort = "relevance" | "newest";

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

const DOCUMENT_COLUMNS = sql.raw("d.id, d.kind, d.ref_id, d.published, d.title, d.url, d.label, d.image, d.teaser");
const REF_BITS = 16_777_216;
const kindCode = (kind: SearchKind) => SEARCH_KINDS.indexOf(kind) + 1;

/** The day after `to`, as the first key not in the range. */
function keyAfter(to: string): number {
  const next = new Date(`${to}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return firstKeyOf(next.toISOString().slice(0, 10));
}

/** Conditions on the document key `key` shared by both engines (dates and kinds live in the key). */
function keyConditions(key: RawBuilder<unknown>, filters: EngineFilters, facet: "kind" | "topic" | null): RawBuilder<unknown>[] {
  const out: RawBuilder<unknown>[] = [];
  if (filters.from) out.push(sql`${key} >= ${firstKeyOf(filters.from)}`);
  if (filters.to) out.push(sql`${key} < ${keyAfter(filters.to)}`);
  if (facet !== "kind" && filters.kinds.length > 0 && filters.kinds.length < SEARCH_KINDS.length) {
    out.push(sql`(${key} / ${REF_BITS}) % 8 in (${sql.join(filters.kinds.map(kindCode))})`);
  }
  if (facet !== "topic" && filters.topicId !== null) {
    out.push(sql`${key} in (select document_id from search_document_topic where topic_id = ${filters.topicId})`);
  }
  return out;
}

const and = (conditions: RawBuilder<unknown>[]) => (conditions.length === 0 ? sql`` : sql` and ${sql.join(conditions, sql` and `)}`);

/** The matching documents of one page, best first or newest first. */
export async function matchingDocuments(
  db: Database,
  query: ParsedQuery,
  filters: EngineFilters,
  sort: SearchSort,
  limit: number,
  offset: number,
): Promise<DocumentRow[]> {
  if (isPostgres(db)) {
    const order = sort === "newest" ? sql`d.id desc` : sql`d.document @@ tq desc, score desc, d.id desc`;
    const { rows } = await sql<DocumentRow>`
      select ${DOCUMENT_COLUMNS}, ts_rank('{0.1, 0.2, 0.4, 1.0}', d.document, q, 1) as score
      from search_document d, to_tsquery('english', ${toTsquery(query)}) q, to_tsquery('english', ${toTsquery(query, "A")}) tq
      where d.document @@ q${and(keyConditions(sql`d.id`, filters, null))}
      order by ${order} limit ${limit} offset ${offset}`.execute(db);
    return rows.map((r) => ({ ...r, id: Number(r.id) }));
  }
  const order = sort === "newest" ? sql`rowid desc` : sql`bm25(search_text, 1000.0, 5.0, 1.0), rowid desc`;
  const { rows: keys } = await sql<{ key: number }>`
    select rowid as key from search_text
    where search_text match ${toFts5(query)}${and(keyConditions(sql`rowid`, filters, null))}
    order by ${order} limit ${limit} offset ${offset}`.execute(db);
  return documentsInOrder(db, keys.map((k) => k.key));
}

/** SQLite: the documents with these keys, in the order given. */
async function documentsInOrder(db: Database, keys: number[]): Promise<DocumentRow[]> {
  if (keys.length === 0) return [];
  const { rows } = await sql<DocumentRow>`select ${DOCUMENT_COLUMNS} from search_document d where d.id in (${sql.join(keys)})`.execute(db);
  const byKey = new Map(rows.map((r) => [r.id, r]));
  return keys.flatMap((k) => byKey.get(k) ?? []);
}

/** How many documents match, by kind, with every filter but the kind filter applied. */
export async function countsByKind(db: Database, query: ParsedQuery, filters: EngineFilters): Promise<Map<SearchKind, number>> {
  const counts = new Map<SearchKind, number>();
  if (isPostgres(db)) {
    const { rows } = await sql<{ kind: SearchKind; n: string }>`
      select d.kind, count(*) as n from search_document d
      where d.document @@ to_tsquery('english', ${toTsquery(query)})${and(keyConditions(sql`d.id`, filters, "kind"))}
      group by d.kind`.execute(db);
    for (const r of rows) counts.set(r.kind, Number(r.n));
    return counts;
  }
  const { rows } = await sql<{ code: number; n: number }>`
    select (rowid / ${REF_BITS}) % 8 as code, count(*) as n from search_text
    where search_text match ${toFts5(query)}${and(keyConditions(sql`rowid`, filters, "kind"))}
    group by code`.execute(db);
  for (const r of rows) counts.set(kindOfKey(r.code * REF_BITS), Number(r.n));
  return counts;
}

/** How many documents match, by topic, with every filter but the topic filter applied. */
export async function countsByTopic(db: Database, query: ParsedQuery, filters: EngineFilters): Promise<Map<number, number>> {
  const { rows } = isPostgres(db)
    ? await sql<{ topic_id: number; n: string }>`
        select t.topic_id, count(*) as n from search_document d
        join search_document_topic t on t.document_id = d.id
        where d.document @@ to_tsquery('english', ${toTsquery(query)})${and(keyConditions(sql`d.id`, filters, "topic"))}
        group by t.topic_id`.execute(db)
    : await sql<{ topic_id: number; n: number }>`
        select t.topic_id, count(*) as n from search_text
        join search_document_topic t on t.document_id = search_text.rowid
        where search_text match ${toFts5(query)}${and(keyConditions(sql`search_text.rowid`, filters, "topic"))}
        group by t.topic_id`.execute(db);
  return new Map(rows.map((r) => [r.topic_id, Number(r.n)]));
}

/** The newest documents whose title holds the words typed so far, unstemmed, for auto-suggest. */
export async function titlesMatching(db: Database, query: ParsedQuery, limit: number): Promise<DocumentRow[]> {
  if (isPostgres(db)) {
    const { rows } = await sql<DocumentRow>`
      select ${DOCUMENT_COLUMNS} from search_document d
      where d.title_words @@ to_tsquery('simple', ${toTsquery(query)})
      order by d.id desc limit ${limit}`.execute(db);
    return rows.map((r) => ({ ...r, id: Number(r.id) }));
  }
  const { rows: keys } = await sql<{ key: number }>`
    select rowid as key from search_title where search_title match ${toFts5(query)} order by rowid desc limit ${limit}`.execute(db);
  return documentsInOrder(db, keys.map((k) => k.key));
}
