import type { Mailer } from "~/server/adapters/mail";
import type { Database } from "~/server/db/connection";
import { contentItem, type ContentItem, type ContentRef } from "~/server/library/content";
import { recordShare } from "~/server/library/history";
import { hit } from "~/server/http/rate-limit";
import { subscriberStatus } from "~/server/subscriptions/entitlements";
import { mayWatch, videoById } from "~/server/content/videos";

/** A cap against abuse, beside MAX_SHARE_RECIPIENTS per message: e-mail shares per reader per day. */
export const EMAIL_SHARES_PER_DAY = 20;

export type Shareable = { ok: true; item: ContentItem } | { ok: false; error: "missing" | "subscribers-only" };

/** What a reader (or guest) may share: content that exists; a subscriber-only video only by its subscribers (spec 6). */
export async function shareableItem(db: Database, ref: ContentRef, userId: string | undefined): Promise<Shareable> {
  const item = await contentItem(db, ref);
  if (!item) return { ok: false, error: "missing" };
  if (item.type === "video") {
    const video = await videoById(db, item.id);
    const subscriber = userId ? await subscriberStatus(db, userId) : null;
    if (!video || !mayWatch(video, subscriber !== null)) return { ok: false, error: "subscribers-only" };
  }
  return { ok: true, item };
}

export type EmailShareResult = { ok: true } | { ok: false; error: "daily-limit"; retryAfterSeconds: number };

/**
 * Sends an item to the given addresses from the site (the reader's address as Reply-To), with
 * the item's title, summary and link: never any of the article's body.
 */
export async function shareByEmail(
  db: Database,
  mail: Mailer,
  input: { userId: string; senderName: string; from: string; to: string[]; message: string; item: ContentItem; siteUrl: string },
  now = new Date(),
): Promise<EmailShareResult> {
  const allowed = await hit(db, `share-email:u:${input.userId}`, { limit: EMAIL_SHARES_PER_DAY, windowSeconds: 86_400 }, now);
  if (!allowed.allowed) return { ok: false, error: "daily-limit", retryAfterSeconds: allowed.retryAfterSeconds };
  const link = `${input.siteUrl}${input.item.url}`;
  const note = input.message ? `${input.senderName} wrote:\n\n${input.message}\n\n` : "";
  await mail.send({
    to: input.to,
    subject: `${input.senderName} shared "${input.item.title}" with you`,
    text: `${note}${input.item.title}\n\n${input.item.summary}\n\nRead it on Meridian Review: ${link}\n\nYou received this because ${input.from} shared it with you. We have not added your address to any list.\n`,
    headers: { "Reply-To": input.from },
  });
  await recordShare(db, input.userId, { type: input.item.type, id: input.item.id }, "email", input.to.length, now);
  return { ok: true };
}
