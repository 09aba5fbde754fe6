// A page's social card: the 1200 × 630 PNG that og:image names (server/art.ts draws it). Each
// kind of page has its own, found by a key: an article's slug, an issue's code, a page's name…

export const SOCIAL_CARD_KINDS = [
  "page",
  "stream",
  "topic",
  "article",
  "reading-list",
  "issue",
  "product",
  "video",
  "podcast",
  "episode",
] as const;
export type SocialCardKind = (typeof SOCIAL_CARD_KINDS)[number];

export const socialCardPath = (kind: SocialCardKind, key: string | number) => `/art/card/${kind}/${key}.png`;

/** The cards of pages that are not content: the page's own title, and a line on what it holds. */
export const PAGE_CARDS = {
  home: { title: "Meridian Review", line: "Ideas and advice for leaders" },
  topics: { title: "Topics", line: "Every subject we cover, from strategy and innovation to managing yourself" },
  magazine: { title: "Magazine Archive", line: "Every issue since 1956, with its covers and features" },
  video: { title: "Video", line: "Managers and researchers on strategy, operations, finance and leadership" },
  podcasts: { title: "Podcasts", line: "Narrated series and conversations, to play here or in any podcast app" },
  store: { title: "Store", line: "Books, case studies, reprints, toolkits and magazine issues" },
  subscriptions: { title: "Subscribe", line: "Every article, video and podcast, and the archive since 1956" },
  "reading-lists": { title: "Reading lists", line: "Articles our editors put together to read in order" },
  "email-newsletters": { title: "Email Newsletters", line: "What each one covers and how often it arrives" },
  "privacy-policy": { title: "Privacy policy", line: "What we record about readers, why, and for how long" },
  "subscriber-help": { title: "Subscriber help", line: "Your account and subscription, and how to reach Customer Service" },
} as const;
export type PageCardName = keyof typeof PAGE_CARDS;

export const isPageCardName = (name: string): name is PageCardName => Object.hasOwn(PAGE_CARDS, name);

/** A card's address and its alt text: the site's name and the title the card shows in large type. */
export const socialCard = (kind: SocialCardKind, key: string | number, title: string) => ({
  path: socialCardPath(kind, key),
  alt: `Meridian Review: ${title}`,
});

export const pageCard = (name: PageCardName) => socialCard("page", name, name === "home" ? PAGE_CARDS.home.line : PAGE_CARDS[name].title);
