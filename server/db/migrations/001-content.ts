import type { Kysely } from "kysely";

// Content tables. Ids are assigned by the seeder, so no dialect-specific
// auto-increment is needed here.
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  await s
    .createTable("topic")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("subscriber_only", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("executive_only", "integer", (c) => c.notNull().defaultTo(0))
    .execute();

  await s
    .createTable("author")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("role", "text", (c) => c.notNull())
    .addColumn("bio", "text", (c) => c.notNull())
    .execute();

  await s
    .createTable("series")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("title", "text", (c) => c.notNull())
    .execute();

  await s
    .createTable("article")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("year", "integer", (c) => c.notNull())
    .addColumn("month", "integer", (c) => c.notNull())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("dek", "text", (c) => c.notNull())
    .addColumn("sub_dek", "text", (c) => c.notNull())
    .addColumn("summary", "text", (c) => c.notNull())
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("content_type", "text", (c) => c.notNull())
    .addColumn("published", "text", (c) => c.notNull())
    .addColumn("tier", "text", (c) => c.notNull())
    .addColumn("primary_topic_id", "integer", (c) => c.notNull().references("topic.id"))
    .addColumn("series_id", "integer", (c) => c.references("series.id"))
    .addColumn("series_part", "integer")
    .addColumn("word_count", "integer", (c) => c.notNull())
    .execute();
  await s.createIndex("article_published_idx").on("article").columns(["published", "id"]).execute();
  await s.createIndex("article_series_idx").on("article").column("series_id").execute();

  await s
    .createTable("article_author")
    .addColumn("article_id", "integer", (c) => c.notNull().references("article.id").onDelete("cascade"))
    .addColumn("author_id", "integer", (c) => c.notNull().references("author.id"))
    .addColumn("position", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("article_author_pk", ["article_id", "author_id"])
    .execute();
  await s.createIndex("article_author_author_idx").on("article_author").column("author_id").execute();

  await s
    .createTable("article_topic")
    .addColumn("article_id", "integer", (c) => c.notNull().references("article.id").onDelete("cascade"))
    .addColumn("topic_id", "integer", (c) => c.notNull().references("topic.id"))
    .addColumn("position", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("article_topic_pk", ["article_id", "topic_id"])
    .execute();
  await s.createIndex("article_topic_topic_idx").on("article_topic").column("topic_id").execute();

  // Curated streams (big-ideas, ascend, ...). "published" is copied from the article so a
  // stream page is one index range scan.
  await s
    .createTable("stream_entry")
    .addColumn("stream", "text", (c) => c.notNull())
    .addColumn("article_id", "integer", (c) => c.notNull().references("article.id").onDelete("cascade"))
    .addColumn("published", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("stream_entry_pk", ["stream", "article_id"])
    .execute();
  await s.createIndex("stream_entry_order_idx").on("stream_entry").columns(["stream", "published", "article_id"]).execute();

  await s
    .createTable("magazine_issue")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("code", "text", (c) => c.notNull().unique())
    .addColumn("year", "integer", (c) => c.notNull())
    .addColumn("month", "integer", (c) => c.notNull())
    .addColumn("month_label", "text", (c) => c.notNull())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("summary", "text", (c) => c.notNull())
    .execute();
  await s.createIndex("magazine_issue_year_idx").on("magazine_issue").columns(["year", "month"]).execute();

  await s
    .createTable("issue_feature")
    .addColumn("issue_id", "integer", (c) => c.notNull().references("magazine_issue.id").onDelete("cascade"))
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("article_id", "integer", (c) => c.references("article.id"))
    .addPrimaryKeyConstraint("issue_feature_pk", ["issue_id", "position"])
    .execute();

  await s
    .createTable("product")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("product_type", "text", (c) => c.notNull())
    .addColumn("topic_id", "integer", (c) => c.notNull().references("topic.id"))
    .addColumn("authors", "text", (c) => c.notNull())
    .addColumn("summary", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("published", "text", (c) => c.notNull())
    .addColumn("pages", "integer", (c) => c.notNull())
    .execute();

  await s
    .createTable("product_availability")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("product_id", "integer", (c) => c.notNull().references("product.id").onDelete("cascade"))
    .addColumn("format", "text", (c) => c.notNull())
    .addColumn("code", "text", (c) => c.notNull())
    .addColumn("language", "text", (c) => c.notNull())
    .addColumn("list_price_cents", "integer", (c) => c.notNull())
    .addColumn("line_type", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("available_date", "text")
    .addColumn("permissions_available", "integer", (c) => c.notNull())
    .addColumn("volume_pricing", "integer", (c) => c.notNull())
    .execute();
  await s.createIndex("product_availability_product_idx").on("product_availability").column("product_id").execute();

  await s
    .createTable("video")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("duration_seconds", "integer", (c) => c.notNull())
    .addColumn("published", "text", (c) => c.notNull())
    .addColumn("topic_id", "integer", (c) => c.notNull().references("topic.id"))
    .addColumn("tags", "text", (c) => c.notNull())
    .addColumn("subscriber_only", "integer", (c) => c.notNull())
    .execute();

  await s
    .createTable("playlist")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("name", "text", (c) => c.notNull())
    .execute();

  await s
    .createTable("playlist_video")
    .addColumn("playlist_id", "integer", (c) => c.notNull().references("playlist.id").onDelete("cascade"))
    .addColumn("video_id", "integer", (c) => c.notNull().references("video.id"))
    .addColumn("position", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("playlist_video_pk", ["playlist_id", "position"])
    .execute();

  await s
    .createTable("podcast_series")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("feed_type", "text", (c) => c.notNull())
    .addColumn("hosts", "text", (c) => c.notNull())
    .execute();

  await s
    .createTable("podcast_episode")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("series_id", "integer", (c) => c.notNull().references("podcast_series.id").onDelete("cascade"))
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("pub_date", "text", (c) => c.notNull())
    .addColumn("season", "integer", (c) => c.notNull())
    .addColumn("episode", "integer", (c) => c.notNull())
    .addColumn("episode_type", "text", (c) => c.notNull())
    .addColumn("duration_seconds", "integer", (c) => c.notNull())
    .execute();
  await s.createIndex("podcast_episode_series_idx").on("podcast_episode").columns(["series_id", "pub_date"]).execute();

  await s
    .createTable("newsletter")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("frequency", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("subscriber_only", "integer", (c) => c.notNull())
    .execute();

  await s
    .createTable("marketing_campaign")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull())
    .execute();

  await s
    .createTable("reading_list")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull())
    .execute();

  await s
    .createTable("reading_list_item")
    .addColumn("list_id", "integer", (c) => c.notNull().references("reading_list.id").onDelete("cascade"))
    .addColumn("article_id", "integer", (c) => c.notNull().references("article.id").onDelete("cascade"))
    .addColumn("position", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("reading_list_item_pk", ["list_id", "article_id"])
    .execute();

  await s
    .createTable("seed_state")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("completed_at", "text", (c) => c.notNull())
    .execute();
}

export async function down(): Promise<void> {
  throw new Error("Content migrations are not reversible; restore from a backup instead.");
}
