import type { Database } from "~/server/db/connection";
import { followedTopics, followingStream, markFollowingSeen, topicForFilter } from "~/server/library/follows";
import type { StreamPage } from "~/server/content/streams";
import type { Topic } from "~/server/content/topics";
import type { Paging } from "~/shared/pagination";

/** The following stream's page size (the page's, and the most the stream service gives). */
export const FOLLOWING_PAGE_SIZE = 10;

/**
 * The following stream, for its page and the stream service: the newest articles in the topics
 * the reader follows, or in the one `filter` names ("unknown-filter" if it names none they
 * follow); "past-end" for a page beyond the last. Loading it marks everything seen.
 */
export async function loadFollowing(
  database: Database,
  userId: string,
  filter: string | null,
  paging: Paging,
  size = FOLLOWING_PAGE_SIZE,
): Promise<{ topics: Topic[]; active: Topic | undefined; stream: StreamPage } | "unknown-filter" | "past-end"> {
  const topics = await followedTopics(database, userId);
  const active = filter ? topicForFilter(topics, filter) : undefined;
  if (filter && !active) return "unknown-filter";
  const stream = await followingStream(database, active ? [active.id] : topics.map((t) => t.id), paging, size);
  if (paging.page > stream.page.last) return "past-end";
  await markFollowingSeen(database, userId);
  return { topics, active, stream };
}
