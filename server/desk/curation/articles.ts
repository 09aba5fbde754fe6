import type { Database } from "~/server/db/connection";
import type { ArticleStatus } from "~/shared/article-fields";
import { slugOfArticleRef } from "~/shared/curation-fields";
import { articlePath } from "~/shared/urls";

// Articles as the curation forms name and show them: in any state, since a chosen article may
// have been unpublished since it was chosen (readers then simply do not see it).

export interface CuratedArticle {
  id: number;
  slug: string;
  title: string;
  /** Its address on the site (/YYYY/MM/slug); it answers only while the article is published. */
  path: string;
  status: ArticleStatus;
  published: string;
}

const columns = ["id", "slug", "year", "month", "title", "status", "published"] as const;

type Row = { id: number; slug: string; year: number; month: number; title: string; status: ArticleStatus; published: string };

const curated = (row: Row): CuratedArticle => ({
  id: row.id,
  slug: row.slug,
  title: row.title,
  path: articlePath(row),
  status: row.status,
  published: row.published,
});

/** The articles with these ids, in the order given; ids of no article are left out. */
export async function articlesInOrder(db: Database, ids: readonly number[]): Promise<CuratedArticle[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom("article_record").select(columns).where("id", "in", ids).execute();
  const byId = new Map(rows.map((row) => [row.id, curated(row)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** The article an editor names by its address or slug, in any state; undefined when none has it. */
export async function findArticle(db: Database, ref: string): Promise<CuratedArticle | undefined> {
  const slug = slugOfArticleRef(ref);
  if (!slug) return undefined;
  const row = await db.selectFrom("article_record").select(columns).where("slug", "=", slug).executeTakeFirst();
  return row && curated(row);
}

/** The newest published articles, for the forms' suggestions (a datalist of addresses). */
export async function recentArticles(db: Database, limit = 40): Promise<CuratedArticle[]> {
  const rows = await db
    .selectFrom("article_record")
    .select(columns)
    .where("status", "=", "published")
    .orderBy("published", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return rows.map(curated);
}

/**
 * Why a new list of chosen articles cannot be kept, or null: an id twice, an article that does
 * not exist, or one newly added that is not published. Articles already chosen stay choosable
 * when unpublished since, so that an editor can reorder around them or remove them.
 */
export function choiceProblem(found: CuratedArticle[], ids: readonly number[], kept: ReadonlySet<number>): string | null {
  if (new Set(ids).size !== ids.length) return "An article can be chosen only once.";
  if (found.length !== ids.length) return "One of the articles no longer exists.";
  const unpublished = found.find((article) => article.status !== "published" && !kept.has(article.id));
  return unpublished ? `“${unpublished.title}” is not published: only published articles can be chosen.` : null;
}
