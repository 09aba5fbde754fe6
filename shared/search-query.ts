// What the search box and the search page share. Nothing here may import zod: the header
// search box is on every page, and would put it in every page's JavaScript.
export const MAX_QUERY_LENGTH = 200;
/** The archive's first issue; the date filter offers years from here. */
export const FIRST_YEAR = 1956;

/** Normalises a search box value: trimmed, inner whitespace folded, bounded in length. */
export function normaliseQuery(raw: string | null): string {
  return (raw ?? "").replace(/\s+/g, " ").trim().slice(0, MAX_QUERY_LENGTH);
}
