// The kinds of content search finds, in the order the type filter lists them.
export const SEARCH_KINDS = ["article", "video", "podcast", "issue", "product"] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

export const SEARCH_KIND_NAMES: Record<SearchKind, string> = {
  article: "Articles",
  video: "Videos",
  podcast: "Podcast episodes",
  issue: "Magazine issues",
  product: "Store",
};

export const isSearchKind = (value: string): value is SearchKind => (SEARCH_KINDS as readonly string[]).includes(value);

/** How many of the newest matches search counts; beyond it a search has "more than" this many (server/search/engine.ts). */
export const COUNT_WINDOW = 1000;
