import crypto from "node:crypto";
import type { Database } from "~/server/db/connection";
import { newsletterBySlug } from "./catalog";

// The token in a newsletter's unsubscribe link: the reader's id and the newsletter's slug, with
// an HMAC under a key derived for this purpose alone from the site's session secret, so the link
// works without signing in and cannot be altered to name another reader or newsletter.

const PURPOSE = "meridian-review/newsletter-unsubscribe/v1";

function purposeKey(secret: string): Buffer {
  return crypto.createHmac("sha256", secret).update(PURPOSE).digest();
}

function mac(key: Buffer, payload: string): Buffer {
  return crypto.createHmac("sha256", key).update(payload).digest();
}

export function unsubscribeToken(secret: string, userId: string, slug: string): string {
  const payload = Buffer.from(`${userId}\n${slug}`, "utf8").toString("base64url");
  return `${payload}.${mac(purposeKey(secret), payload).toString("base64url")}`;
}

/** The reader and newsletter a token names, or undefined when it is malformed or its MAC is wrong. */
export function readUnsubscribeToken(secret: string, token: string): { userId: string; slug: string } | undefined {
  if (token.length > 512) return undefined;
  const match = /^([A-Za-z0-9_-]{1,400})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return undefined;
  const [, payload, given] = match as unknown as [string, string, string];
  const expected = mac(purposeKey(secret), payload);
  const actual = Buffer.from(given, "base64url");
  if (actual.length !== expected.length || !crypto.timingSafeEqual(actual, expected)) return undefined;
  const [userId, slug, extra] = Buffer.from(payload, "base64url").toString("utf8").split("\n");
  if (!userId || !slug || extra !== undefined) return undefined;
  return { userId, slug };
}

/** The reader and newsletter of a valid unsubscribe link, when both still exist. */
export async function unsubscribeLinkTarget(
  db: Database,
  secret: string,
  token: string,
): Promise<{ userId: string; slug: string; name: string } | undefined> {
  const read = readUnsubscribeToken(secret, token);
  if (!read) return undefined;
  const [newsletter, user] = await Promise.all([
    newsletterBySlug(db, read.slug),
    db.selectFrom("app_user").select("id").where("id", "=", read.userId).executeTakeFirst(),
  ]);
  if (!newsletter || !user) return undefined;
  return { userId: user.id, slug: newsletter.slug, name: newsletter.name };
}
