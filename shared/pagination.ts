// Stream paging as the spec describes it: numbered pages plus "Load more items",
// which renders pages page..page+loaded-1 on the server (?loaded=N).

export const MAX_STREAM_LOADS = 2;
/** Spec 9: a podcast tab shows 5 episodes at first; "Load more items" adds 5. */
export const PODCAST_PAGE_SIZE = 5;
export const MAX_PAGE = 100_000;
const UNLIMITED_LOADS_CAP = 50;

export interface Paging {
  page: number;
  loaded: number;
}

function positiveInt(value: string | null, fallback: number, max: number): number {
  if (value === null || !/^\d{1,7}$/.test(value)) return fallback;
  const n = Number(value);
  return n >= 1 ? Math.min(n, max) : fallback;
}

export function parsePaging(params: URLSearchParams, unlimited: boolean): Paging {
  return {
    page: positiveInt(params.get("page"), 1, MAX_PAGE),
    loaded: positiveInt(params.get("loaded"), 1, unlimited ? UNLIMITED_LOADS_CAP : MAX_STREAM_LOADS),
  };
}

export function lastPage(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

export type PaginationItem = { kind: "page"; number: number; current: boolean; wideOnly: boolean } | { kind: "gap" };

/**
 * Page numbers for the pagination bar. Up to 7 pages are all shown; beyond that the first
 * and last pages, the current page and two neighbours each side (one on narrow screens,
 * the others are marked wideOnly), with "..." gaps for what is skipped.
 */
export function paginationItems(current: number, last: number): PaginationItem[] {
  const page = (n: number): PaginationItem => ({
    kind: "page",
    number: n,
    current: n === current,
    wideOnly: n !== 1 && n !== last && Math.abs(n - current) === 2,
  });
  if (last <= 7) return Array.from({ length: last }, (_, i) => ({ ...page(i + 1), wideOnly: false }));
  const shown = new Set([1, last]);
  for (let n = current - 2; n <= current + 2; n++) if (n >= 1 && n <= last) shown.add(n);
  const numbers = [...shown].sort((a, b) => a - b);
  const items: PaginationItem[] = [];
  numbers.forEach((n, i) => {
    const previous = numbers[i - 1];
    if (previous !== undefined && n - previous === 2) items.push(page(n - 1));
    else if (previous !== undefined && n - previous > 2) items.push({ kind: "gap" });
    items.push(page(n));
  });
  return items;
}
