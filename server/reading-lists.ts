import type { Database } from "./db/connection";
import { articlePath } from "../shared/urls";

export interface ReadingListContext {
  name: string;
  slug: string;
  items: { title: string; url: string; current: boolean }[];
  /** The other lists the article appears in. */
  others: { name: string; slug: string }[];
}

/** A reading list seen from one of its articles, or undefined if the article is not in it. */
export async function readingListForArticle(db: Database, slug: string, articleId: number): Promise<ReadingListContext | undefined> {
  const list = await db.selectFrom("reading_list").select(["id", "name", "slug"]).where("slug", "=", slug).executeTakeFirst();
  if (!list) return undefined;
  const [items, others] = await Promise.all([
    db
      .selectFrom("reading_list_item")
      .innerJoin("article", "article.id", "reading_list_item.article_id")
      .select(["article.id", "article.slug", "article.year", "article.month", "article.title"])
      .where("reading_list_item.list_id", "=", list.id)
      .orderBy("reading_list_item.position")
      .execute(),
    db
      .selectFrom("reading_list_item")
      .innerJoin("reading_list", "reading_list.id", "reading_list_item.list_id")
      .select(["reading_list.name", "reading_list.slug"])
      .where("reading_list_item.article_id", "=", articleId)
      .where("reading_list.id", "!=", list.id)
      .orderBy("reading_list.name")
      .execute(),
  ]);
  if (!items.some((i) => i.id === articleId)) return undefined;
  return {
    name: list.name,
    slug: list.slug,
    items: items.map((i) => ({ title: i.title, url: articlePath(i), current: i.id === articleId })),
    others,
  };
}

export interface ReadingList {
  name: string;
  slug: string;
  description: string;
  items: { title: string; summary: string; url: string }[];
}

/** Every reading list with its articles in order; each link opens the article inside its list. */
export async function allReadingLists(db: Database): Promise<ReadingList[]> {
  const [lists, items] = await Promise.all([
    db.selectFrom("reading_list").select(["id", "name", "slug", "description"]).orderBy("name").execute(),
    db
      .selectFrom("reading_list_item")
      .innerJoin("article", "article.id", "reading_list_item.article_id")
      .select(["reading_list_item.list_id", "article.slug", "article.year", "article.month", "article.title", "article.summary"])
      .orderBy("reading_list_item.list_id")
      .orderBy("reading_list_item.position")
      .execute(),
  ]);
  return lists.map((l) => ({
    name: l.name,
    slug: l.slug,
    description: l.description,
    items: items
      .filter((i) => i.list_id === l.id)
      .map((i) => ({ title: i.title, summary: i.summary, url: `${articlePath(i)}?list=${l.slug}` })),
  }));
}
