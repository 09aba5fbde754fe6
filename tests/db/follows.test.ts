import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertUser, type User } from "~/server/accounts/users";
import type { Database } from "~/server/db/connection";
import {
  follow,
  followingStream,
  followingSummary,
  markFollowingSeen,
  topicFilterValue,
  topicForFilter,
  unfollowAllNewsletters,
} from "~/server/library/follows";
import { listTopics } from "~/server/content/topics";
import { seededTestDatabase } from "~/tests/helpers/test-db";

// The unread count and the following stream against a real database (SQLite, or PostgreSQL when
// DATABASE_URL is set, where the count's cast of the target column matters).

let db: Database;
let close: () => Promise<void>;
let counter = 0;

beforeAll(async () => {
  ({ db, close } = await seededTestDatabase());
});
afterAll(() => close());

async function newReader(): Promise<User> {
  counter += 1;
  const user = await insertUser(db, {
    firstName: "Fay",
    lastName: "Lowe",
    email: `follows${counter}@example.org`,
    password: "Correct7horse!",
    optIn: false,
  });
  if (!user) throw new Error("user not created");
  return user;
}

async function topic(name: string) {
  return (await listTopics(db)).find((t) => t.name === name)!;
}

/** Publishes a new article in a topic at `at`. */
async function publish(topicId: number, at: Date, title: string): Promise<number> {
  const max = await db
    .selectFrom("article")
    .select((eb) => eb.fn.max("id").as("m"))
    .executeTakeFirstOrThrow();
  const id = Number(max.m) + 1;
  await db
    .insertInto("article_record")
    .values({
      id,
      slug: `follow-test-${id}`,
      year: at.getUTCFullYear(),
      month: at.getUTCMonth() + 1,
      title,
      dek: "",
      sub_dek: "",
      summary: "",
      body: "",
      content_type: "Article",
      published: at.toISOString(),
      tier: "article",
      primary_topic_id: topicId,
      series_id: null,
      series_part: null,
      word_count: 1,
    })
    .execute();
  await db.insertInto("article_topic").values({ article_id: id, topic_id: topicId, position: 0, published: at.toISOString() }).execute();
  return id;
}

const unread = async (userId: string) => (await followingSummary(db, userId)).unread;

describe("following summary", () => {
  it("counts articles in followed topics published after following began and after the last visit", async () => {
    const reader = await newReader();
    const strategy = await topic("Strategy");
    const innovation = await topic("Innovation");
    const t0 = new Date("2030-01-01T00:00:00Z");
    // Newsletter and campaign rows sit beside the topic rows: their text targets must not upset the count.
    await follow(db, reader.id, "newsletter", "the-daily-brief", t0);
    await follow(db, reader.id, "campaign", "research-panel", t0);
    await follow(db, reader.id, "topic", String(strategy.id), t0);
    expect(await unread(reader.id)).toBe(0);

    await publish(strategy.id, new Date("2030-01-02T00:00:00Z"), "After following");
    await publish(innovation.id, new Date("2030-01-02T00:00:00Z"), "Not followed");
    expect(await unread(reader.id)).toBe(1);

    await markFollowingSeen(db, reader.id, new Date("2030-01-03T00:00:00Z"));
    expect(await unread(reader.id)).toBe(0);
    await publish(strategy.id, new Date("2030-01-04T00:00:00Z"), "After the visit");
    // Following a second topic later: only its articles after that moment count.
    await follow(db, reader.id, "topic", String(innovation.id), new Date("2030-01-05T00:00:00Z"));
    await publish(innovation.id, new Date("2030-01-06T00:00:00Z"), "Innovation after following");
    expect(await unread(reader.id)).toBe(2);
    await markFollowingSeen(db, reader.id, new Date("2030-01-07T00:00:00Z"));
    expect(await unread(reader.id)).toBe(0);

    expect(await followingSummary(db, (await newReader()).id)).toEqual({ topics: [], unread: 0 });
    await publish(strategy.id, new Date("2030-01-08T00:00:00Z"), "After the last visit");
    expect(await followingSummary(db, reader.id)).toEqual({ topics: ["Innovation", "Strategy"], unread: 1 });
    expect(await followingSummary(db, reader.id, false)).toEqual({ topics: ["Innovation", "Strategy"], unread: 0 });
    expect(await unfollowAllNewsletters(db, reader.id)).toBe(1);
  });
});

describe("following stream", () => {
  it("lists an article in two followed topics once, newest first", async () => {
    const economics = await topic("Economics & Society");
    const operations = await topic("Operations");
    const bothAt = new Date("2031-01-01T00:00:00Z");
    const both = await publish(economics.id, bothAt, "In both topics");
    await db
      .insertInto("article_topic")
      .values({ article_id: both, topic_id: operations.id, position: 1, published: bothAt.toISOString() })
      .execute();
    const page = await followingStream(db, [economics.id, operations.id], { page: 1, loaded: 1 });
    expect(page.entries[0]!.id).toBe(both);
    expect(page.entries.filter((e) => e.id === both)).toHaveLength(1);
    const counts = await Promise.all([economics.id, operations.id].map((id) => followingStream(db, [id], { page: 1, loaded: 1 })));
    expect(page.page.total).toBeLessThan(counts[0]!.page.total + counts[1]!.page.total);
    expect(await followingStream(db, [], { page: 1, loaded: 1 })).toMatchObject({ entries: [], page: { total: 0, last: 1 } });
  });

  it("names topics in the filter without '&' (R&D is RD) and finds them by that or by name", async () => {
    const topics = await listTopics(db);
    expect(topicFilterValue("R&D")).toBe("RD");
    expect(topicFilterValue("Economics & Society")).toBe("Economics Society");
    expect(topicForFilter(topics, "RD")?.name).toBe("R&D");
    expect(topicForFilter(topics, "rd")?.name).toBe("R&D");
    expect(topicForFilter(topics, "R&D")?.name).toBe("R&D");
    expect(topicForFilter(topics, "Economics Society")?.name).toBe("Economics & Society");
    expect(topicForFilter(topics, "Nothing")).toBeUndefined();
  });
});
