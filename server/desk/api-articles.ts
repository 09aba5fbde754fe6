import type { Database } from "~/server/db/connection";
import type { ContentTier } from "~/server/db/schema";
import { articleFieldsSchema, type ArticleFields, type ArticleStatus } from "~/shared/article-fields";
import { listDeskArticles, type DeskArticle, type DeskArticleQuery, type DeskArticleSummary } from "./articles";

// The articles as the Admin API answers with them (ADR 074), in the seed format's terms, from the
// editorial domain (server/desk/articles): every state.

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

/** One article in full: every field of the seed format, and its state. */
export interface ApiArticleDetail extends ArticleFields {
  id: number;
  version: number;
  status: ArticleStatus;
  /** The day the article carries (its `published` field). */
  publishedAt: string;
  /** When a scheduled article is to be published (ISO time); null in any other state. */
  publishAt: string | null;
  url: string | null;
}

export type ArticleQuery = Pick<DeskArticleQuery, "status" | "q" | "page" | "pageSize">;

const absolute = (path: string | null, siteUrl: string) => (path === null ? null : new URL(path, siteUrl).href);

/** An article as the API lists it, its address made absolute. */
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
    url: absolute(article.url, siteUrl),
  };
}

/** The seed format's keys, in the schema's order. */
export const ARTICLE_FIELD_NAMES = Object.keys(articleFieldsSchema.innerType().shape) as (keyof ArticleFields)[];

/** The fields of an article alone, without its state. */
export function fieldsOf(article: ArticleFields): ArticleFields {
  return Object.fromEntries(ARTICLE_FIELD_NAMES.map((name) => [name, article[name]])) as ArticleFields;
}

/** An article as the API answers with it alone. */
export function apiArticleDetail(article: DeskArticle, siteUrl: string): ApiArticleDetail {
  return {
    ...fieldsOf(article),
    id: article.id,
    version: article.version,
    status: article.status,
    publishedAt: article.publishedAt,
    publishAt: article.publishAt,
    url: absolute(article.url, siteUrl),
  };
}

/** The article's fields with those a partial change gives put in their place (absent ones kept). */
export function patchedFields(article: DeskArticle, patch: Partial<ArticleFields>): ArticleFields {
  const given = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
  return { ...fieldsOf(article), ...given };
}

/** One page of articles, newest first, and how many match in all. */
export async function listApiArticles(db: Database, query: ArticleQuery, siteUrl: string): Promise<{ total: number; items: ApiArticle[] }> {
  const { items, total } = await listDeskArticles(db, query);
  return { total, items: items.map((item) => apiArticle(item, siteUrl)) };
}
