import { HOME_CARD, socialCard } from "./social-cards";

// The cards of the pages that are not content, apart from shared/social-cards.ts so that the site's
// shell, which names the home page's card for any page without one, does not carry their titles.

/** The titles of the cards of pages that are not content (server/images/social-cards.ts has the line each adds). */
export const PAGE_CARD_TITLES = {
  home: "Meridian Review",
  topics: "Topics",
  magazine: "Magazine Archive",
  video: "Video",
  podcasts: "Podcasts",
  store: "Store",
  subscriptions: "Subscribe",
  "reading-lists": "Reading lists",
  "email-newsletters": "Email Newsletters",
  "privacy-policy": "Privacy policy",
  "subscriber-help": "Subscriber help",
} as const;
export type PageCardName = keyof typeof PAGE_CARD_TITLES;

export const isPageCardName = (name: string): name is PageCardName => Object.hasOwn(PAGE_CARD_TITLES, name);

export const pageCard = (name: PageCardName) => (name === "home" ? HOME_CARD : socialCard("page", name, PAGE_CARD_TITLES[name]));
