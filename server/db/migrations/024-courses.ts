import type { Kysely } from "kysely";

// Courses (server/learning/courses.ts): learning paths through the site's reading lists, named
// by the slugs POST /api/hmm/course/link takes. A course follows its list: deleting the list
// deletes the course.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("course")
    .addColumn("slug", "text", (c) => c.primaryKey())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("reading_list_id", "integer", (c) => c.notNull().references("reading_list.id").onDelete("cascade"))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("course").execute();
}
