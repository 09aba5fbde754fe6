import { latestArticles } from "./articles";
import { ContentCache } from "./content-cache";
import { chosenStories, frontStories } from "./home-curation";
import { cardQuery, cardsOf, type ArticleCard } from "./article-cards";
import { latestIssue } from "./archive";
import type { Database } from "~/server/db/connection";
import { listNewsletters } from "~/server/newsletters/catalog";
import { podcastSeriesList } from "./podcasts";
import { mostReadArticleIds } from "./popularity";
import { listTopics } from "./topics";
import { videoList } from "./videos";

export type HomePage = Awaited<ReturnType<typeof loadHomePage>>;

/** How many stories each part of the front page holds. */
export const HOME_COUNTS = { secondary: 2, latest: 7, popular: 5, bigIdeas: 3, videos: 4, newsletters: 3 } as const;

const homePages = new ContentCache<HomePage>(1, 60_000);

/** Everything the home page shows, in one call; content is read-only, so it is kept for a minute. */
export function homePage(db: Database, now = new Date()): Promise<HomePage> {
  return homePages.get(db, "home", () => loadHomePage(db, now));
}

async function loadHomePage(db: Database, now: Date) {
  const [newest, chosen, popular, bigIdeas, videos, podcasts, newsletters, issue, topics] = await Promise.all([
    // Enough for every slot even when each chosen story is also among the newest.
    latestArticles(db, 2 * (1 + HOME_COUNTS.secondary) + HOME_COUNTS.latest),
    chosenStories(db),
    mostPopular(db, now),
    cardsOf(
      cardQuery(db)
        .innerJoin("stream_entry", "stream_entry.article_id", "article.id")
        .where("stream_entry.stream", "=", "big-ideas")
        .orderBy("article.published", "desc")
        .limit(HOME_COUNTS.bigIdeas),
    ),
    videoList(db, 1),
    podcastSeriesList(db),
    listNewsletters(db),
    latestIssue(db),
    listTopics(db),
  ]);
  return {
    ...frontStories(newest, chosen, HOME_COUNTS),
    popular,
    bigIdeas,
    videos: videos.videos.slice(0, HOME_COUNTS.videos),
    podcasts,
    newsletters: newsletters.filter((n) => !n.subscriberOnly).slice(0, HOME_COUNTS.newsletters),
    issue: issue ?? null,
    subjects: topics.filter((t) => t.subjectId === null && !t.executiveOnly),
  };
}

/**
 * Most Popular: the articles read most over the last week. While fewer than its five have been
 * read (a new site), the rest are the newest of the publisher's Top 50, the tier it keeps for its
 * most-read pieces.
 */
async function mostPopular(db: Database, now: Date): Promise<ArticleCard[]> {
  const ids = await mostReadArticleIds(db, HOME_COUNTS.popular, now);
  const read = ids.length > 0 ? await cardsOf(cardQuery(db).where("article.id", "in", ids)) : [];
  read.sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id));
  const missing = HOME_COUNTS.popular - read.length;
  if (missing <= 0) return read;
  let fill = cardQuery(db).where("article.tier", "=", "top50").orderBy("article.published", "desc").limit(missing);
  if (ids.length > 0) fill = fill.where("article.id", "not in", ids);
  return [...read, ...(await cardsOf(fill))];
}
