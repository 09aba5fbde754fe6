import type { Insertable } from "kysely";
import type { Database } from "~/server/db/connection";
import type { DB } from "~/server/db/schema";
import { bodyWordCount } from "~/server/content/markdown";
import { seededRandom } from "~/server/content/random";
import { slugify } from "~/shared/slugs";
import { insertChunked } from "./seed-content";
import { indexArticles, optimizeSearchIndex } from "~/server/search/documents";
import { dropSearchSlices, resliceSearchIndex } from "~/server/search/slices";

const BATCH = 500;
const CONTENT_TYPES = ["Article", "Article", "Article", "Research Summary", "Interview"];

/**
 * Adds `count` synthetic articles for scale tests: titles from the archive's feature pool,
 * bodies recombined from the seeded articles' paragraphs, dates spread over 2000–2024.
 * Calls onProgress after every batch.
 *
 * They are added oldest first, as a site publishes them, so that rows of the same months lie
 * together on disk. Added in random order, the newest thousand matches of a word on
 * PostgreSQL lay on a thousand different pages of search_match instead of a few dozen (ADR 040).
 */
export async function addSyntheticArticles(
  db: Database,
  count: number,
  onProgress: (done: number) => void = () => undefined,
): Promise<number> {
  const source = await db.selectFrom("article").select(["body", "dek", "summary"]).where("slug", "not like", "synthetic-%").execute();
  const paragraphs = source.flatMap((a) => a.body.split(/\n\s*\n/).filter((p) => !p.startsWith("#") && p.length > 200));
  const features = await db.selectFrom("issue_feature").select("title").distinct().execute();
  // Each is filed, as a seed article is, under a subject (its primary topic) and one of its topics.
  const topics = await db
    .selectFrom("topic")
    .select(["id", "subject_id"])
    .where("executive_only", "=", 0)
    .where("subject_id", "is not", null)
    .execute();
  const authors = await db.selectFrom("author").select("id").execute();
  if (paragraphs.length === 0 || features.length === 0) throw new Error("seed the original content first");
  const maxRow = await db
    .selectFrom("article_record")
    .select((eb) => eb.fn.max("id").as("id"))
    .executeTakeFirstOrThrow();
  let nextId = Number(maxRow.id ?? 0) + 1;
  const random = seededRandom(nextId);
  const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)]!;
  const dateRandom = seededRandom(nextId + 1);
  const dates = Array.from({ length: count }, () => ({
    year: 2000 + Math.floor(dateRandom() * 25),
    month: 1 + Math.floor(dateRandom() * 12),
    day: 1 + Math.floor(dateRandom() * 28),
  })).sort((a, b) => a.year - b.year || a.month - b.month || a.day - b.day);

  await dropSearchSlices(db);
  for (let done = 0; done < count;) {
    const size = Math.min(BATCH, count - done);
    const articles: Insertable<DB["article_record"]>[] = [];
    const articleAuthors: Insertable<DB["article_author"]>[] = [];
    const articleTopics: Insertable<DB["article_topic"]>[] = [];
    for (let i = 0; i < size; i++) {
      const id = nextId++;
      const { year, month, day } = dates[done + i]!;
      const published = `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
      const body = Array.from({ length: 4 + Math.floor(random() * 3) }, () => pick(paragraphs)).join("\n\n");
      const from = pick(source);
      const title = pick(features).title;
      const topic = pick(topics);
      articles.push({
        id,
        slug: `synthetic-${id}-${slugify(title)}`.slice(0, 110),
        year,
        month,
        title,
        dek: from.dek,
        sub_dek: "",
        summary: from.summary,
        body,
        content_type: pick(CONTENT_TYPES),
        published,
        tier: random() < 0.05 ? "top50" : "article",
        primary_topic_id: topic.subject_id!,
        series_id: null,
        series_part: null,
        word_count: bodyWordCount(body),
      });
      articleAuthors.push({ article_id: id, author_id: pick(authors).id, position: 0 });
      articleTopics.push(
        { article_id: id, topic_id: topic.subject_id!, position: 0, published },
        { article_id: id, topic_id: topic.id, position: 1, published },
      );
    }
    await db.transaction().execute(async (tx) => {
      await insertChunked(tx, "article_record", articles);
      await insertChunked(tx, "article_author", articleAuthors);
      await insertChunked(tx, "article_topic", articleTopics);
      await indexArticles(tx, { fromId: articles[0]!.id, toId: articles[articles.length - 1]!.id });
    });
    done += size;
    onProgress(done);
  }
  await resliceSearchIndex(db, { concurrently: false });
  await optimizeSearchIndex(db);
  return count;
}
