import { cardQuery, cardsOf, type ArticleCard } from "./article-cards";
import { chartImage } from "~/server/images/charts";
import { ContentCache } from "./content-cache";
import type { Database } from "~/server/db/connection";
import type { Selectable } from "kysely";
import type { ArticleTable, ContentTier } from "~/server/db/schema";
import { midpointIndex, parseBody, type Block } from "./markdown";
import { promoProduct, type ProductCard } from "~/server/store/catalogue";
import { articleArtPath, articlePath, topicHeadlinePath, topicPath } from "~/shared/urls";
import type { ImageRef } from "~/shared/uploaded-images";

export interface ArticlePage {
  id: number;
  slug: string;
  url: string;
  title: string;
  dek: string;
  subDek: string;
  summary: string;
  blocks: Block[];
  contentType: string;
  published: string;
  tier: ContentTier;
  primaryTopicId: number;
  wordCount: number;
  /** The lead picture: a visual-library article's chart, drawn from its data, else drawn art. */
  image: string;
  /** What the chart shows, as the picture's alt text; null for drawn art, which only decorates. */
  imageAlt: string | null;
  /** An uploaded hero image, shown in the drawn picture's place; null for the drawn picture. */
  hero: ImageRef | null;
  authors: { name: string; role: string; bio: string; photo: ImageRef | null }[];
  topics: { name: string; url: string; headlineUrl: string }[];
  series: { title: string; part: number; parts: { part: number; title: string; url: string }[] } | null;
  readingLists: { name: string; slug: string }[];
  /** An Ascend page: guests read these on their own meter. */
  ascend: boolean;
}

export type ArticleLookup = { kind: "found"; article: ArticlePage } | { kind: "moved"; url: string } | { kind: "missing" };

/** Finds an article by slug; a wrong year or month gives the canonical URL to redirect to. */
export async function findArticle(db: Database, year: number, month: number, slug: string): Promise<ArticleLookup> {
  const article = await articleBySlug(db, slug);
  if (!article) return { kind: "missing" };
  if (article.url !== articlePath({ year, month, slug })) return { kind: "moved", url: article.url };
  return { kind: "found", article };
}

async function articleBySlug(db: Database, slug: string): Promise<ArticlePage | undefined> {
  const row = await db.selectFrom("article").selectAll().where("slug", "=", slug).executeTakeFirst();
  return row && articleFromRow(db, row);
}

/**
 * The columns of the view `article` (ADR 076), which articleFromRow reads: every column of
 * ArticleTable, by the type (a column added there must be added here). The desk's preview reads
 * the same from `article_record`, in any state.
 */
const VIEW_COLUMNS: Record<keyof ArticleTable, true> = {
  id: true,
  slug: true,
  year: true,
  month: true,
  title: true,
  dek: true,
  sub_dek: true,
  summary: true,
  body: true,
  content_type: true,
  published: true,
  tier: true,
  primary_topic_id: true,
  series_id: true,
  series_part: true,
  word_count: true,
  hero_image_id: true,
};
export const ARTICLE_VIEW_COLUMNS = Object.keys(VIEW_COLUMNS) as (keyof ArticleTable)[];

