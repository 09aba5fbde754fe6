// The generated pictures' sizes: the server draws them, pages state them in <img> and og:image.

export const ARTICLE_ART_SIZE = { width: 1200, height: 675 } as const;
export const ISSUE_COVER_SIZE = { width: 600, height: 800 } as const;
export const VIDEO_POSTER_SIZE = { width: 1280, height: 720 } as const;
export const PODCAST_COVER_SIZE = { width: 600, height: 600 } as const;
export const PRODUCT_COVER_SIZE = { width: 600, height: 800 } as const;
/** A visual-library chart: drawn in the article picture's place, so at its size. */
export const CHART_SIZE = ARTICLE_ART_SIZE;
/** The chart's PNG download: twice the drawing's size, sharp on slides and high-density screens. */
export const CHART_PNG_SCALE = 2;
/** A podcast's artwork for the directories: Apple takes a square PNG of 1,400 to 3,000 pixels. */
export const PODCAST_ARTWORK_PX = 3000;
/** A page's picture for social networks (og:image): Facebook, X and LinkedIn show 1.91:1 at this size. */
export const SOCIAL_CARD_SIZE = { width: 1200, height: 630 } as const;
/** A store product's cover as a PNG (Product.image in JSON-LD): twice its drawn size, over the 500 px Google asks of a side. */
export const PRODUCT_PNG_SCALE = 2;
