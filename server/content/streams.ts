import { sql, type RawBuilder } from "kysely";
import { cardQuery, cardsOf, type ArticleCard } from "./article-cards";
import type { Database } from "~/server/db/connection";
import { lastPage, type Paging } from "~/shared/pagination";
import { REFERRAL_TOPICS_AND_HOME } from "~/shared/referrals";
import { listTopics, topicArticleCount, topicArticleCounts } from "./topics";

export type StreamSource = { kind: "all" } | { kind: "curated"; stream: string } | { kind: "topic"; topicId: number };

export interface StreamDefinition {
  /** Path of the stream's page, also the key of curated entries. */
  slug: string;
  title: string;
  description: string;
  /** Spec: 10 when the list has a page-size attribute, else 8. */
  hasPageSizeAttribute: boolean;
  referral: string | null;
  source: StreamSource;
  /** Fragment id of the list, where other pages link into it. */
  listId?: string;
}

export const STREAM_PAGES: Record<string, StreamDefinition> = {
  "the-latest": {
    slug: "the-latest",
    title: "The Latest",
    description: "Every new article, case, research summary and data visual, most recent first.",
    hasPageSizeAttribute: true,
    referral: null,
    source: { kind: "all" },
  },
  "big-ideas": {
    slug: "big-ideas",
    title: "Big Ideas",
    description: "Long-form arguments that challenge how companies compete, organize and grow.",
    hasPageSizeAttribute: false,
    referral: null,
    source: { kind: "curated", stream: "big-ideas" },
  },
  ascend: {
    slug: "ascend",
    title: "Ascend",
    description: "Practical career advice for early-career professionals: first jobs, first teams, first raises.",
    hasPageSizeAttribute: false,
    referral: null,
    source: { kind: "curated", stream: "ascend" },
  },
  "hbr-analytic-services": {
    slug: "hbr-analytic-services",
    title: "Analytic Services",
    description: "Research reports from our sponsored-research unit: surveys of executives on the questions shaping their industries.",
    hasPageSizeAttribute: false,
    referral: null,
    source: { kind: "curated", stream: "hbr-analytic-services" },
    listId: "browse-reports-filter",
  },
  webinars: {
    slug: "webinars",
    title: "Webinars",
    description: "Companion write-ups of our recorded webinars with authors and practitioners.",
    hasPageSizeAttribute: false,
    referral: null,
    source: { kind: "curated", stream: "webinars" },
  },
  "visual-library": {
    slug: "visual-library",
    title: "Visual Library",
    description: "Charts and data visuals that explain the numbers behind the economy and the firm.",
    hasPageSizeAttribute: false,
    referral: null,
    source: { kind: "curated", stream: "visual-library" },
  },
};

export function topicStream(topic: { id: number; slug: string; name: string; description: string }): StreamDefinition {
  return {
    slug: `topic/subject/${topic.slug}`,
    title: topic.name,
    description: topic.description,
    hasPageSizeAttribute: true,
    referral: REFERRAL_TOPICS_AND_HOME,
    source: { kind: "topic", topicId: topic.id },
  };
}

export function pageSize(stream: StreamDefinition): number {
  return stream.hasPageSizeAttribute ? 10 : 8;
}

export interface StreamPage {
  entries: ArticleCard[];
  page: { number: number; loaded: number; last: number; size: number; total: number };
}

function filtered(db: Database, source: StreamSource) {
  const q = cardQuery(db);
  switch (source.kind) {
    case "all":
      return q;
    case "curated":
      return q.innerJoin("stream_entry", "stream_entry.article_id", "article.id").where("stream_entry.stream", "=", source.stream);
    case "topic":
      return q.innerJoin("article_topic", "article_topic.article_id", "article.id").where("article_topic.topic_id", "=", source.topicId);
  }
}

/**
 * What a source's list is ordered by, newest first. A topic's articles by the date each of its
 * topic rows holds (ADR 098): one range of the topic's index, read backwards, however many
 * articles there are. Ordered by the article's own date, SQLite walked every article newest
 * first until it had found a page of the topic's.
 */
function orderOf(source: StreamSource): { published: RawBuilder<string>; id: RawBuilder<number> } {
  return source.kind === "topic"
    ? { published: sql.ref("article_topic.published"), id: sql.ref("article_topic.article_id") }
    : { published: sql.ref("article.published"), id: sql.ref("article.id") };
}

