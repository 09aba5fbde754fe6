import { topicHeadlineSegment } from "./content/slugs";

const pad = (n: number) => String(n).padStart(2, "0");

export const articlePath = (a: { year: number; month: number; slug: string }) => `/${a.year}/${pad(a.month)}/${a.slug}`;
export const topicPath = (slug: string) => `/topic/subject/${slug}`;
export const topicHeadlinePath = (name: string) => `/topic/${encodeURIComponent(topicHeadlineSegment(name))}`;
export const issuePath = (code: string) => `/archive-toc/${code}`;
export const articleArtPath = (slug: string) => `/art/article/${slug}.svg`;
export const issueCoverPath = (code: string) => `/art/issue/${code}.svg`;
export const productPath = (p: { slug: string; availabilityId: number }) => `/product/${p.slug}/${p.availabilityId}`;
