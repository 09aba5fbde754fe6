import type { Database } from "./db/connection";
import { latestArticles } from "./articles";
import { STREAM_PAGES } from "./streams";
import { articlePath, issuePath, productPath, topicPath, videoPath } from "./urls";

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
  const fixed = ["/", "/topics", "/magazine", "/video", "/subscriptions", "/store", ...Object.keys(STREAM_PAGES).map((s) => `/${s}`)];
  const [topics, issues, videos, products] = await Promise.all([
    db.selectFrom("topic").select("slug").orderBy("slug").execute(),
    db.selectFrom("magazine_issue").select("code").orderBy("id", "desc").execute(),
    db.selectFrom("video").select(["id", "slug", "published"]).orderBy("id").execute(),
    db
      .selectFrom("product_availability as a")
      .innerJoin("product as p", "p.id", "a.product_id")
      .select(["p.slug", "a.id as availabilityId"])
      .orderBy("a.id")
      .execute(),
  ]);
  return urlSet([
    ...fixed.map((p) => urlEntry(siteUrl, p)),
    ...videos.map((v) => urlEntry(siteUrl, videoPath(v), v.published)),
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
