import { articlesByTier, ContentCache, latestArticles } from "./articles";
import { cardQuery, toCards } from "./article-cards";
import { latestIssue } from "./archive";
import type { Database } from "./db/connection";
import { listTopics } from "./topics";

export type HomePage = Awaited<ReturnType<typeof loadHomePage>>;

const homePages = new ContentCache<HomePage>(1, 60_000);

/** Everything the home page shows, in one call; content is read-only, so it is kept for a minute. */
export function homePage(db: Database): Promise<HomePage> {
  return homePages.get(db, "home", () => loadHomePage(db));
}

async function loadHomePage(db: Database) {
  const [latest, popular, bigIdeasRows, issue, topics] = await Promise.all([
    latestArticles(db, 7),
    articlesByTier(db, "top50", 4),
    cardQuery(db)
      .innerJoin("stream_entry", "stream_entry.article_id", "article.id")
      .where("stream_entry.stream", "=", "big-ideas")
      .orderBy("article.published", "desc")
      .limit(3)
      .execute(),
    latestIssue(db),
    listTopics(db),
  ]);
  return {
    lead: latest[0] ?? null,
    latest: latest.slice(1),
    popular,
    bigIdeas: await toCards(db, bigIdeasRows),
    issue: issue ?? null,
    topics: topics.filter((t) => !t.executiveOnly),
  };
}
