import type { Database } from "~/server/db/connection";

/** Most Popular counts the reads of this many days, today included. */
export const POPULAR_DAYS = 7;
/** Housekeeping drops read counts older than this. */
export const READ_DAYS_KEPT = 31;

/** The UTC day (YYYY-MM-DD) `offsetDays` from `now`. */
export function readDay(now: Date, offsetDays = 0): string {
  return new Date(now.getTime() + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

/** The most-read articles over the last POPULAR_DAYS days, most reads first (the newer article first on a tie). */
export async function mostReadArticleIds(db: Database, limit: number, now = new Date()): Promise<number[]> {
  const rows = await db
    .selectFrom("article_read_day")
    .select(["article_id", (eb) => eb.fn.sum<number | string>("reads").as("reads")])
    .where("day", ">", readDay(now, -POPULAR_DAYS))
    .groupBy("article_id")
    .orderBy("reads", "desc")
    .orderBy("article_id", "desc")
    .limit(limit)
    .execute();
  return rows.map((r) => r.article_id);
}
