import type { Transaction } from "kysely";
import type { DB } from "~/server/db/schema";
import type { SeedCourse } from "./content-source";

/**
 * The courses (server/learning/courses.ts), each on the reading list it names. A seed step of its
 * own, so that databases seeded before there were courses get them too.
 */
export async function seedCourses(tx: Transaction<DB>, courses: readonly SeedCourse[]): Promise<void> {
  const lists = new Map((await tx.selectFrom("reading_list").select(["id", "slug"]).execute()).map((l) => [l.slug, l.id]));
  const rows = courses.map((c) => {
    const listId = lists.get(c.readingList);
    if (listId === undefined) throw new Error(`courses.json: ${c.slug} follows no reading list "${c.readingList}"`);
    return { slug: c.slug, title: c.title, description: c.description, reading_list_id: listId };
  });
  if (rows.length > 0) await tx.insertInto("course").values(rows).execute();
}
