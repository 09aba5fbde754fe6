// The one place that speaks each database's full-text dialect (ADR 030): FTS5 with bm25 on
// SQLite, tsvector with ts_rank on PostgreSQL. Both get the same parsed query and filters, do
// the same bounded work and answer in the same shape:
// - the newest TITLE_WINDOW matches in titles, with each engine's score of the title: search
//   lists them first, best first;
// - the newest COUNT_WINDOW + 1 matching keys (shared/search-kinds.ts): the counts, the facets,
//   the list "newest first", and after the title matches the rest of the list by relevance.
// Keys order documents newest first (documents.ts), so "newest" is a walk along an index that
// stops once it has enough, however many documents match: FTS5 walks a word's list in key order;
// PostgreSQL asks its time slices of search_match newest first (slices.ts, ADR 040).
import { sql, type RawBuilder } from "kysely";
import type { Database } from "~/server/db/connection";
import { isPostgres } from "~/server/db/dialect";
import { PREPARED } from "~/server/db/postgres-pool";
import { COUNT_WINDOW, SEARCH_KINDS, type SearchKind } from "~/shared/search-kinds";
import { keysOfDay, REF_BITS } from "./documents";
import { phrasePairs, toFts5, toTsquery, type ParsedQuery } from "./query";
import { searchSlices, sliceCondition, slicesWithin } from "./slices";

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

/** PostgreSQL plans these once a connection (the slices' unions cost more to plan than to run). */
const PREPARED_STATEMENT = sql.raw(PREPARED);
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

/**
 * The query as PostgreSQL's tsquery, in an uncorrelated subquery: computed once per statement. In
 * a prepared statement a call on a parameter is computed again for every row it tests (a phrase's
 * rechecks: 6.3 ms instead of 4.6 for "supply chain").
 */
const tsquery = (config: "english" | "simple", query: ParsedQuery) => sql`(select to_tsquery(${sql.lit(config)}, ${toTsquery(query)}))`;

/**
 * The query against search_match's body words, each two-word phrase asked for as the pair of
 * words the index holds (ADR 050): one lexeme, which GIN answers without reading the rows to check
 * the words' positions.
 */
function wordsTsquery(query: ParsedQuery): RawBuilder<unknown> {
  const { rest, pairs } = phrasePairs(query);
  if (pairs.length === 0) return tsquery("english", query);
  const parts = pairs.map(([first, second]) => sql`search_phrase_pair(${first}, ${second})`);
  if (rest.clauses.length > 0 || rest.excluded.length > 0) parts.unshift(sql`to_tsquery('english', ${toTsquery(rest)})`);
  return sql`(select ${sql.join(parts, sql` && `)})`;
}

const numbers = <T extends { key: number | string; score?: number | string }>(rows: T[]): Scored[] =>
  rows.map((r) => ({ key: Number(r.key), score: Number(r.score ?? 0) }));

/**
 * PostgreSQL: the newest `limit` documents whose `column` matches, as a union of each time
 * slice's newest, newest slice first. The union's branches run in turn and the outer limit stops
 * them, so the slices after the first that completes the list are never read. Each branch states
 * its slice's bounds as its index's predicate states them, so that the planner uses that index.
 * Null when no slice lies within the filters' dates.
 */
async function newestInSlices(
  db: Database,
  column: "words" | "heading_words",
  columns: RawBuilder<unknown>,
  query: ParsedQuery,
  filters: EngineFilters,
  limit: number,
): Promise<RawBuilder<unknown> | null> {
  const low = filters.to ? keysOfDay(filters.to).first : null;
  const high = filters.from ? keysOfDay(filters.from).end : null;
  const branches = slicesWithin(await searchSlices(db), low, high).map((slice) => {
    const bounds = sliceCondition(sql`d.id`, slice);
    return sql`(select ${columns} from search_match d
      where d.${sql.raw(column)} @@ ${column === "words" ? wordsTsquery(query) : tsquery("english", query)}${bounds ? sql` and ${bounds}` : sql``}${keyConditions(sql`d.id`, filters)}
      order by d.id limit ${limit})`;
  });
  if (branches.length === 0) return null;
  return sql`select * from (${sql.join(branches, sql` union all `)}) s limit ${limit}`;
}

/** The newest TITLE_WINDOW documents matching in their titles, scored on the title alone. */
export async function titleWindow(db: Database, query: ParsedQuery, filters: EngineFilters): Promise<Scored[]> {
  if (isPostgres(db)) {
    const newest = await newestInSlices(db, "heading_words", sql`d.id as key, d.heading_words as words`, query, filters, TITLE_WINDOW);
    if (!newest) return [];
    // Scored after the limit: ts_rank reads each title's words, a few microseconds a row.
    const { rows } = await sql<{ key: string; score: number }>`${PREPARED_STATEMENT}
      select t.key, ts_rank(t.words, ${tsquery("english", query)}) as score
      from (${newest}) t`.execute(db);
    return numbers(rows);
  }
  const { rows } = await sql<{ key: number; score: number }>`
    select rowid as key, -bm25(search_heading) as score from search_heading
    where search_heading match ${toFts5(query)}${keyConditions(sql`rowid`, filters)}
    order by rowid limit ${TITLE_WINDOW}`.execute(db);
  return numbers(rows);
}

