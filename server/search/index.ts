// Search as the site offers it: a page of results with snippets and facet counts, and the
// auto-suggest answer. Which text a snippet may come from is decided here, from what the
// reader may read: a gated paragraph finds an article for anyone, but shows only to the entitled.
import { sql } from "kysely";
import type { Database } from "../db/connection";
import { parseBody, blockText } from "../content/markdown";
import { lastPage, type Paging } from "../../shared/pagination";
import { SEARCH_KINDS, type SearchKind } from "../../shared/search-kinds";
import { topicPath } from "../../shared/urls";
import { countsByKind, countsByTopic, matchingDocuments, titlesMatching, type DocumentRow, type EngineFilters, type SearchSort } from "./engine";
import { isSearchable, parseQuery } from "./query";
import { snippet, type SnippetPart } from "./snippets";

export type { SearchSort } from "./engine";
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
}

/** How much of a gated article's body the reader may see: the free preview, or all of it. */
export type BodyAccess = { previewBlocks: number } | "full";

export interface SearchResult {
  id: number;
  kind: SearchKind;
  title: string;
  url: string;
  label: string;
  image: string;
  published: string;
  snippet: SnippetPart[];
}

export interface SearchResults {
  entries: SearchResult[];
  page: { number: number; loaded: number; last: number; size: number; total: number };
  kinds: { kind: SearchKind; count: number }[];
  topics: { id: number; name: string; slug: string; count: number }[];
}

export async function searchContent(db: Database, request: SearchRequest, access: BodyAccess): Promise<SearchResults> {
  const query = parseQuery(request.query);
  const { paging } = request;
  const empty = { number: paging.page, loaded: paging.loaded, last: 1, size: SEARCH_PAGE_SIZE, total: 0 };
  if (!isSearchable(query)) return { entries: [], page: empty, kinds: [], topics: [] };
  const filters: EngineFilters = { kinds: request.kinds, topicId: request.topicId, from: request.from, to: request.to };
  const [rows, byKind, byTopic] = await Promise.all([
    matchingDocuments(db, query, filters, request.sort, SEARCH_PAGE_SIZE * paging.loaded, (paging.page - 1) * SEARCH_PAGE_SIZE),
    countsByKind(db, query, filters),
    countsByTopic(db, query, filters),
  ]);
  const selected: readonly SearchKind[] = request.kinds.length > 0 ? request.kinds : SEARCH_KINDS;
  const total = selected.reduce((sum, kind) => sum + (byKind.get(kind) ?? 0), 0);
  const topicIds = [...byTopic.keys()];
  const topicRows =
    topicIds.length === 0 ? [] : await db.selectFrom("topic").select(["id", "name", "slug"]).where("id", "in", topicIds).execute();
  return {
    entries: await withSnippets(db, rows, query.terms, access),
    page: { ...empty, last: lastPage(total, SEARCH_PAGE_SIZE), total },
    kinds: SEARCH_KINDS.map((kind) => ({ kind, count: byKind.get(kind) ?? 0 })).filter((k) => k.count > 0 || request.kinds.includes(k.kind)),
    topics: topicRows
      .map((t) => ({ ...t, count: byTopic.get(t.id) ?? 0 }))
      .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name)),
  };
}

async function withSnippets(
  db: Database,
  rows: DocumentRow[],
  terms: ReturnType<typeof parseQuery>["terms"],
  access: BodyAccess,
): Promise<SearchResult[]> {
  const articleIds = rows.filter((r) => r.kind === "article").map((r) => r.ref_id);
  const bodies =
    articleIds.length === 0 ? [] : await db.selectFrom("article").select(["id", "body"]).where("id", "in", articleIds).execute();
  const readable = new Map(
    bodies.map((b) => {
      const blocks = parseBody(b.body);
      return [b.id, (access === "full" ? blocks : blocks.slice(0, access.previewBlocks)).map(blockText)];
    }),
  );
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    title: r.title,
    url: r.url,
    label: r.label,
    image: r.image,
    published: r.published,
    snippet: snippet([...r.teaser.split("\n\n"), ...(r.kind === "article" ? (readable.get(r.ref_id) ?? []) : [])], terms),
  }));
}

/** Spec 9: auto-suggest offers up to 6 records and 3 subjects. */
export const SUGGESTED_RECORDS = 6;
export const SUGGESTED_SUBJECTS = 3;
/** Spec 5: suggestions start above 2 characters. */
export const SUGGEST_MIN_CHARS = 3;

export interface Suggestions {
  records: { title: string; link: string; contentType: string }[];
  subjects: { name: string; link: string }[];
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Topics whose name has a word starting with what the reader typed. */
export async function matchingSubjects(db: Database, text: string, limit = SUGGESTED_SUBJECTS): Promise<Suggestions["subjects"]> {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  if (words.length === 0) return [];
  const typed = escapeLike(words.join(" "));
  const rows = await db
    .selectFrom("topic")
    .select(["name", "slug"])
    .where(({ or }) => or([sql<boolean>`lower(name) like ${`${typed}%`} escape '\\'`, sql<boolean>`lower(name) like ${`% ${typed}%`} escape '\\'`]))
    .orderBy("name")
    .limit(limit)
    .execute();
  return rows.map((t) => ({ name: t.name, link: topicPath(t.slug) }));
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
