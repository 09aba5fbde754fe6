import crypto from "node:crypto";
import type { Database } from "~/server/db/connection";

// Short links (spec 7, integration/url/shorten): a random code for a path on this site. A path
// keeps the code it was first given, so shortening the same page twice gives the same link.

/** 6 random bytes in base64url: 8 characters of A–Z, a–z, 0–9, "-" and "_" (48 bits). */
const CODE_BYTES = 6;
const CODE = /^[A-Za-z0-9_-]{8}$/;
/** A collision is already a one-in-billions event; several in a row mean something else is wrong. */
const MAX_TRIES = 5;

export function newShortCode(): string {
  return crypto.randomBytes(CODE_BYTES).toString("base64url");
}

/** Whether a value has the form of a code, so a malformed one costs no query. */
export function isShortCode(value: string): boolean {
  return CODE.test(value);
}

async function codeForPath(db: Database, path: string): Promise<string | undefined> {
  const row = await db.selectFrom("short_link").select("code").where("path", "=", path).executeTakeFirst();
  return row?.code;
}

/**
 * The code for a path (already checked to be one of this site's): the one it has, else a new
 * random one. A new code that is taken is drawn again; a concurrent call that stored the same
 * path first wins, and both answer its code.
 */
export async function shortCodeFor(db: Database, path: string, drawCode = newShortCode, now = new Date()): Promise<string> {
  const existing = await codeForPath(db, path);
  if (existing) return existing;
  for (let tries = 0; tries < MAX_TRIES; tries += 1) {
    const code = drawCode();
    const inserted = await db
      .insertInto("short_link")
      .values({ code, path, created_at: now.toISOString() })
      .onConflict((oc) => oc.doNothing())
      .returning("code")
      .executeTakeFirst();
    if (inserted) return inserted.code;
    const raced = await codeForPath(db, path);
    if (raced) return raced;
  }
  throw new Error(`no free short code after ${MAX_TRIES} tries`);
}

/** The path a code stands for, or undefined for an unknown or malformed code. */
export async function shortLinkPath(db: Database, code: string): Promise<string | undefined> {
  if (!isShortCode(code)) return undefined;
  const row = await db.selectFrom("short_link").select("path").where("code", "=", code).executeTakeFirst();
  return row?.path;
}
