import { sql } from "kysely";
import { cardQuery } from "~/server/content/article-cards";
import type { Database } from "~/server/db/connection";
import { compiledOnce } from "~/server/db/compiled-once";
import type { Paging } from "~/shared/pagination";
import { pageOfCards, type StreamPage } from "~/server/content/streams";
import { subscriberStatus, type SubscriberStatus } from "~/server/subscriptions/entitlements";
import { listTopics, type Topic } from "~/server/content/topics";
import { EXECUTIVE_ONLY_TOPIC, SUBSCRIBER_ONLY_NEWSLETTER, SUBSCRIBER_ONLY_TOPIC } from "~/shared/follow-refusals";

// Following topics, newsletters and marketing campaigns (one `follow` row each), the following
// stream built from the followed topics, and its unread count.

export const FOLLOW_KINDS = ["topic", "newsletter", "campaign"] as const;
export type FollowKind = (typeof FOLLOW_KINDS)[number];

/** What can be followed, resolved from its kind and target. */
export interface FollowTarget {
  kind: FollowKind;
  target: string;
  name: string;
  subscriberOnly: boolean;
  executiveOnly: boolean;
}

export async function findFollowTarget(db: Database, kind: FollowKind, target: string): Promise<FollowTarget | undefined> {
  if (kind === "topic") {
    if (!/^[1-9]\d{0,8}$/.test(target)) return undefined;
    const row = await db
      .selectFrom("topic")
      .select(["id", "name", "subscriber_only", "executive_only"])
      .where("id", "=", Number(target))
      .executeTakeFirst();
    return (
      row && {
        kind,
        target: String(row.id),
        name: row.name,
        subscriberOnly: row.subscriber_only === 1,
        executiveOnly: row.executive_only === 1,
      }
    );
  }
  if (kind === "newsletter") {
    if (!/^[a-z0-9-]{1,80}$/.test(target)) return undefined;
    const row = await db.selectFrom("newsletter").select(["slug", "name", "subscriber_only"]).where("slug", "=", target).executeTakeFirst();
    return row && { kind, target: row.slug, name: row.name, subscriberOnly: row.subscriber_only === 1, executiveOnly: false };
  }
  if (!/^[a-z0-9-]{1,80}$/.test(target)) return undefined;
  const row = await db.selectFrom("marketing_campaign").select(["id", "name"]).where("id", "=", target).executeTakeFirst();
  return row && { kind, target: row.id, name: row.name, subscriberOnly: false, executiveOnly: false };
}

/**
 * Why a reader may not follow something, or null when they may. Executive-only topics need the
 * Executive tier (All Access includes everything in Executive); subscriber-only ones any tier.
 */
export function followRefusal(
  target: Pick<FollowTarget, "kind" | "subscriberOnly" | "executiveOnly">,
  status: SubscriberStatus | null,
): string | null {
  if (target.executiveOnly && !(status && (status.tier.name === "Executive" || status.tier.name === "All Access")))
    return EXECUTIVE_ONLY_TOPIC;
  if (target.subscriberOnly && !status) return target.kind === "newsletter" ? SUBSCRIBER_ONLY_NEWSLETTER : SUBSCRIBER_ONLY_TOPIC;
  return null;
}

export type FollowOutcome =
  { ok: true; target: FollowTarget } | { ok: false; error: "unknown" } | { ok: false; error: "refused"; message: string };

/**
 * A reader asks to follow something (the follow page and the service API): it must exist, and
 * subscriber-only or executive-only targets need the reader's subscription (followRefusal).
 */
export async function followAsReader(db: Database, userId: string, kind: FollowKind, target: string): Promise<FollowOutcome> {
  const found = await findFollowTarget(db, kind, target);
  if (!found) return { ok: false, error: "unknown" };
  const refusal = followRefusal(found, await subscriberStatus(db, userId));
  if (refusal) return { ok: false, error: "refused", message: refusal };
  await follow(db, userId, found.kind, found.target);
  return { ok: true, target: found };
}

/** A reader stops following something that exists (whether or not they followed it). */
export async function unfollowAsReader(
  db: Database,
  userId: string,
  kind: FollowKind,
  target: string,
): Promise<{ ok: true; target: FollowTarget; removed: boolean } | { ok: false; error: "unknown" }> {
  const found = await findFollowTarget(db, kind, target);
  if (!found) return { ok: false, error: "unknown" };
  return { ok: true, target: found, removed: await unfollow(db, userId, found.kind, found.target) };
}

/** Follows once: following again changes nothing (and keeps when it began). */
export async function follow(db: Database, userId: string, kind: FollowKind, target: string, now = new Date()): Promise<void> {
  await db
    .insertInto("follow")
    .values({ user_id: userId, kind, target, created_at: now.toISOString() })
    .onConflict((oc) => oc.columns(["user_id", "kind", "target"]).doNothing())
    .execute();
}

