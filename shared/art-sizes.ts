// The generated pictures' sizes: the server draws them, pages state them in <img> and og:image.

export const ARTICLE_ART_SIZE = { width: 1200, height: 675 } as const;
export const ISSUE_COVER_SIZE = { width: 600, height: 800 } as const;
export const VIDEO_POSTER_SIZE = { width: 1280, height: 720 } as const;
export const PODCAST_COVER_SIZE = { width: 600, height: 600 } as const;
export const PRODUCT_COVER_SIZE = { width: 600, height: 800 } as const;
