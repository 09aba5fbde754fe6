import { ContentCache } from "./content-cache";
import type { Database } from "~/server/db/connection";
import { ARTICLE_STATUSES } from "~/shared/article-vocabulary";
import { topicKey } from "~/shared/slugs";
import { topicPath } from "~/shared/urls";

export interface Topic {
  id: number;
  slug: string;
  name: string;
  description: string;
  url: string;
  subscriberOnly: boolean;
  executiveOnly: boolean;
  /** The subject it belongs to; null for a subject (a broad topic such as Strategy). */
  subjectId: number | null;
}

function toTopic(r: {
  id: number;
  slug: string;
  name: string;
  description: string;
  subscriber_only: number;
  executive_only: number;
  subject_id: number | null;
}): Topic {
  return {
    id: r.id,
    slug: r.slug,
    name: r.name,
    description: r.description,
    url: topicPath(r.slug),
    subscriberOnly: r.subscriber_only === 1,
    executiveOnly: r.executive_only === 1,
    subjectId: r.subject_id,
  };
}

/** Topics change only with the content (the seed), so a process keeps their list for a minute. */
const topicLists = new ContentCache<Topic[]>(1, 60_000);

/** Every topic, by name. */
export function listTopics(db: Database): Promise<Topic[]> {
  return topicLists.get(db, "all", async () => {
    const rows = await db.selectFrom("topic").selectAll().orderBy("name").execute();
    return rows.map(toTopic);
  });
}

export interface SubjectTopics {
  subject: Topic;
  topics: Topic[];
}

/** The taxonomy as /topics shows it: the subjects by name, each with its topics by name. */
export function topicDirectory(topics: Topic[]): SubjectTopics[] {
  return topics
    .filter((t) => t.subjectId === null)
    .map((subject) => ({ subject, topics: topics.filter((t) => t.subjectId === subject.id) }));
}

export async function topicBySlug(db: Database, slug: string): Promise<Topic | undefined> {
  return (await listTopics(db)).find((t) => t.slug === slug);
}

/** Resolves a headline topic link segment ("leadership-&-managing-people") to its topic. */
export async function topicByHeadlineSegment(db: Database, segment: string): Promise<Topic | undefined> {
  const key = topicKey(segment);
  return (await listTopics(db)).find((t) => topicKey(t.name) === key);
}

/** Statuses of articles no page lists (ADR 076): few, each found through the status index. */
const UNLISTED = ARTICLE_STATUSES.filter((s) => s !== "published");

/**
 * The topic rows of articles that are not published. From those few articles to their topics: a
 * cross join, which SQLite keeps in the order written, where a join might start from the topics.
 */
const unlistedTopicRows = (db: Database) =>
  db
    .selectFrom("article_record")
    .crossJoin("article_topic")
    .whereRef("article_topic.article_id", "=", "article_record.id")
    .where("article_record.status", "in", UNLISTED);

/**
 * How many published articles each topic has: its rows counted in the topic index, less those of
 * its unpublished articles (a draft's topics are not counted, ADR 076). Counted through the
 * articles instead, it read every article's row: 56 ms at 100,000 articles, against 6 (ADR 098).
 */
export async function topicArticleCounts(db: Database): Promise<Map<number, number>> {
  const [rows, unlisted] = await Promise.all([
    db
      .selectFrom("article_topic")
      .select(["topic_id", (eb) => eb.fn.countAll().as("n")])
      .groupBy("topic_id")
      .execute(),
    unlistedTopicRows(db)
      .select(["article_topic.topic_id", (eb) => eb.fn.countAll().as("n")])
      .groupBy("article_topic.topic_id")
      .execute(),
  ]);
  const less = new Map(unlisted.map((r) => [r.topic_id, Number(r.n)]));
  return new Map(rows.map((r) => [r.topic_id, Number(r.n) - (less.get(r.topic_id) ?? 0)]));
}

/** One topic's number of published articles, counted as topicArticleCounts counts them. */
export async function topicArticleCount(db: Database, topicId: number): Promise<number> {
  const row = await db
    .selectNoFrom((eb) =>
      eb(
        eb.selectFrom("article_topic").where("topic_id", "=", topicId).select(eb.fn.countAll().as("n")),
        "-",
        unlistedTopicRows(db).where("article_topic.topic_id", "=", topicId).select(eb.fn.countAll().as("n")),
      ).as("n"),
    )
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The topic a renamed topic's old page address leads to (ADR 078): by a slug it had
 * (/topic/subject/{slug}), or by the headline link its old name made (/topic/{name}).
 */
export async function topicByFormerAddress(db: Database, kind: "slug" | "headline", value: string): Promise<Topic | undefined> {
  const former =
    kind === "slug"
      ? await db.selectFrom("topic_former_slug").select(["slug", "topic_id"]).where("slug", "=", value).execute()
      : await db.selectFrom("topic_former_slug").select(["slug", "topic_id"]).execute();
  const key = topicKey(value);
  const row = kind === "slug" ? former[0] : former.find((f) => topicKey(f.slug) === key);
  if (!row) return undefined;
  return (await listTopics(db)).find((t) => t.id === row.topic_id);
}
