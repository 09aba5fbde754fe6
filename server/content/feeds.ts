import fs from "node:fs";
import { create } from "xmlbuilder2";
import type { Database } from "~/server/db/connection";
import { escapeHtml } from "~/server/text/escape";
import { latestArticles } from "./articles";
import { episodeAudioFile, podcastSeries, podcastSeriesList } from "./podcasts";
import { STORE_PAGE_SIZE, storeListings } from "~/server/store/catalogue";
import { pageSize, streamsWithSizes } from "./streams";
import { VIDEO_PAGE_SIZE } from "./videos";
import { lastPage } from "~/shared/pagination";
import { storePath } from "~/shared/store-choices";
import {
  articlePath,
  episodeCoverPath,
  issuePath,
  podcastArtworkPath,
  podcastAudioPath,
  podcastEpisodePath,
  podcastFeedPath,
  podcastSeriesPath,
  productPath,
  readingListPath,
  videoPath,
} from "~/shared/urls";

type XmlElement = ReturnType<typeof create>;

const SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9";
const ITUNES_NS = "http://www.itunes.com/dtds/podcast-1.0.dtd";
const DC_NS = "http://purl.org/dc/elements/1.1/";
const ATOM_NS = "http://www.w3.org/2005/Atom";

/**
 * A document's root element; the builder escapes every text and attribute value it is given, and
 * leaves out the characters XML 1.0 cannot hold even escaped (control characters such as a
 * pasted vertical tab, U+FFFE): one of them in a title would make the whole feed unreadable.
 */
const xmlRoot = (name: string, attributes: Record<string, string>) =>
  create({ version: "1.0", encoding: "UTF-8", invalidCharReplacement: "" }).ele(name, attributes);
const serialise = (root: XmlElement) => root.end({ prettyPrint: true });

/** Articles per sitemap file (the protocol allows 50,000): a file of 5,000 costs about 25 ms to build and compress. */
export const ARTICLES_PER_SITEMAP = 5_000;

/** RSS 2.0 feed of the latest articles: titles and summaries only, never the body. */
export async function latestFeed(db: Database, siteUrl: string, siteName: string): Promise<string> {
  const items = await latestArticles(db, 30);
  const rss = xmlRoot("rss", { version: "2.0", "xmlns:dc": DC_NS, "xmlns:atom": ATOM_NS });
  const channel = rss.ele("channel");
  channel.ele("title").txt(`${siteName}: The Latest`);
  channel.ele("link").txt(`${siteUrl}/the-latest`);
  channel.ele("atom:link", { href: `${siteUrl}/feeds/latest.xml`, rel: "self", type: "application/rss+xml" });
  channel.ele("description").txt(`The newest articles from ${siteName}.`);
  channel.ele("language").txt("en-us");
  for (const a of items) {
    const item = channel.ele("item");
    item.ele("title").txt(a.title);
    item.ele("link").txt(siteUrl + a.url);
    item.ele("guid", { isPermaLink: "true" }).txt(siteUrl + a.url);
    item.ele("description").txt(a.summary);
    item.ele("category").txt(a.topic.name);
    for (const author of a.authors) item.ele("dc:creator").txt(author.name);
    item.ele("pubDate").txt(new Date(`${a.published}T12:00:00Z`).toUTCString());
  }
  return serialise(rss);
}

/** Who the directories write to about a show (Apple sends its ownership check to this address). */
export interface PodcastOwner {
  name: string;
  email: string;
}

/**
 * A podcast series as a podcast feed (RSS 2.0 with the iTunes tags podcast apps read): every
 * episode with its audio as an enclosure, its own page as its link and its own cover; undefined
 * for an unknown series.
 */
