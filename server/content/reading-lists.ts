import type { Database } from "~/server/db/connection";
import { cardQuery, cardsOf } from "./article-cards";
import { articlePath } from "~/shared/urls";

/**
 * How many of a list's articles a reader without a subscription sees: the list's opening. Spec
 * section 6: subscribers get complete reading lists. The rest is not sent to anyone else at all,
 * not even its titles.
 */
export const READING_LIST_PREVIEW = 3;

/** How many other lists a list's page links to. */
const RELATED_LISTS = 3;

export interface ReadingListSummary {
  name: string;
  slug: string;
  description: string;
  /** How many articles the whole list has. */
  size: number;
}

export interface ReadingListItem {
  /** Its place in the list, from 1. */
  position: number;
  title: string;
  summary: string;
  image: string;
  authors: { name: string }[];
  /** The article, opened within this list. */
  url: string;
}

/** A list's own page (and the overlay that shows it in place). */
export interface ReadingListPage extends ReadingListSummary {
  /** What this reader may see of the list, in order. */
  items: ReadingListItem[];
  /** How many further articles only a subscriber sees. */
  withheld: number;
  /** Other lists, those sharing the most articles and then topics first. */
  related: ReadingListSummary[];
}

/** A reading list seen from one of its articles, read within it (`?list=`). */
export interface ReadingListContext {
  name: string;
  slug: string;
  size: number;
  items: { position: number; title: string; url: string; current: boolean }[];
  withheld: number;
  /** The other lists the article appears in. */
  others: { name: string; slug: string }[];
}

/**
 * The items of a list a reader sees: every one for a subscriber; for anyone else the first
 * READING_LIST_PREVIEW, and the article they are reading (which the page shows them anyway).
 */
export function visibleItems<T>(items: T[], complete: boolean, currentIndex = -1): T[] {
  return complete ? items : items.filter((_, i) => i < READING_LIST_PREVIEW || i === currentIndex);
}

/** The address of an article read within a list. */
const withinList = (path: string, listSlug: string) => `${path}?list=${listSlug}`;

interface Membership {
  id: number;
  slug: string;
  name: string;
  description: string;
  /** In reading order. */
  articles: Set<number>;
  topics: Set<number>;
}

/** Every list with its articles and their primary topics, in name order: one query (lists are few, chosen by editors). */
async function memberships(db: Database): Promise<Membership[]> {
  const rows = await db
    .selectFrom("reading_list as l")
    .leftJoin("reading_list_item as i", "i.list_id", "l.id")
    .leftJoin("article as a", "a.id", "i.article_id")
    .select(["l.id", "l.slug", "l.name", "l.description", "a.id as article_id", "a.primary_topic_id"])
    .orderBy("l.name")
    .orderBy("l.id")
    .orderBy("i.position")
    .execute();
  const lists = new Map<number, Membership>();
  for (const r of rows) {
    let list = lists.get(r.id);
    if (!list) {
      list = { id: r.id, slug: r.slug, name: r.name, description: r.description, articles: new Set(), topics: new Set() };
      lists.set(r.id, list);
    }
    if (r.article_id !== null) list.articles.add(r.article_id);
    if (r.primary_topic_id !== null) list.topics.add(r.primary_topic_id);
  }
  return [...lists.values()];
}

const summary = (l: Membership): ReadingListSummary => ({ name: l.name, slug: l.slug, description: l.description, size: l.articles.size });

const shared = (a: Set<number>, b: Set<number>) => [...a].filter((x) => b.has(x)).length;

/** The other lists, most related first: shared articles, then shared topics, then by name. */
function relatedTo(list: Membership, all: Membership[]): ReadingListSummary[] {
  return all
    .filter((other) => other.id !== list.id)
    .map((other) => ({ other, articles: shared(list.articles, other.articles), topics: shared(list.topics, other.topics) }))
    .sort((a, b) => b.articles - a.articles || b.topics - a.topics || a.other.name.localeCompare(b.other.name))
    .slice(0, RELATED_LISTS)
    .map((r) => summary(r.other));
}

/** Every reading list, in name order, for the index page. */
export async function readingListSummaries(db: Database): Promise<ReadingListSummary[]> {
  return (await memberships(db)).map(summary);
}

/** A list's page as this reader may see it (`complete`: a subscriber); undefined for an unknown slug. */
export async function readingListPage(
  db: Database,
  slug: string,
  { complete }: { complete: boolean },
): Promise<ReadingListPage | undefined> {
  const all = await memberships(db);
  const list = all.find((l) => l.slug === slug);
  if (!list) return undefined;
  const order = [...list.articles].map((articleId, index) => ({ articleId, position: index + 1 }));
  const shown = visibleItems(order, complete);
  const cards =
    shown.length > 0
      ? await cardsOf(
          cardQuery(db).where(
            "article.id",
            "in",
            shown.map((i) => i.articleId),
          ),
        )
      : [];
  const byId = new Map(cards.map((c) => [c.id, c]));
  const items = shown.flatMap(({ articleId, position }) => {
    const card = byId.get(articleId);
    return card
      ? [
          {
            position,
            title: card.title,
            summary: card.summary,
            image: card.image,
            authors: card.authors,
            url: withinList(card.url, list.slug),
          },
        ]
      : [];
  });
  return { ...summary(list), items, withheld: order.length - items.length, related: relatedTo(list, all) };
}

/** A reading list seen from one of its articles, or undefined if the article is not in it. */
export async function readingListForArticle(
  db: Database,
  slug: string,
  articleId: number,
  { complete }: { complete: boolean },
): Promise<ReadingListContext | undefined> {
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
  const current = items.findIndex((i) => i.id === articleId);
  if (current < 0) return undefined;
  const positioned = items.map((i, index) => ({
    position: index + 1,
    title: i.title,
    url: withinList(articlePath(i), list.slug),
    current: index === current,
  }));
  const shown = visibleItems(positioned, complete, current);
  return { name: list.name, slug: list.slug, size: items.length, items: shown, withheld: items.length - shown.length, others };
}
