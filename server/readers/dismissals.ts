import { sql, type Expression } from "kysely";
import type { Database } from "~/server/db/connection";
import { isPostgres } from "~/server/db/dialect";

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

/** The owner's dismissed items in one column (dismissedIn reads it), for a query that reads more beside them. */
export function dismissedColumn(db: Database, ownerKey: Expression<string>) {
  const item = sql.ref("dismissal.item");
  const items = isPostgres(db) ? sql`string_agg(${item}, ',')` : sql`group_concat(${item}, ',')`;
  return sql<string | null>`(select ${items} from ${sql.table("dismissal")} where ${sql.ref("dismissal.owner_key")} = ${ownerKey})`;
}

/** The items of a dismissedColumn. */
export function dismissedIn(column: string | null): Dismissible[] {
  return column ? column.split(",").filter(isDismissible) : [];
}
