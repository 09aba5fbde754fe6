import type { Database } from "~/server/db/connection";
import { hashToken, newToken } from "./tokens";

/** How much of a browser's User-Agent a session keeps: enough to tell devices apart. */
export const USER_AGENT_MAX = 256;

/**
 * Starts a session; the token goes into the cookie and only its hash into the database, with
 * the browser that asked (its User-Agent, cut short), which the reader's own data lists.
 */
export async function createSession(
  db: Database,
  userId: string,
  days: number,
  now = new Date(),
  userAgent?: string | null,
): Promise<string> {
  const token = newToken();
  await db
    .insertInto("user_session")
    .values({
      id_hash: hashToken(token),
      user_id: userId,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + days * 86_400_000).toISOString(),
      user_agent: userAgent ? userAgent.slice(0, USER_AGENT_MAX) : null,
    })
    .execute();
  return token;
}

export async function endSession(db: Database, token: string): Promise<void> {
  await db.deleteFrom("user_session").where("id_hash", "=", hashToken(token)).execute();
}

/** Ends every session of the user except the one given (the reader's current one, if any). */
export async function endOtherSessions(db: Database, userId: string, keepToken?: string): Promise<void> {
  let query = db.deleteFrom("user_session").where("user_id", "=", userId);
  if (keepToken) query = query.where("id_hash", "!=", hashToken(keepToken));
  await query.execute();
}

/** Deletes the sessions that have expired; returns how many. */
export async function purgeExpiredSessions(db: Database, now = new Date()): Promise<number> {
  const result = await db.deleteFrom("user_session").where("expires_at", "<=", now.toISOString()).executeTakeFirst();
  return Number(result.numDeletedRows);
}