/**
 * The newest matching documents, newest first: their keys, and on PostgreSQL how many of the
 * first COUNT_WINDOW have each topic, counted from the same rows.
 */
export interface Newest {
  keys: number[];
  topicCounts: Map<number, number> | null;
}

export async function newestMatches(db: Database, query: ParsedQuery, filters: EngineFilters, limit: number): Promise<Newest> {
  if (isPostgres(db)) {
    const newest = await newestInSlices(db, "words", sql`d.id as key, d.topic_ids`, query, filters, limit);
    if (!newest) return { keys: [], topicCounts: new Map() };
    // As one line of text ("key:topic topic,key:…"), not a thousand rows: node-postgres spends
    // more on parsing a thousand rows than the database spends finding them.
    const { rows } = await sql<{ matches: string | null }>`${PREPARED_STATEMENT}
      select string_agg(key::text || ':' || array_to_string(topic_ids, ' '), ',' order by key) as matches from (${newest}) m`.execute(db);
    return readMatches(rows[0]?.matches ?? "");
  }
  const { rows } = await sql<{ key: number }>`
    select rowid as key from search_text
    where search_text match ${toFts5(query)}${keyConditions(sql`rowid`, filters)}
    order by rowid limit ${limit}`.execute(db);
  return { keys: rows.map((r) => Number(r.key)), topicCounts: null };
}

/**
 * The keys in a line of matches ("key:topic topic,key:…", keys ascending), and how many of the
 * first COUNT_WINDOW have each topic. Read a character at a time: splitting each match into
 * arrays cost a "strategy" search page 5 % of its CPU.
 */
function readMatches(line: string): Newest {
  const keys: number[] = [];
  const topicCounts = new Map<number, number>();
  for (let start = 0; start < line.length;) {
    const colon = line.indexOf(":", start);
    const comma = line.indexOf(",", colon);
    const end = comma === -1 ? line.length : comma;
    keys.push(Number(line.slice(start, colon)));
    if (keys.length <= COUNT_WINDOW) {
      let topic = -1;
      for (let i = colon + 1; i <= end; i++) {
        const code = i < end ? line.charCodeAt(i) : SPACE;
        if (code !== SPACE) topic = Math.max(topic, 0) * 10 + code - ZERO;
        else if (topic >= 0) {
          topicCounts.set(topic, (topicCounts.get(topic) ?? 0) + 1);
          topic = -1;
        }
      }
    }
    start = end + 1;
  }
  return { keys, topicCounts };
}

const SPACE = " ".charCodeAt(0);
const ZERO = "0".charCodeAt(0);

/**
 * How many of the first COUNT_WINDOW matches each topic has. PostgreSQL counted them with the
 * matches; SQLite looks each key up, the keys going as one parameter (a list of a thousand costs
 * more to plan than to run).
 */
export async function countTopics(db: Database, newest: Newest): Promise<Map<number, number>> {
  if (newest.topicCounts) return newest.topicCounts;
  const counts = new Map<number, number>();
  const keys = newest.keys.slice(0, COUNT_WINDOW);
  if (keys.length === 0) return counts;
  const { rows } = await sql<{ topic_id: number; documents: number }>`
    select t.topic_id, count(*) as documents
    from json_each(${JSON.stringify(keys)}) k join search_document_topic t on t.document_id = k.value
    group by t.topic_id`.execute(db);
  for (const r of rows) counts.set(r.topic_id, Number(r.documents));
  return counts;
}

/** A document as a result page needs it: with an article's body, from which its snippet may come. */
export type ResultRow = DocumentRow & { body: string | null };

/** The documents with these keys, in the order given, each article with its body. */
export async function resultsInOrder(db: Database, keys: number[]): Promise<ResultRow[]> {
  if (keys.length === 0) return [];
  const { rows } = await sql<ResultRow>`select ${DOCUMENT_COLUMNS}, a.body from search_document d
    left join article a on d.kind = 'article' and a.id = d.ref_id
    where d.id in (${sql.join(keys)})`.execute(db);
  const byKey = new Map(rows.map((r) => [Number(r.id), { ...r, id: Number(r.id) }]));
  return keys.flatMap((k) => byKey.get(k) ?? []);
}

/** The newest documents whose title holds the words typed so far, unstemmed, for auto-suggest. */
export async function titlesMatching(db: Database, query: ParsedQuery, limit: number): Promise<DocumentRow[]> {
  const { rows } = isPostgres(db)
    ? // The tsquery is written out, not in a subquery as in the other statements: with it in a
      // subquery the planner chose a plan that took 4–6 ms instead of 0.5 at 100,000 articles.
      await sql<DocumentRow>`${PREPARED_STATEMENT}
        select ${DOCUMENT_COLUMNS} from search_document d
        where d.title_words @@ to_tsquery('simple', ${toTsquery(query)})
        order by d.id limit ${limit}`.execute(db)
    : await sql<DocumentRow>`
        select ${DOCUMENT_COLUMNS} from search_title t join search_document d on d.id = t.rowid
        where search_title match ${toFts5(query)} order by t.rowid limit ${limit}`.execute(db);
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}
