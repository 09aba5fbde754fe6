import type { Database } from "./db/connection";
import type { ContentTier } from "./db/schema";
import { articleArtPath, articlePath, topicPath } from "../shared/urls";

/** What a list, stream or carousel shows of an article (spec: stream entry). */
export interface ArticleCard {
  id: number;
  title: string;
  summary: string;
  url: string;
  image: string;
  contentType: string;
  published: string;
  tier: ContentTier;
  topic: { name: string; url: string };
  authors: { name: string }[];
}

export const cardColumns = [
  "article.id",
  "article.slug",
  "article.year",
  "article.month",
  "article.title",
  "article.summary",
  "article.content_type",
  "article.published",
  "article.tier",
  "topic.name as topic_name",
  "topic.slug as topic_slug",
] as const;

type CardRow = {
  id: number;
  slug: string;
  year: number;
  month: number;
  title: string;
  summary: string;
  content_type: string;
  published: string;
  tier: ContentTier;
  topic_name: string;
  topic_slug: string;
};

/** Selects cards from article joined to its primary topic; callers add where/order/limit. */
export function cardQuery(db: Database) {
  return db.selectFrom("article").innerJoin("topic", "topic.id", "article.primary_topic_id").select(cardColumns);
}

type CardQuery = ReturnType<typeof cardQuery>;

/**
 * The cards a query selects, with their authors. The authors are asked for by the same query
 * (as a subquery) at the same time, so on PostgreSQL the two take one round trip, not two.
 */
export async function cardsOf(db: Database, query: CardQuery): Promise<ArticleCard[]> {
  const [rows, authorRows] = await Promise.all([
    query.execute(),
    db
      .selectFrom("article_author")
      .innerJoin("author", "author.id", "article_author.author_id")
      .select(["article_author.article_id", "author.name"])
      .where("article_author.article_id", "in", query.clearSelect().select("article.id"))
      .orderBy("article_author.position")
      .execute(),
  ]);
  const authors = new Map<number, { name: string }[]>();
  for (const a of authorRows) authors.set(a.article_id, [...(authors.get(a.article_id) ?? []), { name: a.name }]);
  return rows.map((r: CardRow) => ({
    id: r.id,
    title: r.title,
    summary: r.summary,
    url: articlePath(r),
    image: articleArtPath(r.slug),
    contentType: r.content_type,
    published: r.published,
    tier: r.tier,
    topic: { name: r.topic_name, url: topicPath(r.topic_slug) },
    authors: authors.get(r.id) ?? [],
  }));
}
