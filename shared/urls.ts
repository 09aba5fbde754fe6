import { slugify, topicHeadlineSegment } from "./slugs";

const pad = (n: number) => String(n).padStart(2, "0");

export const articlePath = (a: { year: number; month: number; slug: string }) => `/${a.year}/${pad(a.month)}/${a.slug}`;
/** Whether a path is an article page's (the route $year.$month.$slug and its checks). */
export const isArticlePath = (pathname: string) => /^\/\d{4}\/\d{1,2}\/[a-z0-9-]{1,120}$/.test(pathname);
export const topicPath = (slug: string) => `/topic/subject/${slug}`;
export const topicHeadlinePath = (name: string) => `/topic/${encodeURIComponent(topicHeadlineSegment(name))}`;
export const issuePath = (code: string) => `/archive-toc/${code}`;
export const articleArtPath = (slug: string) => `/art/article/${slug}.svg`;
/** A visual-library article's chart, drawn from its data: public, as the article page shows it. */
export const chartArtPath = (slug: string) => `/art/chart/${slug}.svg`;
/**
 * What an issue's drawn cover and social card are named by: its code, then from its second save
 * its version too, so that a new title is drawn at a new address and no cache (a process's, a
 * browser's) keeps showing the old one.
 */
export const issueArtKey = (issue: { code: string; version: number }) =>
  issue.version > 1 ? `${issue.code}-v${issue.version}` : issue.code;
/** The issue code an art key names; undefined for anything else. */
export const issueCodeOfArtKey = (key: string) => /^(BR\d{4}|\d{4})(?:-v[1-9]\d{0,8})?$/.exec(key)?.[1];
export const issueCoverPath = (artKey: string) => `/art/issue/${artKey}.svg`;
export const productPath = (p: { slug: string; availabilityId: number }) => `/product/${p.slug}/${p.availabilityId}`;
export const videoPath = (v: { id: number; slug: string }) => `/video/${v.id}/${v.slug}`;
export const videoEmbedPath = (v: { id: number; slug: string }) => `/video/embed/${v.id}/${v.slug}`;
export const videoPosterPath = (slug: string) => `/art/video/${slug}.svg`;
export const videoMediaPath = (id: number, kind: "webm" | "mp4" | "vtt") => `/media/video/${id}.${kind}`;
export const libraryFolderPath = (slug: string) => `/my-library/library/${slug}`;
export const podcastSeriesPath = (slug: string) => `/podcasts/${slug}`;
/** An episode's own page: its id, then its title's words (only the id finds it; the words are for people). */
export const podcastEpisodePath = (seriesSlug: string, e: { id: number; title: string }) =>
  `/podcasts/${seriesSlug}/${e.id}-${slugify(e.title)}`;
/** An episode's square cover, drawn in its show's colours: SVG for pages, PNG for the feed's `itunes:image`. */
export const episodeCoverPath = (id: number, format: "svg" | "png") => `/art/episode/${id}.${format}`;
export const podcastCoverPath = (slug: string) => `/art/podcast/${slug}.svg`;
/** The same cover as a PNG, for podcast directories (Apple takes no SVG). */
export const podcastArtworkPath = (slug: string) => `/art/podcast/${slug}.png`;
export const productCoverPath = (slug: string, format: "svg" | "png" = "svg") => `/art/product/${slug}.${format}`;
export const podcastAudioPath = (id: number) => `/media/podcast/${id}.mp3`;
export const podcastFeedPath = (slug: string) => `/podcasts/${slug}/feed.xml`;

/** A reading list's own page. */
export const readingListPath = (slug: string) => `/reading-lists/${slug}`;
