import type { Database } from "~/server/db/connection";
import { readDay } from "~/server/content/popularity";
import type { WallView } from "./walls";

/** What one opening of an article page records, besides the meter (`recordRead`). */
export interface ArticleRead {
  articleId: number;
  /** The article opened in full: one more read today on Most Popular. */
  popular: boolean;
  /** A signed-in reader's id: the article goes to the top of their reading history. */
  userId: string | null;
  /** The wall the reader met, for the meter funnel (`wallView`). */
  wall: WallView | null;
}

/**
 * Records a page's reads in one statement (ADR 094): one row into the `article_read` view, whose
 * trigger adds the read to Most Popular, the reader's history and the meter funnel, as the row
 * asks. Nothing is run when there is nothing to record.
 */
export async function recordArticleRead(db: Database, read: ArticleRead, now = new Date()): Promise<void> {
  if (!read.popular && !read.userId && !read.wall) return;
  await db
    .insertInto("article_read")
    .values({
      article_id: read.articleId,
      day: readDay(now),
      read_at: now.toISOString(),
      popular: read.popular ? 1 : 0,
      user_id: read.userId,
      wall: read.wall?.wall ?? null,
      ab_tag: read.wall?.abTag ?? null,
      viewer: read.wall?.viewer ?? null,
    })
    .execute();
}
