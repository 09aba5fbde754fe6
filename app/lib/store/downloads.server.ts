import { articlePage, type ArticlePage } from "~/server/content/articles";
import type { Database } from "~/server/db/connection";
import { articlePath } from "~/shared/urls";
import { applySecurityHeaders } from "~/app/lib/http/security.server";

/** The article a reprint id stands for, with everything the PDF prints. */
export async function articleById(db: Database, id: number): Promise<ArticlePage | undefined> {
  const row = await db.selectFrom("article").select(["year", "month", "slug"]).where("id", "=", id).executeTakeFirst();
  if (!row) return undefined;
  const found = await articlePage(db, row.year, row.month, row.slug);
  return found.kind === "found" ? found.page.article : undefined;
}

/** The path of the visual-library article a slug names (only those have downloadable charts). */
export async function visualLibraryArticlePath(db: Database, slug: string): Promise<string | undefined> {
  if (!/^[a-z0-9-]{1,120}$/.test(slug)) return undefined;
  const row = await db
    .selectFrom("article")
    .select(["year", "month", "slug"])
    .where("slug", "=", slug)
    .where("tier", "=", "visual-library")
    .executeTakeFirst();
  return row && articlePath(row);
}

/** A file for one subscriber: saved, not shown, and kept by no cache. */
export function attachment(body: string | Uint8Array<ArrayBuffer>, contentType: string, filename: string): Response {
  const headers = new Headers({
    "Content-Type": contentType,
    "Content-Disposition": `attachment; filename="${filename}"`,
    "Cache-Control": "private, no-store",
  });
  applySecurityHeaders(headers);
  return new Response(body, { headers });
}
