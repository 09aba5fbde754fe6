import type { Database } from "~/server/db/connection";
import { readingListPath } from "~/shared/urls";

// Courses (spec 7: POST /api/hmm/course/link gives course URLs by slug). A course is a learning
// path through one of the site's reading lists, so its address is that list's syllabus: the
// reading list, its articles numbered in the order to read them (ADR 059).

/** The path of each course named, by its slug; a slug no course has is left out. */
export async function coursePaths(db: Database, slugs: readonly string[]): Promise<Map<string, string>> {
  if (slugs.length === 0) return new Map();
  const rows = await db
    .selectFrom("course")
    .innerJoin("reading_list", "reading_list.id", "course.reading_list_id")
    .select(["course.slug", "reading_list.slug as list"])
    .where("course.slug", "in", [...new Set(slugs)])
    .execute();
  return new Map(rows.map((r) => [r.slug, readingListPath(r.list)]));
}
