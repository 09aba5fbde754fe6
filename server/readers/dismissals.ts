import type { Database } from "~/server/db/connection";

/**
 * One-time messages a reader has closed (help boxes, the subscriber onboarding overlay, the
 * persistent banner), remembered per account or, for guests, per visitor.
 */
export const HELP_BOX_IDS = [
  "sign-in-benefits",
  "article-saves",
  "firmographics",
  "my-library",
  "insider-newsletter",
  "subscriber-search",
] as const;
export type HelpBoxId = (typeof HELP_BOX_IDS)[number];

export const DISMISSIBLE = [...HELP_BOX_IDS.map((id) => `help:${id}` as const), "onboarding", "persistent-banner"] as const;
export type Dismissible = (typeof DISMISSIBLE)[number];

export function isDismissible(value: unknown): value is Dismissible {
  return typeof value === "string" && (DISMISSIBLE as readonly string[]).includes(value);
}

export async function dismiss(db: Database, ownerKey: string, item: Dismissible, now = new Date()): Promise<void> {
  await db
    .insertInto("dismissal")
    .values({ owner_key: ownerKey, item, dismissed_at: now.toISOString() })
    .onConflict((oc) => oc.columns(["owner_key", "item"]).doNothing())
    .execute();
}

export async function dismissedItems(db: Database, ownerKey: string): Promise<Dismissible[]> {
  const rows = await db.selectFrom("dismissal").select("item").where("owner_key", "=", ownerKey).execute();
  return rows.map((r) => r.item).filter(isDismissible);
}