/** Whether a row was removed (false when the reader did not follow it). */
export async function unfollow(db: Database, userId: string, kind: FollowKind, target: string): Promise<boolean> {
  const result = await db
    .deleteFrom("follow")
    .where("user_id", "=", userId)
    .where("kind", "=", kind)
    .where("target", "=", target)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function unfollowAllNewsletters(db: Database, userId: string): Promise<number> {
  const result = await db.deleteFrom("follow").where("user_id", "=", userId).where("kind", "=", "newsletter").executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function isFollowing(db: Database, userId: string, kind: FollowKind, target: string): Promise<boolean> {
  const row = await db
    .selectFrom("follow")
    .select("target")
    .where("user_id", "=", userId)
    .where("kind", "=", kind)
    .where("target", "=", target)
    .executeTakeFirst();
  return Boolean(row);
}

/** The targets of one kind a reader follows. */
export async function followedTargets(db: Database, userId: string, kind: FollowKind): Promise<Set<string>> {
  const rows = await db.selectFrom("follow").select("target").where("user_id", "=", userId).where("kind", "=", kind).execute();
  return new Set(rows.map((r) => r.target));
}

/** The followed topics, by name. */
export async function followedTopics(db: Database, userId: string): Promise<Topic[]> {
  const ids = await followedTargets(db, userId, "topic");
  if (ids.size === 0) return [];
  return (await listTopics(db)).filter((t) => ids.has(String(t.id)));
}

/**
 * The `filter` value of the following stream for a topic: its name without "&" (the spec sends
 * "R&D" as "RD"), spaces collapsed.
 */
export function topicFilterValue(name: string): string {
  return name.replace(/&/g, "").replace(/\s+/g, " ").trim();
}

/** The followed topic a filter value names (its filter value or its name, any case). */
export function topicForFilter(topics: Topic[], filter: string): Topic | undefined {
  const wanted = filter.trim().toLowerCase();
  return topics.find((t) => topicFilterValue(t.name).toLowerCase() === wanted || t.name.toLowerCase() === wanted);
}

/** Newest articles in any of the given topics, each once, paged like the other streams. */
export async function followingStream(db: Database, topicIds: number[], paging: Paging, size = 10): Promise<StreamPage> {
  if (topicIds.length === 0) return { entries: [], page: { number: 1, loaded: paging.loaded, last: 1, size, total: 0 } };
  const inTopics = db.selectFrom("article_topic").select("article_topic.article_id").where("article_topic.topic_id", "in", topicIds);
  const counting = db
    .selectFrom("article_topic")
    .innerJoin("article", "article.id", "article_topic.article_id")
    .where("topic_id", "in", topicIds)
    .select((eb) => eb.fn.count<number>("article_topic.article_id").distinct().as("n"))
    .executeTakeFirstOrThrow()
    .then((count) => Number(count.n));
  return pageOfCards(db, cardQuery(db).where("article.id", "in", inTopics), counting, size, paging);
}

/** A topic follow's topic id; the CASE keeps PostgreSQL from casting a newsletter slug, whatever order it evaluates in. */
const followedTopicId = (follow: string) =>
  sql<number>`case when ${sql.ref(`${follow}.kind`)} = 'topic' then cast(${sql.ref(`${follow}.target`)} as integer) end`;

/**
 * How many articles in followed topics were published after the reader last looked at the
 * stream, or after they followed the topic if that is later: over the follow key and the topic index.
 */
function unreadCount(db: Database, userId: string) {
  return db
    .selectFrom("follow")
    .innerJoin("article_topic", (join) => join.on((eb) => eb(eb.ref("article_topic.topic_id"), "=", followedTopicId("follow"))))
    .innerJoin("article", "article.id", "article_topic.article_id")
    .leftJoin("following_seen", "following_seen.user_id", "follow.user_id")
    .where("follow.user_id", "=", userId)
    .where("follow.kind", "=", "topic")
    .whereRef("article.published", ">", "follow.created_at")
    .where((eb) =>
      eb.or([eb("following_seen.seen_at", "is", null), eb(eb.ref("article.published"), ">", eb.ref("following_seen.seen_at"))]),
    )
    .select((eb) => eb.fn.count<number>("article.id").distinct().as("n"));
}

/** The names of the topics the reader follows, by name, with their unread count or a 0 in its place. */
const followedTopicsQuery = (withUnread: boolean) =>
  compiledOnce(["userId"], (db, { userId }) =>
    db
      .selectFrom("follow as mine")
      .innerJoin("topic", (join) => join.on((eb) => eb(eb.ref("topic.id"), "=", followedTopicId("mine"))))
      .select("topic.name")
      .select((eb) => (withUnread ? unreadCount(db, userId).as("unread") : eb.lit(0).as("unread")))
      .where("mine.user_id", "=", userId)
      .where("mine.kind", "=", "topic")
      .orderBy("topic.name"),
  );
// On every signed-in page, so compiled once (issue 40).
const followedWithUnread = followedTopicsQuery(true);
const followedOnly = followedTopicsQuery(false);

/**
 * The names of the topics the reader follows, by name, and how many articles in them are unread
 * (unless the page does not show it: the following stream marks them seen), in one query.
 */
export async function followingSummary(db: Database, userId: string, withUnread = true): Promise<{ topics: string[]; unread: number }> {
  const rows = await (withUnread ? followedWithUnread : followedOnly)(db, { userId });
  return { topics: rows.map((r) => r.name), unread: Number(rows[0]?.unread ?? 0) };
}

export async function markFollowingSeen(db: Database, userId: string, now = new Date()): Promise<void> {
  await db
    .insertInto("following_seen")
    .values({ user_id: userId, seen_at: now.toISOString() })
    .onConflict((oc) => oc.column("user_id").doUpdateSet({ seen_at: now.toISOString() }))
    .execute();
}
