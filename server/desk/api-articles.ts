import type { Database } from "~/server/db/connection";
import type { ContentTier } from "~/server/db/schema";
import type { ArticleStatus } from "~/shared/article-fields";
import { listDeskArticles, type DeskArticleQuery, type DeskArticleSummary } from "./articles";

// The articles as the Admin API answers with them (ADR 074), in the seed format's terms, from the
// editorial domain's list (server/desk/articles): every state.

export interface ApiArticle {
  id: number;
  slug: string;
  status: ArticleStatus;
  version: number;
  title: string;
  dek: string;
  summary: string;
  /** Author slugs, in the byline's order. */
  authors: string[];
  /** Topic names, the primary first. */
  topics: string[];
  contentType: string;
  tier: ContentTier;
  publishedAt: string;
  /** The article's address on the site, while it is published; null otherwise. */
  url: string | null;
}

export type ArticleQuery = Pick<DeskArticleQuery, "status" | "q" | "page" | "pageSize">;

/** An article as the API shows it, its address made absolute. */
export function apiArticle(article: DeskArticleSummary, siteUrl: string): ApiArticle {
  return {
    id: article.id,
    slug: article.slug,
    status: article.status,
    version: article.version,
    title: article.title,
    dek: article.dek,
    summary: article.summary,
    authors: article.authors,
    topics: article.topics,
    contentType: article.contentType,
    tier: article.tier,
    publishedAt: article.publishedAt,
    url: article.url === null ? null : new URL(article.url, siteUrl).href,
  };
}

/** One page of articles, newest first, and how many match in all. */
export async function listApiArticles(db: Database, query: ArticleQuery, siteUrl: string): Promise<{ total: number; items: ApiArticle[] }> {
  const { items, total } = await listDeskArticles(db, query);
  return { total, items: items.map((item) => apiArticle(item, siteUrl)) };
}
