// Where the desk changes an article's hero image and an author's photo: other desk pages link here.

export const articleImagePath = (id: number) => `/desk/articles/${id}/image`;
export const authorPhotoPath = (slug: string) => `/desk/authors/${encodeURIComponent(slug)}/photo`;
