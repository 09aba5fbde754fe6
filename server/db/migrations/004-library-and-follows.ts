import type { Kysely } from "kysely";

// My Library (folders and saved items), what a reader has opened and shared, and what they
// follow: topics, newsletters and marketing campaigns.
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;

  // A reader's folders. `name_key` is the name lower-cased without spaces: names are unique by it.
  await s
    .createTable("library_folder")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("app_user.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("name_key", "text", (c) => c.notNull())
    .addColumn("slug", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("read_only", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addUniqueConstraint("library_folder_name_uq", ["user_id", "name_key"])
    .addUniqueConstraint("library_folder_slug_uq", ["user_id", "slug"])
    .execute();

  // What a reader saved (an article, video or podcast episode), once per item.
  await s
    .createTable("library_item")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("app_user.id").onDelete("cascade"))
    .addColumn("content_type", "text", (c) => c.notNull())
    .addColumn("content_id", "integer", (c) => c.notNull())
    .addColumn("read_only", "integer", (c) => c.notNull())
    .addColumn("saved_at", "text", (c) => c.notNull())
    .addUniqueConstraint("library_item_uq", ["user_id", "content_type", "content_id"])
    .execute();

  await s
    .createTable("library_item_folder")
    .addColumn("item_id", "text", (c) => c.notNull().references("library_item.id").onDelete("cascade"))
    .addColumn("folder_id", "text", (c) => c.notNull().references("library_folder.id").onDelete("cascade"))
    .addColumn("added_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("library_item_folder_pk", ["item_id", "folder_id"])
    .execute();
  await s.createIndex("library_item_folder_folder_idx").on("library_item_folder").column("folder_id").execute();

  // Reading and watched history: the last time a signed-in reader opened each item.
  await s
    .createTable("view_history")
    .addColumn("user_id", "text", (c) => c.notNull().references("app_user.id").onDelete("cascade"))
    .addColumn("content_type", "text", (c) => c.notNull())
    .addColumn("content_id", "integer", (c) => c.notNull())
    .addColumn("viewed_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("view_history_pk", ["user_id", "content_type", "content_id"])
    .execute();
  await s.createIndex("view_history_recent_idx").on("view_history").columns(["user_id", "viewed_at"]).execute();

  // Sharing history: one row per share, by network or e-mail.
  await s
    .createTable("share_history")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("app_user.id").onDelete("cascade"))
    .addColumn("content_type", "text", (c) => c.notNull())
    .addColumn("content_id", "integer", (c) => c.notNull())
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("recipients", "integer", (c) => c.notNull())
    .addColumn("shared_at", "text", (c) => c.notNull())
    .execute();
  await s.createIndex("share_history_recent_idx").on("share_history").columns(["user_id", "shared_at"]).execute();

  // Follows: kind "topic" (target: topic id), "newsletter" (newsletter slug) or "campaign" (campaign id).
  await s
    .createTable("follow")
    .addColumn("user_id", "text", (c) => c.notNull().references("app_user.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("target", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("follow_pk", ["user_id", "kind", "target"])
    .execute();

  // When a reader last looked at their following stream: newer items in followed topics are unread.
  await s
    .createTable("following_seen")
    .addColumn("user_id", "text", (c) => c.primaryKey().references("app_user.id").onDelete("cascade"))
    .addColumn("seen_at", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    "following_seen",
    "follow",
    "share_history",
    "view_history",
    "library_item_folder",
    "library_item",
    "library_folder",
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
