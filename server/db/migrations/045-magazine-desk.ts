import type { Kysely } from "kysely";

// Magazine issues edited at the desk (issue 38): each issue counts its saves (`version`, which a
// save must name to be accepted, so no save is lost), says who saved it last and when, and may
// have an uploaded cover (ADR 077) in place of the drawn one. No two issues share a year and
// month. An issue's code is its page's address, so the codes it had before a change are kept
// here and their pages answer 301.
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  await s
    .alterTable("magazine_issue")
    .addColumn("version", "integer", (c) => c.notNull().defaultTo(1))
    .execute();
  await s.alterTable("magazine_issue").addColumn("updated_at", "text").execute();
  await s.alterTable("magazine_issue").addColumn("updated_by_name", "text").execute();
  await s
    .alterTable("magazine_issue")
    .addColumn("cover_image_id", "text", (c) => c.references("image.id").onDelete("set null"))
    .execute();
  await s.dropIndex("magazine_issue_year_idx").execute();
  await s.createIndex("magazine_issue_year_month_key").on("magazine_issue").columns(["year", "month"]).unique().execute();
  await s
    .createTable("issue_former_code")
    .addColumn("code", "text", (c) => c.primaryKey())
    .addColumn("issue_id", "integer", (c) => c.notNull().references("magazine_issue.id").onDelete("cascade"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await s.createIndex("issue_former_code_issue_idx").on("issue_former_code").column("issue_id").execute();
}

export async function down(): Promise<void> {
  throw new Error("Content migrations are not reversible; restore from a backup instead.");
}
