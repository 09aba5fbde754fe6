import { cardQuery, cardsOf } from "~/server/content/article-cards";
import type { Database } from "~/server/db/connection";
import type { LibraryContentType } from "~/server/db/schema";
import { podcastEpisodesById } from "~/server/content/podcast-episodes";
import { podcastCoverPath, podcastEpisodePath, podcastSeriesPath, topicPath, videoPath, videoPosterPath } from "~/shared/urls";

/** What a library list, history or share shows of an item (spec: content item). */
export interface ContentItem {
  type: LibraryContentType;
  id: number;
  title: string;
  summary: string;
  url: string;
  image: string;
  contentType: string;
  topic: { name: string; url: string };
  authors: { name: string }[];
}

export interface ContentRef {
  type: LibraryContentType;
  id: number;
}

const key = (r: ContentRef) => `${r.type}:${r.id}`;

/**
 * The items that references point at, keyed "type:id"; a reference to nothing (an item since
 * withdrawn, or an id nobody published) is left out.
 */
export async function contentItems(db: Database, refs: ContentRef[]): Promise<Map<string, ContentItem>> {
  const found = new Map<string, ContentItem>();
  const articleIds = refs.filter((r) => r.type === "article").map((r) => r.id);
  const videoIds = refs.filter((r) => r.type === "video").map((r) => r.id);
  if (articleIds.length > 0) {
    const cards = await cardsOf(cardQuery(db).where("article.id", "in", articleIds));
    for (const c of cards) {
      found.set(key({ type: "article", id: c.id }), {
        type: "article",
        id: c.id,
        title: c.title,
        summary: c.summary,
        url: c.url,
        image: c.image,
        contentType: c.contentType,
        topic: c.topic,
        authors: c.authors,
      });
    }
  }
  if (videoIds.length > 0) {
    const rows = await db
      .selectFrom("video")
      .innerJoin("topic", "topic.id", "video.topic_id")
      .select(["video.id", "video.slug", "video.title", "video.description", "topic.name as topic_name", "topic.slug as topic_slug"])
      .where("video.id", "in", videoIds)
      .execute();
    for (const v of rows) {
      found.set(key({ type: "video", id: v.id }), {
        type: "video",
        id: v.id,
        title: v.title,
        summary: v.description,
        url: videoPath(v),
        image: videoPosterPath(v.slug),
        contentType: "Video",
        topic: { name: v.topic_name, url: topicPath(v.topic_slug) },
        authors: [],
      });
    }
  }
  for (const e of await podcastEpisodesById(
    db,
    refs.filter((r) => r.type === "podcast").map((r) => r.id),
  )) {
    found.set(key({ type: "podcast", id: e.id }), {
      type: "podcast",
      id: e.id,
      title: e.title,
      summary: e.description,
      url: podcastEpisodePath(e.seriesSlug, e),
      image: podcastCoverPath(e.seriesSlug),
      contentType: "Podcast",
      // A show stands where an article's topic would: the card links to it.
      topic: { name: e.seriesTitle, url: podcastSeriesPath(e.seriesSlug) },
      authors: [],
    });
  }
  return found;
}

export async function contentItem(db: Database, ref: ContentRef): Promise<ContentItem | undefined> {
  return (await contentItems(db, [ref])).get(key(ref));
}

/** Puts found items in the order of `rows`, each with its row's own fields. */
export async function withContent<R extends { content_type: LibraryContentType; content_id: number }>(
  db: Database,
  rows: R[],
): Promise<(R & { item: ContentItem })[]> {
  const items = await contentItems(
    db,
    rows.map((r) => ({ type: r.content_type, id: r.content_id })),
  );
  return rows.flatMap((r) => {
    const item = items.get(key({ type: r.content_type, id: r.content_id }));
    return item ? [{ ...r, item }] : [];
  });
}
