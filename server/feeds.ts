import fs from "node:fs";
import type { Database } from "./db/connection";
import { latestArticles } from "./articles";
import { episodeAudioFile, podcastSeries, podcastSeriesList } from "./podcasts";
import { STREAM_PAGES } from "./streams";
import { articlePath, issuePath, podcastAudioPath, podcastCoverPath, podcastFeedPath, podcastSeriesPath, productPath, topicPath, videoPath } from "../shared/urls";

const escapeXml = (s: string) =>
  s.replace(/[<>&"']/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c]!);

/** Articles per sitemap file (the protocol allows 50,000; smaller files are cheaper to build). */
export const ARTICLES_PER_SITEMAP = 10_000;

/** RSS 2.0 feed of the latest articles: titles and summaries only, never the body. */
export async function latestFeed(db: Database, siteUrl: string, siteName: string): Promise<string> {
  const items = await latestArticles(db, 30);
  const entries = items
    .map(
      (a) => `<item><title>${escapeXml(a.title)}</title><link>${siteUrl}${a.url}</link><guid isPermaLink="true">${siteUrl}${a.url}</guid><description>${escapeXml(a.summary)}</description><category>${escapeXml(a.topic.name)}</category>${a.authors.map((au) => `<dc:creator>${escapeXml(au.name)}</dc:creator>`).join("")}<pubDate>${new Date(`${a.published}T12:00:00Z`).toUTCString()}</pubDate></item>`,
    )
    .join("");
  return `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:atom="http://www.w3.org/2005/Atom"><channel><title>${escapeXml(siteName)}: The Latest</title><link>${siteUrl}/the-latest</link><atom:link href="${siteUrl}/feeds/latest.xml" rel="self" type="application/rss+xml"/><description>The newest articles from ${escapeXml(siteName)}.</description><language>en-us</language>${entries}</channel></rss>`;
}

/**
 * A podcast series as a podcast feed (RSS 2.0 with the iTunes tags podcast apps read): every
 * episode with its audio as an enclosure; undefined for an unknown series.
 */
export async function podcastFeed(db: Database, slug: string, siteUrl: string, siteName: string): Promise<string | undefined> {
  const series = await podcastSeries(db, slug);
  if (!series) return undefined;
  const hosts = series.hosts.join(" and ");
  const items = series.tabs
    .flatMap((t) => t.episodes)
    .map((e) => {
      const audio = episodeAudioFile({ seriesSlug: series.slug, season: e.season, episode: e.episode });
      const bytes = fs.statSync(audio, { throwIfNoEntry: false })?.size ?? 0;
      return `<item><title>${escapeXml(e.title)}</title><link>${escapeXml(siteUrl + e.url)}</link><guid isPermaLink="false">${escapeXml(`podcast-episode-${e.id}@${new URL(siteUrl).host}`)}</guid><description>${escapeXml(e.description)}</description><pubDate>${new Date(`${e.published}T10:00:00Z`).toUTCString()}</pubDate><enclosure url="${siteUrl}${podcastAudioPath(e.id)}" length="${bytes}" type="audio/mpeg"/><itunes:duration>${e.durationSeconds}</itunes:duration><itunes:episodeType>${e.episodeType}</itunes:episodeType>${series.feedType === "serial" ? `<itunes:season>${e.season}</itunes:season>` : ""}<itunes:episode>${e.episode}</itunes:episode></item>`;
    })
    .join("");
  return `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:atom="http://www.w3.org/2005/Atom"><channel><title>${escapeXml(series.title)}</title><link>${siteUrl}${podcastSeriesPath(series.slug)}</link><atom:link href="${siteUrl}${podcastFeedPath(series.slug)}" rel="self" type="application/rss+xml"/><description>${escapeXml(series.description)}</description><language>en-us</language><copyright>${escapeXml(siteName)}</copyright><itunes:author>${escapeXml(hosts)}</itunes:author><itunes:image href="${siteUrl}${podcastCoverPath(series.slug)}"/><itunes:type>${series.feedType}</itunes:type><itunes:explicit>false</itunes:explicit><itunes:category text="Business"/>${items}</channel></rss>`;
}

const urlEntry = (siteUrl: string, loc: string, lastmod?: string) =>
  `<url><loc>${escapeXml(siteUrl + loc)}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ""}</url>`;
const urlSet = (urls: string[]) => `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.join("")}</urlset>`;

/** The sitemap index: one file for pages, topics and issues, then the articles in numbered files. */
export async function sitemapIndex(db: Database, siteUrl: string): Promise<string> {
  const row = await db.selectFrom("article").select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow();
  const files = Math.max(1, Math.ceil(Number(row.n) / ARTICLES_PER_SITEMAP));
  const locs = [`${siteUrl}/sitemaps/pages.xml`, ...Array.from({ length: files }, (_, i) => `${siteUrl}/sitemaps/articles-${i + 1}.xml`)];
  return `<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs.map((l) => `<sitemap><loc>${escapeXml(l)}</loc></sitemap>`).join("")}</sitemapindex>`;
}

export async function pagesSitemap(db: Database, siteUrl: string): Promise<string> {
  const fixed = ["/", "/topics", "/magazine", "/video", "/podcasts", "/subscriptions", "/store", ...Object.keys(STREAM_PAGES).map((s) => `/${s}`)];
  const [topics, issues, videos, products, podcasts] = await Promise.all([
    db.selectFrom("topic").select("slug").orderBy("slug").execute(),
    db.selectFrom("magazine_issue").select("code").orderBy("id", "desc").execute(),
    db.selectFrom("video").select(["id", "slug", "published"]).orderBy("id").execute(),
    db
      .selectFrom("product_availability as a")
      .innerJoin("product as p", "p.id", "a.product_id")
      .select(["p.slug", "a.id as availabilityId"])
      .orderBy("a.id")
      .execute(),
    podcastSeriesList(db),
  ]);
  return urlSet([
    ...fixed.map((p) => urlEntry(siteUrl, p)),
    ...videos.map((v) => urlEntry(siteUrl, videoPath(v), v.published)),
    ...podcasts.map((p) => urlEntry(siteUrl, podcastSeriesPath(p.slug))),
    ...topics.map((t) => urlEntry(siteUrl, topicPath(t.slug))),
    ...issues.map((i) => urlEntry(siteUrl, issuePath(i.code))),
    ...products.map((p) => urlEntry(siteUrl, productPath(p))),
  ]);
}

/** Articles file `n` (from 1), oldest first so that existing files keep their contents; undefined past the end. */
export async function articlesSitemap(db: Database, siteUrl: string, n: number): Promise<string | undefined> {
  const articles = await db
    .selectFrom("article")
    .select(["slug", "year", "month", "published"])
    .orderBy("id")
    .limit(ARTICLES_PER_SITEMAP)
    .offset((n - 1) * ARTICLES_PER_SITEMAP)
    .execute();
  if (articles.length === 0 && n > 1) return undefined;
  return urlSet(articles.map((a) => urlEntry(siteUrl, articlePath(a), a.published)));
}

export function robotsTxt(siteUrl: string): string {
  return ["User-agent: *", "Disallow: /preferences/", "Disallow: /magazine/find", "Disallow: /search", "Disallow: /subscriptions/", "Disallow: /sandbox-checkout/", "Disallow: /service/", "Disallow: /api/", "Disallow: /video/embed/", "", `Sitemap: ${siteUrl}/sitemap.xml`, ""].join("\n");
}
