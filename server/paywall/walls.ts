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

/** A wall met, as the meter funnel counts it: once a day per reader, wall and tag (`wall_view`). */
export interface WallView {
  wall: "registration" | "subscribe";
  abTag: string;
  /** The meter's key of who met it. */
  viewer: string;
}

/**
 * The wall view this offer counts for this reader, recorded with the page's reads
 * (`recordArticleRead`); null when it has no wall, or when the reader is a client without a
 * visitor cookie (unmetered): each of its requests would look like a new guest.
 */
export function wallView(reader: Reader, offer: Pick<Offer, "wall" | "abTag">): WallView | null {
  const viewer = viewerKey(reader);
  return offer.wall && viewer ? { wall: offer.wall, abTag: offer.abTag, viewer } : null;
}

/** Counts an account opened from the registration wall's form under this tag. */
export async function recordWallRegistration(db: Database, abTag: string, now = new Date()): Promise<void> {
  await db.insertInto("wall_registration").values({ id: crypto.randomUUID(), ab_tag: abTag, registered_at: now.toISOString() }).execute();
}
