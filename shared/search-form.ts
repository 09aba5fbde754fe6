import { z } from "zod";
import { isSearchKind, type SearchKind } from "./search-kinds";
import { FIRST_YEAR, normaliseQuery } from "./search-query";

export type SearchSortOption = "relevance" | "newest";

/** What the search page's GET form sends, read leniently: a value that makes no sense is dropped, not refused. */
export interface SearchForm {
  q: string;
  types: SearchKind[];
  topic: string | null;
  from: number | null;
  to: number | null;
  sort: SearchSortOption;
}

const year = z.coerce.number().int().min(FIRST_YEAR).max(2100);
const topicSlug = z.string().regex(/^[a-z0-9-]{1,80}$/);

export function readSearchForm(params: URLSearchParams): SearchForm {
  const pick = <T>(schema: z.ZodType<T>, value: string | null): T | null => {
    if (value === null || value === "") return null;
    const parsed = schema.safeParse(value);
    return parsed.success ? parsed.data : null;
  };
  let from = pick(year, params.get("from"));
  let to = pick(year, params.get("to"));
  // "From 2020 to 2010" is read as the years between them.
  if (from !== null && to !== null && from > to) [from, to] = [to, from];
  return {
    q: normaliseQuery(params.get("q")),
    types: [...new Set(params.getAll("type").filter(isSearchKind))],
    topic: pick(topicSlug, params.get("topic")),
    from,
    to,
    sort: params.get("sort") === "newest" ? "newest" : "relevance",
  };
}
