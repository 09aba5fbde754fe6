// Search as the site offers it: a page of results with snippets and facet counts, and the
// auto-suggest answer. Which text a snippet may come from is decided here, from what the
// reader may read: a gated paragraph finds an article for anyone, but shows only to the entitled.
import type { Database } from "~/server/db/connection";
import { parseBody, blockText } from "~/server/content/markdown";
import { lastPage, type Paging } from "~/shared/pagination";
import { COUNT_WINDOW, SEARCH_KINDS, type SearchKind } from "~/shared/search-kinds";
import { SUGGEST_MIN_CHARS } from "~/shared/suggest";
import { kindOfKey } from "./documents";
import { listTopics } from "~/server/content/topics";
import {
  TITLE_WINDOW,
  resultsInOrder,
  newestMatches,
  titleWindow,
  titlesMatching,
  countTopics,
  type DocumentRow,
  type EngineFilters,
  type ResultRow,
  type Scored,
} from "./engine";
import { groupIssues, type OtherIssue } from "./issue-groups";
import { hasPrefix, isSearchable, parseQuery, wholeWords, type ParsedQuery } from "./query";
import { snippet, type SnippetPart } from "./snippets";

export type SearchSort = "relevance" | "newest";
export type { SnippetPart } from "./snippets";

/** Spec 9: a list with a page-size attribute shows 10 entries a page. */
export const SEARCH_PAGE_SIZE = 10;

export interface SearchRequest {
  query: string;
  kinds: SearchKind[];
  topicId: number | null;
  from: string | null;
  to: string | null;
  sort: SearchSort;
  paging: Paging;
  /** Entries a page: SEARCH_PAGE_SIZE unless said. */
  size?: number;
}

/** How much of a gated article's body the reader may see: the free preview, or all of it. */
export type BodyAccess = { previewBlocks: number } | "full";

/**
 * A document as a result shows it: its teaser and body give way to the snippet. An issue names
 * the other matching issues with its cover story, which the list shows only through it.
 */
export type SearchResult = Omit<DocumentRow, "ref_id" | "teaser"> & { snippet: SnippetPart[]; otherIssues: OtherIssue[] };
export type { OtherIssue } from "./issue-groups";

export interface SearchResults {
  entries: SearchResult[];
  page: { number: number; loaded: number; last: number; size: number; total: number };
  /** More documents match than were counted (COUNT_WINDOW): `total` and the facet counts are of the newest that many. */
  countCapped: boolean;
  kinds: { kind: SearchKind; count: number }[];
  topics: { id: number; name: string; slug: string; count: number }[];
}

/** The engine's answer to a search: which documents, in order, and how many of each kind and topic. */
export interface Matches {
  keys: number[];
  /** For a key of the page that stands for issues with the same cover story: the others. */
  otherIssues: Map<number, OtherIssue[]>;
  /** Results counted (an issue with the others of its cover story as one), of up to COUNT_WINDOW matches. */
  total: number;
  countCapped: boolean;
  /** How many results relevance order reaches when a window was full, else null: all of them. */
  ranked: number | null;
  kindCounts: Map<SearchKind, number>;
  topicCounts: Map<number, number>;
}

/** The engine's own work for a search page: matching, ranking and counting, no text. */
export async function findMatches(db: Database, request: SearchRequest): Promise<Matches | null> {
  const parsed = parseQuery(request.query);
  if (!isSearchable(parsed)) return null;
  const { paging, size = SEARCH_PAGE_SIZE } = request;
  const offset = (paging.page - 1) * size;
  const limit = size * paging.loaded;
  const filters: EngineFilters = { kinds: request.kinds, topicId: request.topicId, from: request.from, to: request.to };
  const kindFilter = request.kinds.length > 0 && request.kinds.length < SEARCH_KINDS.length;
  const matchesOf = (query: ParsedQuery) =>
    Promise.all([
      newestMatches(db, query, filters, COUNT_WINDOW + 1),
      request.sort === "newest" ? ([] as Scored[]) : titleWindow(db, query, filters),
    ]);
  // The last word is read as a prefix ("leadersh") only when, read whole, it finds less than a page.
  let query = wholeWords(parsed);
  let [newest, titles] = await matchesOf(query);
  if (newest.keys.length < SEARCH_PAGE_SIZE && hasPrefix(parsed)) {
    query = parsed;
    [newest, titles] = await matchesOf(query);
  }
  const counted = newest.keys;
  // A facet's counts leave out its own filter, so that the other choices stay on offer.
  const [forKinds, forTopics] = await Promise.all([
    kindFilter ? newestMatches(db, query, { ...filters, kinds: [] }, COUNT_WINDOW + 1) : newest,
    request.topicId !== null ? newestMatches(db, query, { ...filters, topicId: null }, COUNT_WINDOW + 1) : newest,
  ]);
  // Newest first, the counted keys are the list itself: paging stops where counting does. The
  // list, its count and the type counts all count the issues with one cover story once.
  const counting = counted.slice(0, COUNT_WINDOW);
  const listed = await groupIssues(db, request.sort === "newest" ? counting : relevanceOrder(titles, counting));
  const countedResults = request.sort === "newest" ? listed : await groupIssues(db, counting);
  const page = listed.slice(offset, offset + limit);
  const full = request.sort !== "newest" && (titles.length === TITLE_WINDOW || counted.length > COUNT_WINDOW);
  const kindCounts = new Map<SearchKind, number>();
  for (const { key } of forKinds === newest ? countedResults : await groupIssues(db, forKinds.keys.slice(0, COUNT_WINDOW)))
    kindCounts.set(kindOfKey(key), (kindCounts.get(kindOfKey(key)) ?? 0) + 1);
  const topicCounts = await countTopics(db, forTopics);
  return {
    keys: page.map((g) => g.key),
    otherIssues: new Map(page.filter((g) => g.others.length > 0).map((g) => [g.key, g.others])),
    total: countedResults.length,
    countCapped: [newest, forKinds, forTopics].some((m) => m.keys.length > COUNT_WINDOW),
    ranked: full ? listed.length : null,
    kindCounts,
    topicCounts,
  };
}