/** An article's page content from its row (the view's columns): a published one's, or any state's for the desk's preview. */
export async function articleFromRow(db: Database, row: Selectable<ArticleTable>): Promise<ArticlePage> {
  const [authors, topics, series, lists, ascend, hero] = await Promise.all([
    db
      .selectFrom("article_author")
      .innerJoin("author", "author.id", "article_author.author_id")
      .leftJoin("image", "image.id", "author.photo_image_id")
      .select(["author.name", "author.role", "author.bio", "image.id as photo_id", "image.width", "image.height", "image.alt"])
      .where("article_author.article_id", "=", row.id)
      .orderBy("article_author.position")
      .execute(),
    db
      .selectFrom("article_topic")
      .innerJoin("topic", "topic.id", "article_topic.topic_id")
      .select(["topic.name", "topic.slug"])
      .where("article_topic.article_id", "=", row.id)
      .orderBy("article_topic.position")
      .execute(),
    row.series_id === null
      ? Promise.resolve(null)
      : Promise.all([
          db.selectFrom("series").select("title").where("id", "=", row.series_id).executeTakeFirstOrThrow(),
          db
            .selectFrom("article")
            .select(["slug", "year", "month", "title", "series_part"])
            .where("series_id", "=", row.series_id)
            .orderBy("series_part")
            .execute(),
        ]),
    db
      .selectFrom("reading_list_item")
      .innerJoin("reading_list", "reading_list.id", "reading_list_item.list_id")
      .select(["reading_list.name", "reading_list.slug"])
      .where("reading_list_item.article_id", "=", row.id)
      .orderBy("reading_list.name")
      .execute(),
    db.selectFrom("stream_entry").select("article_id").where("stream", "=", "ascend").where("article_id", "=", row.id).executeTakeFirst(),
    row.hero_image_id === null
      ? undefined
      : db.selectFrom("image").select(["id", "width", "height", "alt"]).where("id", "=", row.hero_image_id).executeTakeFirst(),
  ]);

  const chart = row.tier === "visual-library" ? chartImage(row.slug) : undefined;
  return {
    id: row.id,
    slug: row.slug,
    url: articlePath(row),
    title: row.title,
    dek: row.dek,
    subDek: row.sub_dek,
    summary: row.summary,
    blocks: parseBody(row.body),
    contentType: row.content_type,
    published: row.published,
    tier: row.tier,
    primaryTopicId: row.primary_topic_id,
    wordCount: row.word_count,
    image: chart?.path ?? articleArtPath(row.slug),
    imageAlt: chart?.alt ?? null,
    hero: hero ?? null,
    authors: authors.map(({ photo_id, width, height, alt, ...author }) => ({
      ...author,
      photo: photo_id === null ? null : { id: photo_id, width: width!, height: height!, alt },
    })),
    topics: topics.map((t) => ({ name: t.name, url: topicPath(t.slug), headlineUrl: topicHeadlinePath(t.name) })),
    series: series && {
      title: series[0].title,
      part: row.series_part ?? 1,
      parts: series[1].map((p) => ({ part: p.series_part ?? 0, title: p.title, url: articlePath(p) })),
    },
    readingLists: lists,
    ascend: Boolean(ascend),
  };
}

/** Titles and links of other articles sharing the primary topic, newest first. */
export async function relatedArticles(db: Database, article: { id: number; primaryTopicId: number }, limit: number) {
  const rows = await db
    .selectFrom("article")
    .select(["id", "slug", "year", "month", "title"])
    .where("primary_topic_id", "=", article.primaryTopicId)
    .where("id", "!=", article.id)
    .orderBy("published", "desc")
    .limit(limit)
    .execute();
  return rows.map((r) => ({ id: r.id, title: r.title, url: articlePath(r) }));
}

export async function latestArticles(db: Database, limit: number, excludeId?: number): Promise<ArticleCard[]> {
  let q = cardQuery(db).orderBy("article.published", "desc").orderBy("article.id", "desc").limit(limit);
  if (excludeId !== undefined) q = q.where("article.id", "!=", excludeId);
  return cardsOf(q);
}

/** Everything an article page shows besides the site chrome. */
export interface ArticlePageData {
  article: ArticlePage;
  related: { id: number; title: string; url: string }[];
  latest: ArticleCard[];
  /** What the promo about half way through the body offers: a product on the article's topic if any. */
  promo: ProductCard | undefined;
  /** Index of the block before which the promo goes (about half way through). */
  promoAt: number;
}

export type ArticlePageLookup = { kind: "found"; page: ArticlePageData } | { kind: "moved"; url: string } | { kind: "missing" };

const articlePages = new ContentCache<ArticlePageData | undefined>(500, 10 * 60_000);

/**
 * The article page's content by URL. Content is read-only while the site runs, so pages are
 * cached by slug (unknown slugs are not kept, so guesses cannot fill the cache); the year and
 * month of the URL are checked on every request.
 */
export async function articlePage(db: Database, year: number, month: number, slug: string, now = new Date()): Promise<ArticlePageLookup> {
  let page = await articlePages.get(db, slug, () => loadArticlePage(db, slug));
  // The promo's price changes at a time staff set (ADR 091): a page kept from before then is read again.
  if (page?.promo?.pricedUntil && page.promo.pricedUntil <= now.toISOString()) {
    articlePages.delete(db, slug);
    page = await articlePages.get(db, slug, () => loadArticlePage(db, slug));
  }
  if (!page) {
    articlePages.delete(db, slug);
    return { kind: "missing" };
  }
  if (page.article.url !== articlePath({ year, month, slug })) return { kind: "moved", url: page.article.url };
  return { kind: "found", page };
}

async function loadArticlePage(db: Database, slug: string): Promise<ArticlePageData | undefined> {
  const article = await articleBySlug(db, slug);
  return article && articlePageAround(db, article);
}

/** What the page shows around an article: related and latest articles, and the store's promo. */
export async function articlePageAround(db: Database, article: ArticlePage): Promise<ArticlePageData> {
  const [related, latest, promo] = await Promise.all([
    relatedArticles(db, article, 4),
    latestArticles(db, 6, article.id),
    promoProduct(db, article.primaryTopicId),
  ]);
  return { article, related, latest, promo, promoAt: midpointIndex(article.blocks) };
}
