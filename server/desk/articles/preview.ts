import crypto from "node:crypto";
import { ARTICLE_VIEW_COLUMNS, articleFromRow, articlePageAround, type ArticlePageData } from "~/server/content/articles";
import type { Database } from "~/server/db/connection";
import type { PreviewView } from "~/shared/preview-views";
import { secrets } from "~/server/secrets";
import type { ArticleStatus } from "~/shared/article-fields";
import { articlePath } from "~/shared/urls";

// An article's preview at a private address (ADR 079): /preview/{id}.{expiry}.{signature}, the
// signature an HMAC of the id and the expiry under a key of the site's own, so the link works
// for whoever has it (a colleague, a private window) with no desk session, until it expires.
// Nothing is stored; rotating SESSION_SECRET ends every preview link.

/** How long a preview link works. */
export const PREVIEW_LINK_HOURS = 72;
const HOUR_MS = 3_600_000;
const TOKEN = /^([1-9]\d{0,8})\.(\d{10})\.([A-Za-z0-9_-]{43})$/;

/** The key previews are signed with: the session secret's, for this use alone. */
const previewKey = (secret: string) => crypto.createHmac("sha256", secret).update("meridian:article-preview").digest();

function signature(secret: string, articleId: number, expires: number): string {
  return crypto.createHmac("sha256", previewKey(secret)).update(`${articleId}.${expires}`).digest("base64url");
}

/**
 * A preview token for the article, working until a whole hour at least PREVIEW_LINK_HOURS from
 * `now` (so the desk's links stay the same within an hour).
 */
export function previewToken(articleId: number, now: Date, secret = secrets().sessionSecret): string {
  const expires = Math.ceil((now.getTime() + PREVIEW_LINK_HOURS * HOUR_MS) / HOUR_MS) * (HOUR_MS / 1000);
  return `${articleId}.${expires}.${signature(secret, articleId, expires)}`;
}

/** The article a token previews while it has not expired; null for an expired, altered or made-up one. */
export function readPreviewToken(token: string, now: Date, secret = secrets().sessionSecret): number | null {
  const match = TOKEN.exec(token);
  if (!match) return null;
  const articleId = Number(match[1]);
  const expires = Number(match[2]);
  const expected = Buffer.from(signature(secret, articleId, expires));
  const given = Buffer.from(match[3]!);
  if (!crypto.timingSafeEqual(expected, given)) return null;
  return expires * 1000 > now.getTime() ? articleId : null;
}

/** The preview's address for the desk to link to, in one of its views ("guest" unless said). */
export function previewPath(articleId: number, options: { view?: PreviewView; now?: Date } = {}): string {
  const path = `/preview/${previewToken(articleId, options.now ?? new Date())}`;
  return options.view && options.view !== "guest" ? `${path}?view=${options.view}` : path;
}

export interface ArticlePreview {
  page: ArticlePageData;
  status: ArticleStatus;
  version: number;
  /** The address the article has, or will have once published. */
  path: string;
}

/** The article as last saved, in any state, with what its page shows around it; undefined for an unknown id. */
export async function articlePreview(db: Database, articleId: number): Promise<ArticlePreview | undefined> {
  const row = await db
    .selectFrom("article_record")
    .select([...ARTICLE_VIEW_COLUMNS, "status", "version"])
    .where("id", "=", articleId)
    .executeTakeFirst();
  if (!row) return undefined;
  const { status, version, ...columns } = row;
  const article = await articleFromRow(db, { ...columns, hero_image_id: columns.hero_image_id ?? null });
  // A series lists its published parts; an article not yet published is shown in its place.
  const series = article.series;
  if (series && !series.parts.some((p) => p.part === series.part))
    series.parts = [...series.parts, { part: series.part, title: article.title, url: article.url }].sort((a, b) => a.part - b.part);
  return { page: await articlePageAround(db, article), status, version, path: articlePath(row) };
}
