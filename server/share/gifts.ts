import crypto from "node:crypto";
import { sql } from "kysely";
import { hashToken, newToken } from "~/server/accounts/tokens";
import type { Database } from "~/server/db/connection";
import { articlePath } from "~/shared/urls";

export type CreateGiftResult = { ok: true; token: string; giftId: string; giftsLeft: number } | { ok: false; reason: "allowance-used" };

export interface Gift {
  id: string;
  articleId: number;
  articleTitle: string;
  articleUrl: string;
  createdAt: string;
  revoked: boolean;
}

// newToken() is 32 random bytes in base64url: exactly 43 characters of this alphabet.
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** The calendar month (UTC) an allowance belongs to: "YYYY-MM". */
export function giftPeriod(now: Date): string {
  return now.toISOString().slice(0, 7);
}

export async function giftsLeft(db: Database, userId: string, allowance: number, now = new Date()): Promise<number> {
  const row = await db
    .selectFrom("gift_allowance")
    .select("used")
    .where("user_id", "=", userId)
    .where("period", "=", giftPeriod(now))
    .executeTakeFirst();
  return Math.max(0, allowance - Number(row?.used ?? 0));
}

/**
 * Takes one gift from the month's allowance and stores a link for the article. The allowance
 * is taken by a conditional update of the month's row, so requests at the same moment (on any
 * connection or server) never give more than `allowance` links.
 */
export async function createGift(
  db: Database,
  input: { userId: string; articleId: number; allowance: number },
  now = new Date(),
): Promise<CreateGiftResult> {
  const period = giftPeriod(now);
  return db.transaction().execute(async (tx) => {
    await tx
      .insertInto("gift_allowance")
      .values({ user_id: input.userId, period, used: 0 })
      .onConflict((oc) => oc.columns(["user_id", "period"]).doNothing())
      .execute();
    const taken = await tx
      .updateTable("gift_allowance")
      .set({ used: sql`used + 1` })
      .where("user_id", "=", input.userId)
      .where("period", "=", period)
      .where("used", "<", input.allowance)
      .returning("used")
      .executeTakeFirst();
    if (!taken) return { ok: false, reason: "allowance-used" } as const;

    const token = newToken();
    const giftId = crypto.randomUUID();
    await tx
      .insertInto("gift_link")
      .values({
        id: giftId,
        token_hash: hashToken(token),
        user_id: input.userId,
        article_id: input.articleId,
        created_at: now.toISOString(),
        revoked_at: null,
      })
      .execute();
    return { ok: true, token, giftId, giftsLeft: Math.max(0, input.allowance - Number(taken.used)) } as const;
  });
}

/** A gift link opens its article for `validDays` days after it was made. */
export const giftExpiresAt = (createdAt: string, validDays: number) => new Date(new Date(createdAt).getTime() + validDays * 86_400_000);

/**
 * The gift a token opens, if it is for this article and has not been revoked; "expired" when it
 * was, but is older than `validDays` days.
 */
export async function resolveGift(
  db: Database,
  token: string,
  articleId: number,
  validity: { validDays: number; now?: Date },
): Promise<{ giftId: string; giverId: string } | "expired" | undefined> {
  if (!TOKEN_SHAPE.test(token) || !Number.isSafeInteger(articleId)) return undefined;
  const row = await db
    .selectFrom("gift_link")
    .select(["id", "user_id", "created_at"])
    .where("token_hash", "=", hashToken(token))
    .where("article_id", "=", articleId)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  if (!row) return undefined;
  if (giftExpiresAt(row.created_at, validity.validDays) <= (validity.now ?? new Date())) return "expired";
  return { giftId: row.id, giverId: row.user_id };
}

/**
 * Stops the giver's link from opening the article. The allowance is not given back (else
 * revoking and re-creating would give unlimited links). Revoking again keeps the first time.
 */
export async function revokeGift(db: Database, userId: string, giftId: string, now = new Date()): Promise<boolean> {
  const result = await db
    .updateTable("gift_link")
    .set({ revoked_at: sql<string>`coalesce(revoked_at, ${now.toISOString()})` })
    .where("id", "=", giftId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The giver's gifts, newest first. */
export async function listGifts(db: Database, userId: string, limit = 50): Promise<Gift[]> {
  const rows = await db
    .selectFrom("gift_link as g")
    .innerJoin("article as a", "a.id", "g.article_id")
    .select(["g.id", "g.article_id", "g.created_at", "g.revoked_at", "a.title", "a.year", "a.month", "a.slug"])
    .where("g.user_id", "=", userId)
    .orderBy("g.created_at", "desc")
    .orderBy("g.id")
    .limit(Math.max(1, Math.min(Math.floor(limit) || 1, 500)))
    .execute();
  return rows.map((r) => ({
    id: r.id,
    articleId: Number(r.article_id),
    articleTitle: r.title,
    articleUrl: articlePath(r),
    createdAt: r.created_at,
    revoked: r.revoked_at !== null,
  }));
}
