// Where the desk changes an article's hero image, an author's photo, an issue's cover and a product's cover: other desk pages link here.

export const articleImagePath = (id: number) => `/desk/articles/${id}/image`;
export const authorPhotoPath = (slug: string) => `/desk/authors/${encodeURIComponent(slug)}/photo`;
export const issueCoverPagePath = (id: number) => `/desk/magazine/${id}/cover`;
export const productCoverPagePath = (id: number) => `/desk/products/${id}/cover`;
