import { sql, type Expression } from "kysely";

/**
 * How a reader's server-side records (meter reads, dismissed messages) are keyed: an account by
 * its user id, a guest by the id in their visitor cookie.
 */
export const userKey = (userId: string) => `u:${userId}`;
/** userKey in SQL, of a user id column. */
export const userKeyOf = (userId: Expression<string>) => sql<string>`${userKey("")} || ${userId}`;
export const visitorKey = (visitorId: string) => `v:${visitorId}`;