export async function searchContent(db: Database, request: SearchRequest, access: BodyAccess): Promise<SearchResults> {
  const { paging, size = SEARCH_PAGE_SIZE } = request;
  const empty = { number: paging.page, loaded: paging.loaded, last: 1, size, total: 0 };
  const matches = await findMatches(db, request);
  if (!matches) return { entries: [], page: empty, countCapped: false, kinds: [], topics: [] };
  const { keys, otherIssues, total, ranked, kindCounts, topicCounts } = matches;
  const [topics, documents] = await Promise.all([listTopics(db), resultsInOrder(db, keys)]);
  const topicRows = topics.filter((t) => topicCounts.has(t.id)).map(({ id, name, slug }) => ({ id, name, slug }));
  return {
    entries: asResults(documents, parseQuery(request.query).terms, access, otherIssues),
    page: { ...empty, last: lastPage(ranked ?? total, size), total },
    countCapped: matches.countCapped,
    kinds: SEARCH_KINDS.map((kind) => ({ kind, count: kindCounts.get(kind) ?? 0 })).filter(
      (k) => k.count > 0 || request.kinds.includes(k.kind),
    ),
    topics: topicRows
      .map((t) => ({ ...t, count: topicCounts.get(t.id) ?? 0 }))
      .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name)),
  };
}

/**
 * The list in order of relevance: the documents whose titles hold the words, by their title's
 * score (newer first between equals), then every other counted match, newest first. Scoring
 * bodies is left out on purpose: FTS5's bm25 first counts every document holding each word,
 * 3–4 ms for a word most articles hold, where the rest of a search costs about 1 (ADR 030).
 */
function relevanceOrder(titles: Scored[], counting: number[]): number[] {
  const inTitle = new Set(titles.map((t) => t.key));
  return [
    ...[...titles].sort((a, b) => b.score - a.score || a.key - b.key).map((t) => t.key),
    ...counting.filter((key) => !inTitle.has(key)),
  ];
}

function asResults(
  rows: ResultRow[],
  terms: ReturnType<typeof parseQuery>["terms"],
  access: BodyAccess,
  otherIssues: Map<number, OtherIssue[]>,
): SearchResult[] {
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    title: r.title,
    url: r.url,
    label: r.label,
    image: r.image,
    published: r.published,
    snippet: snippet(snippetTexts(r, access), terms),
    otherIssues: otherIssues.get(r.id) ?? [],
  }));
}

/** The teaser's parts, then the body's paragraphs the reader may read: parsed only if the teaser lacks a word. */
function* snippetTexts(row: ResultRow, access: BodyAccess): Generator<string> {
  yield* row.teaser.split("\n\n");
  if (row.body === null) return;
  const blocks = parseBody(row.body);
  for (const block of access === "full" ? blocks : blocks.slice(0, access.previewBlocks)) yield blockText(block);
}

/** Spec 9: auto-suggest offers up to 6 records and 3 subjects. */
export const SUGGESTED_RECORDS = 6;
export const SUGGESTED_SUBJECTS = 3;

export interface Suggestions {
  records: { title: string; link: string; contentType: string }[];
  subjects: { name: string; link: string }[];
}

/** Topics whose name has a word starting with what the reader typed, by name. */
export async function matchingSubjects(db: Database, text: string, limit = SUGGESTED_SUBJECTS): Promise<Suggestions["subjects"]> {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  if (words.length === 0) return [];
  const typed = words.join(" ");
  return (await listTopics(db))
    .filter((t) => {
      const name = t.name.toLowerCase();
      return name.startsWith(typed) || name.includes(` ${typed}`);
    })
    .slice(0, limit)
    .map((t) => ({ name: t.name, link: t.url }));
}

/** Titles and topics for what a reader has typed so far (spec: search/auto-suggest). */
export async function suggest(db: Database, term: string): Promise<Suggestions> {
  const text = term.trim();
  if (text.length < SUGGEST_MIN_CHARS) return { records: [], subjects: [] };
  const query = parseQuery(text);
  const [titles, subjects] = await Promise.all([
    isSearchable(query) ? titlesMatching(db, query, SUGGESTED_RECORDS * 4) : Promise.resolve([]),
    matchingSubjects(db, text),
  ]);
  // Several documents can share a title (a reprinted feature); a suggestion names each title once.
  const seen = new Set<string>();
  const records = titles
    .filter((t) => !seen.has(t.title) && Boolean(seen.add(t.title)))
    .slice(0, SUGGESTED_RECORDS)
    .map((t) => ({ title: t.title, link: t.url, contentType: t.label }));
  return { records, subjects };
}
