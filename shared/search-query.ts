export const MAX_QUERY_LENGTH = 200;

/** Normalises a search box value: trimmed, inner whitespace folded, bounded in length. */
export function normaliseQuery(raw: string | null): string {
  return (raw ?? "").replace(/\s+/g, " ").trim().slice(0, MAX_QUERY_LENGTH);
}
