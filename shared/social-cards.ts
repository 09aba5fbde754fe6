// A page's social card: the 1200 × 630 PNG that og:image names (server/images/art.ts draws it). Each
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

/** A card's address and its alt text: the site's name and the title the card shows in large type. */
export const socialCard = (kind: SocialCardKind, key: string | number, title: string) => ({
  path: socialCardPath(kind, key),
  alt: `Meridian Review: ${title}`,
});

/** The home page's card shows the site's motto under its name, and says it in its alt text; a page that names no card of its own shares it. */
export const HOME_LINE = "Ideas and advice for leaders";
export const HOME_CARD = socialCard("page", "home", HOME_LINE);
