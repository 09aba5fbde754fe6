import type { Database } from "~/server/db/connection";
import type { ArticleFields } from "~/shared/article-fields";

/**
 * Fields the desk accepts for a new article: by the seed's first author, filed under its first
 * subject open to every reader, a plain article for every reader. `overrides` names it and changes anything else.
 */
export async function newArticleFields(
  db: Database,
  overrides: Partial<ArticleFields> & Pick<ArticleFields, "title" | "slug" | "published">,
): Promise<ArticleFields> {
  const topic = await db
    .selectFrom("topic")
    .select("name")
    .where("subject_id", "is", null)
    .where("executive_only", "=", 0)
    .orderBy("id")
    .executeTakeFirstOrThrow();
  const author = await db.selectFrom("author").select("slug").orderBy("id").executeTakeFirstOrThrow();
  return {
    dek: "A dek.",
    subDek: "",
    summary: "A summary.",
    body: "First paragraph.",
    authors: [author.slug],
    topics: [topic.name],
    contentType: "Article",
    tier: "article",
    series: null,
    seriesTitle: null,
    seriesPart: null,
    streams: [],
    ...overrides,
  };
}
