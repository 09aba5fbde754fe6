import { sql, type Kysely } from "kysely";

// A topic's page lists its newest articles (ADR 098). With the publication date only on the
// article, SQLite walked every published article newest first until it had found ten of the
// topic: 145 ms of CPU for a topic of 5 articles among 100,000. The date is copied onto each of
// the article's topics, as stream_entry does for the curated streams, so that a topic's newest
// are one index range read backwards. The desk writes the topics anew whenever it saves an
// article's fields, the date among them.
export async function up(db: Kysely<unknown>): Promise<void> {
  // The default only fills the column for existing rows before they are given their dates.
  await sql`alter table article_topic add column published text not null default ''`.execute(db);
  await sql`update article_topic set published = (select published from article_record r where r.id = article_topic.article_id)`.execute(
    db,
  );
  await sql`create index article_topic_order_idx on article_topic (topic_id, published, article_id)`.execute(db);
  // Its first column answered "the topic's articles"; the new index does.
  await sql`drop index article_topic_topic_idx`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`create index article_topic_topic_idx on article_topic (topic_id)`.execute(db);
  await sql`drop index article_topic_order_idx`.execute(db);
  await sql`alter table article_topic drop column published`.execute(db);
}
