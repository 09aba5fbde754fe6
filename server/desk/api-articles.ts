import { sql } from "kysely";
import type { Database } from "~/server/db/connection";
import type { ContentTier } from "~/server/db/schema";
import type { ArticleStatus } from "~/shared/article-fields";
import { articlePath } from "~/shared/urls";

// The articles as the Admin API lists them (ADR 074), in the seed format's terms. Every article
// in the database is published today; the other states (draft, scheduled, unpublished) come with
// the desk's editorial part, and a filter for them finds nothing until then.

export interface ApiArticle {
  id: number;
  slug: string;
  status: ArticleStatus;
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
  /** The article's address on the site. */
  url: string;
}

export interface ArticleQuery {
  status?: ArticleStatus;
  /** Words in the title, dek or summary, any case. */
  q?: string;
  page: number;
  pageSize: number;
}

/** `%` and `_` match themselves in a LIKE pattern (with ESCAPE '\'). */
const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function matching(db: Database, query: ArticleQuery) {
  let select = db.selectFrom("article");
  if (query.status && query.status !== "published") select = select.where(sql.lit(false));
  if (query.q) {
    const pattern = likePattern(query.q);
    select = select.where((eb) =>
      eb.or(
        (["title", "dek", "summary"] as const).map(
          (column) => sql<boolean>`lower(${eb.ref(`article.${column}`)}) like ${pattern} escape '\\'`,
        ),
      ),
    );
  }
  return select;
}

/** One page of articles, newest first, and how many match in all. */
export async function listApiArticles(db: Database, query: ArticleQuery, siteUrl: string): Promise<{ total: number; items: ApiArticle[] }> {
  const [rows, count] = await Promise.all([
    matching(db, query)
      .select(["id", "slug", "year", "month", "title", "dek", "summary", "content_type", "tier", "published"])
      .orderBy("published", "desc")
      .orderBy("id", "desc")
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize)
      .execute(),
    matching(db, query)
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  const ids = rows.map((row) => row.id);
  const [authors, topics] =
    ids.length === 0
      ? [[], []]
      : await Promise.all([
          db
            .selectFrom("article_author")
            .innerJoin("author", "author.id", "article_author.author_id")
            .select(["article_author.article_id", "author.slug"])
            .where("article_author.article_id", "in", ids)
            .orderBy("article_author.article_id")
            .orderBy("article_author.position")
            .execute(),
          db
            .selectFrom("article_topic")
            .innerJoin("topic", "topic.id", "article_topic.topic_id")
            .select(["article_topic.article_id", "topic.name"])
            .where("article_topic.article_id", "in", ids)
            .orderBy("article_topic.article_id")
            .orderBy("article_topic.position")
            .execute(),
        ]);
  const grouped = <R extends { article_id: number }>(list: R[], value: (row: R) => string) => {
    const byArticle = new Map<number, string[]>();
    for (const row of list) byArticle.set(row.article_id, [...(byArticle.get(row.article_id) ?? []), value(row)]);
    return byArticle;
  };
  const authorSlugs = grouped(authors, (row) => row.slug);
  const topicNames = grouped(topics, (row) => row.name);
  return {
    total: Number(count.n),
    items: rows.map((row) => ({
      id: row.id,
      slug: row.slug,
      status: "published",
      title: row.title,
      dek: row.dek,
      summary: row.summary,
      authors: authorSlugs.get(row.id) ?? [],
      topics: topicNames.get(row.id) ?? [],
      contentType: row.content_type,
      tier: row.tier,
      publishedAt: row.published,
      url: new URL(articlePath(row), siteUrl).href,
    })),
  };
}
