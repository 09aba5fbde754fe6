// The store listing's addresses: its orders, as ?sort=… names them (the first is the default,
// which the address leaves out), and the address of a set of choices. Apart from server/ so that
// the page can name them, and from urls.ts so that only the store's page carries them.
export const STORE_SORTS = ["newest", "price-low", "price-high", "title"] as const;
export type StoreSort = (typeof STORE_SORTS)[number];
export const DEFAULT_STORE_SORT: StoreSort = "newest";

/** Short enough to show whole in a closed select half a phone wide. */
export const STORE_SORT_NAMES: Record<StoreSort, string> = {
  newest: "Newest",
  "price-low": "Lowest price",
  "price-high": "Highest price",
  title: "Title A–Z",
};

export const isStoreSort = (value: string | null): value is StoreSort => STORE_SORTS.includes(value as StoreSort);

/** The store's listing with these choices (slugs of a product type, a topic and a format; keywords; an order), at a page. */
export function storePath(
  choices: { type?: string | null; topic?: string | null; format?: string | null; q?: string; sort?: StoreSort },
  page = 1,
): string {
  const params = new URLSearchParams();
  if (choices.type) params.set("type", choices.type);
  if (choices.topic) params.set("topic", choices.topic);
  if (choices.format) params.set("format", choices.format);
  if (choices.q) params.set("q", choices.q);
  if (choices.sort && choices.sort !== DEFAULT_STORE_SORT) params.set("sort", choices.sort);
  if (page > 1) params.set("page", String(page));
  const query = params.toString();
  return query ? `/store?${query}` : "/store";
}
/** The store's listing with these choices (a type, topic and format each, or null for all), at a page. */
export const storeChoicesPath = (
  choices: { type: { slug: string } | null; topic: { slug: string } | null; format: { slug: string } | null; q: string; sort: StoreSort },
  page = 1,
) =>
  storePath({ type: choices.type?.slug, topic: choices.topic?.slug, format: choices.format?.slug, q: choices.q, sort: choices.sort }, page);
