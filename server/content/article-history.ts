import type { Database } from "~/server/db/connection";
import { articlePath } from "~/shared/urls";

// What an article address readers cannot open (no published article has it) once was (ADR 076):
// an unpublished article's, answered 410; an old address of an article whose slug or date
// changed, answered 301 to where it is now; or nothing, 404. The one reader lookup that reads
// article_record, for its state alone.

export type FormerArticle = { kind: "withdrawn" } | { kind: "moved"; url: string } | { kind: "unknown" };

export async function formerArticle(db: Database, year: number, month: number, slug: string): Promise<FormerArticle> {
  const path = articlePath({ year, month, slug });
  const [withdrawn, redirect] = await Promise.all([
    db
      .selectFrom("article_record")
      .select("id")
      .where("slug", "=", slug)
      .where("status", "=", "unpublished")
      .executeTakeFirst(),
    db
      .selectFrom("article_redirect")
      .innerJoin("article_record", "article_record.id", "article_redirect.article_id")
      .select(["article_record.year", "article_record.month", "article_record.slug", "article_record.status"])
      .where("article_redirect.path", "=", path)
      .executeTakeFirst(),
  ]);
  // The slug decides, as for a published article (a wrong year or month is put right, not refused).
  if (withdrawn) return { kind: "withdrawn" };
  if (redirect?.status === "published") return { kind: "moved", url: articlePath(redirect) };
  if (redirect?.status === "unpublished") return { kind: "withdrawn" };
  return { kind: "unknown" };
}