export async function podcastFeed(db: Database, slug: string, siteUrl: string, owner: PodcastOwner): Promise<string | undefined> {
  const series = await podcastSeries(db, slug);
  if (!series) return undefined;
  const rss = xmlRoot("rss", { version: "2.0", "xmlns:itunes": ITUNES_NS, "xmlns:atom": ATOM_NS });
  const channel = rss.ele("channel");
  channel.ele("title").txt(series.title);
  channel.ele("link").txt(siteUrl + podcastSeriesPath(series.slug));
  channel.ele("atom:link", { href: siteUrl + podcastFeedPath(series.slug), rel: "self", type: "application/rss+xml" });
  channel.ele("description").txt(series.description);
  channel.ele("language").txt("en-us");
  channel.ele("copyright").txt(owner.name);
  channel.ele("itunes:author").txt(series.hosts.join(" and "));
  const itunesOwner = channel.ele("itunes:owner");
  itunesOwner.ele("itunes:name").txt(owner.name);
  itunesOwner.ele("itunes:email").txt(owner.email);
  // Apple takes a square PNG or JPEG of 1,400 to 3,000 pixels in RGB, never SVG.
  channel.ele("itunes:image", { href: siteUrl + podcastArtworkPath(series.slug) });
  channel.ele("itunes:type").txt(series.feedType);
  channel.ele("itunes:explicit").txt("false");
  channel.ele("itunes:category", { text: "Business" });
  // An uploaded MP3 (ADR 083) in place of the seed's file: its size is in its row.
  const uploads = await db
    .selectFrom("podcast_episode as e")
    .innerJoin("media_file as f", "f.id", "e.audio_file_id")
    .select(["e.id", "f.bytes"])
    .where("e.series_id", "=", series.id)
    .where("f.complete", "=", 1)
    .execute();
  for (const e of series.tabs.flatMap((t) => t.episodes)) {
    const seed = () => episodeAudioFile({ seriesSlug: series.slug, season: e.season, episode: e.episode });
    const bytes = uploads.find((u) => u.id === e.id)?.bytes ?? fs.statSync(seed(), { throwIfNoEntry: false })?.size ?? 0;
    const item = channel.ele("item");
    item.ele("title").txt(e.title);
    item.ele("link").txt(siteUrl + e.url);
    item.ele("guid", { isPermaLink: "false" }).txt(`podcast-episode-${e.id}@${new URL(siteUrl).host}`);
    item.ele("description").txt(e.description);
    item.ele("pubDate").txt(new Date(`${e.published}T10:00:00Z`).toUTCString());
    item.ele("enclosure", { url: siteUrl + podcastAudioPath(e.id), length: String(bytes), type: "audio/mpeg" });
    item.ele("itunes:image", { href: siteUrl + episodeCoverPath(e.id, "png") });
    item.ele("itunes:duration").txt(String(e.durationSeconds));
    item.ele("itunes:episodeType").txt(e.episodeType);
    if (series.feedType === "serial") item.ele("itunes:season").txt(String(e.season));
    item.ele("itunes:episode").txt(String(e.episode));
  }
  return serialise(rss);
}

/**
 * A sitemap's URL set, written as text: the XML builder cost 20 µs a URL, 200 ms for a file of
 * 10,000 (every value escaped here as the builder would).
 */
