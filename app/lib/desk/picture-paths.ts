// Where the desk changes an article's hero image, an author's photo and an issue's cover: other desk pages link here.

export const articleImagePath = (id: number) => `/desk/articles/${id}/image`;
export const authorPhotoPath = (slug: string) => `/desk/authors/${encodeURIComponent(slug)}/photo`;
export const issueCoverPagePath = (id: number) => `/desk/magazine/${id}/cover`;
