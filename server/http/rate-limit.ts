import { sql } from "kysely";
import type { Database } from "~/server/db/connection";

export interface RateLimitRule {
  limit: number;
  windowSeconds: number;
}

export type RateLimitResult = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * Counts one hit against `key` in a fixed window kept in the database, so every instance
 * behind a load balancer shares the count. The upsert is a single statement, so concurrent
 * hits are all counted.
 */
export async function hit(db: Database, key: string, rule: RateLimitRule, now = new Date()): Promise<RateLimitResult> {
  const windowMs = rule.windowSeconds * 1000;
  const start = Math.floor(now.getTime() / windowMs) * windowMs;
  const windowStart = new Date(start).toISOString();
  const windowEnd = new Date(start + windowMs).toISOString();
  const row = await db
    .insertInto("rate_limit")
    .values({ key, window_start: windowStart, window_end: windowEnd, hits: 1 })
    .onConflict((oc) =>
      oc.column("key").doUpdateSet({
        hits: sql`case when rate_limit.window_start = ${windowStart} then rate_limit.hits + 1 else 1 end`,
        window_start: windowStart,
        window_end: windowEnd,
      }),
    )
    .returning("hits")
    .executeTakeFirstOrThrow();
  if (row.hits <= rule.limit) return { allowed: true };
  return { allowed: false, retryAfterSeconds: Math.ceil((start + windowMs - now.getTime()) / 1000) };
}

/** Checks several keys at once (say, per address and per account); the strictest answer wins. */
export async function hitAll(db: Database, hits: [string, RateLimitRule][], now = new Date()): Promise<RateLimitResult> {
  let worst: RateLimitResult = { allowed: true };
  for (const [key, rule] of hits) {
    const result = await hit(db, key, rule, now);
    if (!result.allowed && (worst.allowed || result.retryAfterSeconds > worst.retryAfterSeconds)) worst = result;
  }
  return worst;
}
