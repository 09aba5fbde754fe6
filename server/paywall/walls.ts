import crypto from "node:crypto";
import type { Database } from "~/server/db/connection";
import { userKey, visitorKey } from "~/server/readers/keys";
import type { Offer, Reader } from "./offers";

// What the meter funnel counts (ADR 090): who met a wall, under which A/B tag, and which accounts
// were opened from the registration wall's form. The subscriptions bought from a wall are the
// checkouts' own `ab_tag` (server/subscriptions/checkout.ts).

/** An A/B tag as the paywall's links and forms carry it (the configuration's rule). */
const AB_TAG = /^[A-Za-z0-9_-]{1,40}$/;

/** The tag a form or link sent, when it is one; null otherwise. */
export function wallTag(value: unknown): string | null {
  return typeof value === "string" && AB_TAG.test(value) ? value : null;
}

/** The meter's key for a reader who can meet a wall; null for those the funnel cannot tell apart or who never do. */
function viewerKey(reader: Reader): string | null {
  if (reader.kind === "guest") return visitorKey(reader.visitorId);
  if (reader.kind === "registered") return userKey(reader.userId);
  return null;
}

/**
 * Records that this reader met the offer's wall today (UTC), once a day per wall and tag however
 * often they reload. A client without a visitor cookie (unmetered) is not counted: each of its
 * requests would look like a new guest.
 */
export async function recordWallView(db: Database, reader: Reader, offer: Pick<Offer, "wall" | "abTag">, now = new Date()): Promise<void> {
  const viewer = viewerKey(reader);
  if (!offer.wall || !viewer) return;
  await db
    .insertInto("wall_view")
    .values({ day: now.toISOString().slice(0, 10), wall: offer.wall, ab_tag: offer.abTag, viewer })
    .onConflict((oc) => oc.columns(["wall", "ab_tag", "viewer", "day"]).doNothing())
    .execute();
}

/** Counts an account opened from the registration wall's form under this tag. */
export async function recordWallRegistration(db: Database, abTag: string, now = new Date()): Promise<void> {
  await db.insertInto("wall_registration").values({ id: crypto.randomUUID(), ab_tag: abTag, registered_at: now.toISOString() }).execute();
}
