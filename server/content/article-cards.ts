import { sql } from "kysely";
import type { Database } from "~/server/db/connection";
import { isPostgres } from "~/server/db/dialect";
import type { ContentTier } from "~/server/db/schema";
import type { ImageRef } from "~/shared/uploaded-images";
import { articleArtPath, articlePath, topicPath } from "~/shared/urls";

/** What a list, stream or carousel shows of an article (spec: stream entry). */
export interface ArticleCard {
  id: number;
  title: string;
  summary: string;
  url: string;
  /** The drawn art. */
  image: string;
  /** The article's uploaded hero image, shown in the drawn art's place; null for the art. */
  hero: ImageRef | null;
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
  "hero.id as hero_id",
  "hero.width as hero_width",
  "hero.height as hero_height",
  "hero.alt as hero_alt",
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
  hero_id: string | null;
  hero_width: number | null;
  hero_height: number | null;
  hero_alt: string | null;
  author_names: string | null;
};

/** Joins the authors' names, in their order, in one column (chr(31) and char(31) in cardQuery's SQL). */
const AUTHOR_SEPARATOR = "\u001f";

/**
 * Selects cards from article joined to its primary topic and its hero image (if any), each with its authors' names (in a
 * subquery, so that a list of cards is one query: on PostgreSQL each query is a round trip);
 * callers add where/order/limit.
 */
export function cardQuery(db: Database) {
  const names = isPostgres(db)
    ? sql`string_agg(author.name, chr(31) order by article_author.position)`
    : sql`group_concat(author.name, char(31) order by article_author.position)`;
  return db
    .selectFrom("article")
    .innerJoin("topic", "topic.id", "article.primary_topic_id")
    .leftJoin("image as hero", "hero.id", "article.hero_image_id")
    .select(cardColumns)
    .select(
      sql<string | null>`(select ${names} from article_author join author on author.id = article_author.author_id
        where article_author.article_id = article.id)`.as("author_names"),
    );
}

/** The cards a query selects. */
export async function cardsOf(query: ReturnType<typeof cardQuery>): Promise<ArticleCard[]> {
  const rows: CardRow[] = await query.execute();
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    summary: r.summary,
    url: articlePath(r),
    image: articleArtPath(r.slug),
    hero: r.hero_id === null ? null : { id: r.hero_id, width: r.hero_width!, height: r.hero_height!, alt: r.hero_alt },
    contentType: r.content_type,
    published: r.published,
    tier: r.tier,
    topic: { name: r.topic_name, url: topicPath(r.topic_slug) },
    authors: r.author_names ? r.author_names.split(AUTHOR_SEPARATOR).map((name) => ({ name })) : [],
  }));
}
