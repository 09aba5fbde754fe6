import crypto from "node:crypto";
import { sql } from "kysely";
import type { Database } from "~/server/db/connection";
import type { LibraryContentType, ShareHistoryTable } from "~/server/db/schema";
import { withContent, type ContentItem, type ContentRef } from "./content";

export const HISTORY_PAGE_SIZE = 10;

export type ShareProvider = ShareHistoryTable["provider"];

export interface HistoryEntry {
  at: string;
  activity: "saved" | "read" | "watched" | "shared";
  provider: ShareProvider | null;
  item: ContentItem;
}

/** A signed-in reader opened an article or video: it goes to the top of their history. */
export async function recordView(db: Database, userId: string, ref: ContentRef, now = new Date()): Promise<void> {
  await db
    .insertInto("view_history")
    .values({ user_id: userId, content_type: ref.type, content_id: ref.id, viewed_at: now.toISOString() })
    .onConflict((oc) => oc.columns(["user_id", "content_type", "content_id"]).doUpdateSet({ viewed_at: now.toISOString() }))
    .execute();
}

export async function recordShare(
  db: Database,
  userId: string,
  ref: ContentRef,
  provider: ShareProvider,
  recipients: number,
  now = new Date(),
): Promise<void> {
  await db
    .insertInto("share_history")
    .values({
      id: crypto.randomUUID(),
      user_id: userId,
      content_type: ref.type,
      content_id: ref.id,
      provider,
      recipients,
      shared_at: now.toISOString(),
    })
    .execute();
}

type Page = { entries: HistoryEntry[]; total: number };

/** Reading history (articles) or watched history (videos), most recent first. */
export async function viewHistory(
  db: Database,
  userId: string,
  type: LibraryContentType,
  page: number,
  size = HISTORY_PAGE_SIZE,
): Promise<Page> {
  const base = db.selectFrom("view_history").where("user_id", "=", userId).where("content_type", "=", type);
  const [rows, count] = await Promise.all([
    base
      .select(["content_type", "content_id", "viewed_at"])
      .orderBy("viewed_at", "desc")
      .orderBy("content_id", "desc")
      .limit(size)
      .offset((page - 1) * size)
      .execute(),
    base.select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow(),
  ]);
  const activity = type === "video" ? "watched" : "read";
  return {
    entries: (await withContent(db, rows)).map((r) => ({ at: r.viewed_at, activity, provider: null, item: r.item })),
    total: Number(count.n),
  };
}

export async function shareHistory(db: Database, userId: string, page: number): Promise<Page> {
  const base = db.selectFrom("share_history").where("user_id", "=", userId);
  const [rows, count] = await Promise.all([
    base
      .select(["content_type", "content_id", "provider", "shared_at"])
      .orderBy("shared_at", "desc")
      .orderBy("id")
      .limit(HISTORY_PAGE_SIZE)
      .offset((page - 1) * HISTORY_PAGE_SIZE)
      .execute(),
    base.select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow(),
  ]);
  return {
    entries: (await withContent(db, rows)).map((r) => ({ at: r.shared_at, activity: "shared", provider: r.provider, item: r.item })),
    total: Number(count.n),
  };
}

/** Everything the reader did, most recent first: saves, reads, watches and shares. */
export async function activityFeed(db: Database, userId: string, page: number): Promise<Page> {
  const saved = db
    .selectFrom("library_item")
    .select([sql<string>`'saved'`.as("activity"), "content_type", "content_id", "saved_at as at", sql<string | null>`null`.as("provider")])
    .where("user_id", "=", userId);
  const viewed = db
    .selectFrom("view_history")
    .select([
      sql<string>`case when content_type = 'video' then 'watched' else 'read' end`.as("activity"),
      "content_type",
      "content_id",
      "viewed_at as at",
      sql<string | null>`null`.as("provider"),
    ])
    .where("user_id", "=", userId);
  const shared = db
    .selectFrom("share_history")
    .select([sql<string>`'shared'`.as("activity"), "content_type", "content_id", "shared_at as at", "provider"])
    .where("user_id", "=", userId);
  const all = saved.unionAll(viewed).unionAll(shared);
  const [rows, count] = await Promise.all([
    db
      .selectFrom(all.as("a"))
      .selectAll()
      .orderBy("at", "desc")
      .orderBy("activity")
      .limit(HISTORY_PAGE_SIZE)
      .offset((page - 1) * HISTORY_PAGE_SIZE)
      .execute(),
    db
      .selectFrom(all.as("a"))
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  return {
    entries: (await withContent(db, rows)).map((r) => ({
      at: r.at,
      activity: r.activity as HistoryEntry["activity"],
      provider: r.provider as ShareProvider | null,
      item: r.item,
    })),
    total: Number(count.n),
  };
}