async function countEntries(db: Database, source: StreamSource): Promise<number> {
  if (source.kind === "topic") return topicArticleCount(db, source.topicId);
  const query =
    source.kind === "all"
      ? // Kept by triggers (migration 060): counting the articles read the whole status index.
        db.selectFrom("published_article_tally").select("articles as n")
      : db
          .selectFrom("stream_entry")
          .innerJoin("article", "article.id", "stream_entry.article_id")
          .where("stream", "=", source.stream)
          .select((eb) => eb.fn.countAll().as("n"));
  return Number((await query.executeTakeFirstOrThrow()).n);
}

/**
 * Every named stream and every topic's, with its number of entries as its pages count them
 * (countEntries), in three queries however many topics there are: what the sitemap lists.
 */
export async function streamsWithSizes(db: Database): Promise<{ stream: StreamDefinition; total: number }[]> {
  const [all, curated, topics, topicCounts] = await Promise.all([
    countEntries(db, { kind: "all" }),
    db
      .selectFrom("stream_entry")
      .innerJoin("article", "article.id", "stream_entry.article_id")
      .select(["stream", (eb) => eb.fn.countAll().as("n")])
      .groupBy("stream")
      .execute(),
    listTopics(db),
    topicArticleCounts(db),
  ]);
  const curatedCounts = new Map(curated.map((r) => [r.stream, Number(r.n)]));
  const total = (source: StreamSource) =>
    source.kind === "all" ? all : ((source.kind === "curated" ? curatedCounts.get(source.stream) : topicCounts.get(source.topicId)) ?? 0);
  return [...Object.values(STREAM_PAGES), ...topics.map(topicStream)].map((stream) => ({ stream, total: total(stream.source) }));
}

/** A stream's articles as sort keys only, read from indexes: how deep pages find where they start. */
function sortKeys(db: Database, source: StreamSource) {
  const { published, id } = orderOf(source);
  const q = db.selectFrom("article").select([published.as("published"), id.as("id")]);
  switch (source.kind) {
    case "all":
      return q;
    case "curated":
      return q.innerJoin("stream_entry", "stream_entry.article_id", "article.id").where("stream_entry.stream", "=", source.stream);
    case "topic":
      return q.innerJoin("article_topic", "article_topic.article_id", "article.id").where("article_topic.topic_id", "=", source.topicId);
  }
}

/**
 * Pages page..page+loaded-1 of a list of cards, newest first. A page past the end is empty.
 * With `keys` (the same list as sort keys alone), a page past the first skips to its start in
 * that lean list and reads only its own cards from there: an offset into the cards themselves
 * joins and reads every card it skips (page 5,000 of 100,000 articles cost 190 ms of CPU).
 */
export async function pageOfCards(
  db: Database,
  query: ReturnType<typeof cardQuery>,
  counting: Promise<number>,
  size: number,
  paging: Paging,
  keys?: ReturnType<typeof sortKeys>,
  order = orderOf({ kind: "all" }),
): Promise<StreamPage> {
  const skip = (paging.page - 1) * size;
  const pageInfo = (total: number) => ({ number: paging.page, loaded: paging.loaded, last: lastPage(total, size), size, total });
  let page = query
    .orderBy(order.published, "desc")
    .orderBy(order.id, "desc")
    .limit(size * paging.loaded);
  if (skip > 0 && keys) {
    // Awaited together, so that neither fails unheard.
    const [start, total] = await Promise.all([
      keys.orderBy(order.published, "desc").orderBy(order.id, "desc").limit(1).offset(skip).executeTakeFirst(),
      counting,
    ]);
    if (!start) return { entries: [], page: pageInfo(total) };
    page = page.where((eb) =>
      eb.or([
        eb(order.published, "<", start.published),
        eb.and([eb(order.published, "=", start.published), eb(order.id, "<=", start.id)]),
      ]),
    );
  } else if (skip > 0) {
    page = page.offset(skip);
  }
  const [entries, total] = await Promise.all([cardsOf(page), counting]);
  return { entries, page: pageInfo(total) };
}

export function loadStream(db: Database, stream: StreamDefinition, paging: Paging, size = pageSize(stream)): Promise<StreamPage> {
  const { source } = stream;
  return pageOfCards(db, filtered(db, source), countEntries(db, source), size, paging, sortKeys(db, source), orderOf(source));
}

/** Adds the stream's referral code to a product link (`referral` query value). */
export function withReferral(link: string, referral: string | null): string {
  if (!referral || !link.startsWith("/product/")) return link;
  const [pathPart, query = ""] = link.split("?", 2);
  const params = new URLSearchParams(query);
  params.set("referral", referral);
  return `${pathPart}?${params.toString()}`;
}