function urlSet(siteUrl: string, entries: { loc: string; lastmod?: string }[]): string {
  const urls = entries.map(
    ({ loc, lastmod }) =>
      `  <url>\n    <loc>${escapeHtml(siteUrl + loc)}</loc>\n${lastmod ? `    <lastmod>${escapeHtml(lastmod)}</lastmod>\n` : ""}  </url>\n`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${SITEMAP_NS}">\n${urls.join("")}</urlset>`;
}

/**
 * The sitemap index: one file for pages, topics and issues, then the articles in numbered files,
 * file n holding the articles with ids from (n-1) × ARTICLES_PER_SITEMAP + 1 to n × that: a
 * file is found by its ids, never by skipping rows, and keeps its contents as articles are added.
 */
export async function sitemapIndex(db: Database, siteUrl: string): Promise<string> {
  const files = await articleSitemapFiles(db);
  const locs = [`${siteUrl}/sitemaps/pages.xml`, ...Array.from({ length: files }, (_, i) => `${siteUrl}/sitemaps/articles-${i + 1}.xml`)];
  const index = xmlRoot("sitemapindex", { xmlns: SITEMAP_NS });
  for (const loc of locs) index.ele("sitemap").ele("loc").txt(loc);
  return serialise(index);
}

async function articleSitemapFiles(db: Database): Promise<number> {
  const row = await db
    .selectFrom("article")
    .select((eb) => eb.fn.max("id").as("last"))
    .executeTakeFirst();
  return Math.max(1, Math.ceil(Number(row?.last ?? 0) / ARTICLES_PER_SITEMAP));
}

/** Pages 2 to the last of a list at `path` with `total` entries, `size` to a page (page 1 is `path`). */
function laterPages(path: string, total: number, size: number): string[] {
  return Array.from({ length: lastPage(total, size) - 1 }, (_, i) => `${path}?page=${i + 2}`);
}

/**
 * Every page a search engine may index but the articles: the site's own pages, every page of
 * each stream, topic, the video index and the store's listings, each year of the magazine's
 * archive, and each video, podcast show and episode, issue and product.
 */
export async function pagesSitemap(db: Database, siteUrl: string): Promise<string> {
  const fixed = ["/", "/topics", "/magazine", "/podcasts", "/subscriptions", "/reading-lists", "/email-newsletters", "/privacy-policy"];
  const [streams, issues, videos, products, podcasts, listings, readingLists, episodes] = await Promise.all([
    streamsWithSizes(db),
    db.selectFrom("magazine_issue").select(["code", "year"]).orderBy("id", "desc").execute(),
    db.selectFrom("video").select(["id", "slug", "published"]).orderBy("id").execute(),
    db
      .selectFrom("product_availability as a")
      .innerJoin("product as p", "p.id", "a.product_id")
      .select(["p.slug", "a.id as availabilityId"])
      // A retired format's page stays, saying so, but is no longer offered to search engines.
      .where("a.status", "!=", "R")
      .orderBy("a.id")
      .execute(),
    podcastSeriesList(db),
    storeListings(db),
    db.selectFrom("reading_list").select("slug").orderBy("slug").execute(),
    db
      .selectFrom("podcast_episode as e")
      .innerJoin("podcast_series as s", "s.id", "e.series_id")
      .select(["e.id", "e.title", "e.pub_date", "s.slug"])
      .orderBy("e.id")
      .execute(),
  ]);
  const years = [...new Set(issues.map((i) => i.year))].sort((a, b) => b - a);
  return urlSet(siteUrl, [
    ...fixed.map((p) => ({ loc: p })),
    ...streams.flatMap(({ stream, total }) => {
      const path = `/${stream.slug}`;
      return [path, ...laterPages(path, total, pageSize(stream))].map((loc) => ({ loc }));
    }),
    ...["/video", ...laterPages("/video", videos.length, VIDEO_PAGE_SIZE)].map((loc) => ({ loc })),
    ...videos.map((v) => ({ loc: videoPath(v), lastmod: v.published })),
    ...podcasts.map((p) => ({ loc: podcastSeriesPath(p.slug) })),
    ...episodes.map((e) => ({ loc: podcastEpisodePath(e.slug, e), lastmod: e.pub_date })),
    ...years.map((year) => ({ loc: `/magazine?year=${year}` })),
    ...issues.map((i) => ({ loc: issuePath(i.code) })),
    ...listings.flatMap(({ filter, total }) =>
      Array.from({ length: lastPage(total, STORE_PAGE_SIZE) }, (_, i) => ({ loc: storePath(filter, i + 1) })),
    ),
    ...products.map((p) => ({ loc: productPath(p) })),
    ...readingLists.map((l) => ({ loc: readingListPath(l.slug) })),
  ]);
}

/** Articles file `n` (from 1; see sitemapIndex); undefined past the last. */
export async function articlesSitemap(db: Database, siteUrl: string, n: number): Promise<string | undefined> {
  if (n > (await articleSitemapFiles(db))) return undefined;
  const articles = await db
    .selectFrom("article")
    .select(["slug", "year", "month", "published"])
    .where("id", ">", (n - 1) * ARTICLES_PER_SITEMAP)
    .where("id", "<=", n * ARTICLES_PER_SITEMAP)
    .orderBy("id")
    .execute();
  return urlSet(
    siteUrl,
    articles.map((a) => ({ loc: articlePath(a), lastmod: a.published })),
  );
}

export function robotsTxt(siteUrl: string): string {
  return [
    "User-agent: *",
    "Disallow: /preferences/",
    "Disallow: /magazine/find",
    "Disallow: /search",
    "Disallow: /subscriptions/",
    "Disallow: /sandbox-checkout/",
    "Disallow: /service/",
    "Disallow: /api/",
    "Disallow: /video/embed/",
    // Sign-in, registration and the menu carry the page they return to: one copy per page.
    "Disallow: /sign-in",
    "Disallow: /register",
    "Disallow: /menu",
    "",
    `Sitemap: ${siteUrl}/sitemap.xml`,
    "",
  ].join("\n");
}
