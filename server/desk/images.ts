import type { Database } from "~/server/db/connection";
import { isPostgres } from "~/server/db/dialect";
import { bumpContentGeneration, noteContentChanged } from "~/server/content/content-generation";
import { chartImage } from "~/server/images/charts";
import type { ArticleStatus } from "~/shared/article-fields";
import { IMAGE_VARIANT_FORMATS, imagePath, variantWidths, type ImageRef, type ImageVariantFormat } from "~/shared/uploaded-images";
import { reindexIssue, reindexProduct } from "~/server/search/documents";
import { ISSUE_COVER_SIZE, PRODUCT_COVER_SIZE } from "~/shared/art-sizes";
import { articleArtPath, articlePath, issueArtKey, issueCoverPath, issuePath, productCoverPath } from "~/shared/urls";
import { recordAudit, type AuditActor } from "./audit";

// Uploaded images in use (issue 38): an article's hero image, an author's photo and a magazine
// issue's cover. Each is an uploaded image (ADR 077) or none, when the article shows its
// generated art, the author no photo and the issue its drawn cover. None is one of its owner's
// text fields: changing it makes no revision and leaves the version alone (an editor's open save
// is not made stale by it); it is its own audited action. A change readers can see counts the content generation up, so that every
// instance's caches drop the pages that showed the old picture.

export type PictureChange =
  | { ok: true; imageId: string | null; changed: boolean }
  | { ok: false; reason: "missing-article" | "missing-author" | "missing-issue" | "missing-product" | "missing-image" };

/** An uploaded image's ref, or undefined for an unknown id. */
export async function imageRef(db: Database, id: string): Promise<ImageRef | undefined> {
  return db.selectFrom("image").select(["id", "width", "height", "alt"]).where("id", "=", id).executeTakeFirst();
}

async function changed(
  db: Database,
  imageId: string | null,
  write: (tx: Database) => Promise<{ result: PictureChange; visible: boolean }>,
  now: Date,
): Promise<PictureChange> {
  const done = await db.transaction().execute(async (tx) => {
    if (imageId !== null && !(await imageRef(tx, imageId)))
      return { result: { ok: false, reason: "missing-image" } as const, generation: null };
    const { result, visible } = await write(tx);
    return { result, generation: result.ok && result.changed && visible ? await bumpContentGeneration(tx, now) : null };
  });
  if (done.generation !== null) noteContentChanged(db, done.generation);
  return done.result;
}

/** Sets (or, with null, removes) an article's hero image, in any state. */
export function setArticleImage(
  db: Database,
  actor: AuditActor,
  articleId: number,
  imageId: string | null,
  now: Date,
): Promise<PictureChange> {
  return changed(
    db,
    imageId,
    async (tx) => {
      let query = tx.selectFrom("article_record").select(["id", "status", "hero_image_id"]).where("id", "=", articleId);
      if (isPostgres(tx)) query = query.forUpdate();
      const article = await query.executeTakeFirst();
      if (!article) return { result: { ok: false, reason: "missing-article" }, visible: false };
      const before = article.hero_image_id ?? null;
      if (before === imageId) return { result: { ok: true, imageId, changed: false }, visible: false };
      await tx.updateTable("article_record").set({ hero_image_id: imageId }).where("id", "=", articleId).execute();
      await recordAudit(
        tx,
        { actor, action: "article.image", subject: `article:${articleId}`, before: { imageId: before }, after: { imageId } },
        now,
      );
      return { result: { ok: true, imageId, changed: true }, visible: article.status === "published" };
    },
    now,
  );
}

/** An author named by slug, or by id when a number. */
function authorQuery(db: Database, author: string | number) {
  const query = db.selectFrom("author").select(["id", "slug", "name", "photo_image_id"]);
  return typeof author === "number" ? query.where("id", "=", author) : query.where("slug", "=", author);
}

/** Sets (or, with null, removes) an author's photo. Authors are shown on published articles, so readers see it at once. */
export function setAuthorPhoto(
  db: Database,
  actor: AuditActor,
  author: string | number,
  imageId: string | null,
  now: Date,
): Promise<PictureChange> {
  return changed(
    db,
    imageId,
    async (tx) => {
      let query = authorQuery(tx, author);
      if (isPostgres(tx)) query = query.forUpdate();
      const found = await query.executeTakeFirst();
      if (!found) return { result: { ok: false, reason: "missing-author" }, visible: false };
      const before = found.photo_image_id ?? null;
      if (before === imageId) return { result: { ok: true, imageId, changed: false }, visible: false };
      await tx.updateTable("author").set({ photo_image_id: imageId }).where("id", "=", found.id).execute();
      await recordAudit(
        tx,
        { actor, action: "author.photo", subject: `author:${found.slug}`, before: { imageId: before }, after: { imageId } },
        now,
      );
      return { result: { ok: true, imageId, changed: true }, visible: true };
    },
    now,
  );
}

/** Sets (or, with null, removes) an issue's cover. Issues are public, so readers see it at once, in search results too. */
export function setIssueCover(db: Database, actor: AuditActor, issueId: number, imageId: string | null, now: Date): Promise<PictureChange> {
  return changed(
    db,
    imageId,
    async (tx) => {
      let query = tx.selectFrom("magazine_issue").select(["id", "code", "cover_image_id"]).where("id", "=", issueId);
      if (isPostgres(tx)) query = query.forUpdate();
      const issue = await query.executeTakeFirst();
      if (!issue) return { result: { ok: false, reason: "missing-issue" }, visible: false };
      const before = issue.cover_image_id ?? null;
      if (before === imageId) return { result: { ok: true, imageId, changed: false }, visible: false };
      await tx.updateTable("magazine_issue").set({ cover_image_id: imageId }).where("id", "=", issueId).execute();
      await reindexIssue(tx, issueId);
      await recordAudit(
        tx,
        { actor, action: "magazine-issue.cover", subject: `magazine-issue:${issue.code}`, before: { imageId: before }, after: { imageId } },
        now,
      );
      return { result: { ok: true, imageId, changed: true }, visible: true };
    },
    now,
  );
}

/**
 * Sets (or, with null, removes) a store product's cover (ADR 091). Products are public, so readers
 * see it at once: the store, the product's pages, carts and articles' promos.
 */
export function setProductCover(
  db: Database,
  actor: AuditActor,
  productId: number,
  imageId: string | null,
  now: Date,
): Promise<PictureChange> {
  return changed(
    db,
    imageId,
    async (tx) => {
      let query = tx.selectFrom("product").select(["id", "slug", "cover_image_id"]).where("id", "=", productId);
      if (isPostgres(tx)) query = query.forUpdate();
      const product = await query.executeTakeFirst();
      if (!product) return { result: { ok: false, reason: "missing-product" }, visible: false };
      const before = product.cover_image_id ?? null;
      if (before === imageId) return { result: { ok: true, imageId, changed: false }, visible: false };
      await tx.updateTable("product").set({ cover_image_id: imageId }).where("id", "=", productId).execute();
      await reindexProduct(tx, productId);
      await recordAudit(
        tx,
        { actor, action: "product.cover", subject: `product:${product.slug}`, before: { imageId: before }, after: { imageId } },
        now,
      );
      return { result: { ok: true, imageId, changed: true }, visible: true };
    },
    now,
  );
}

export interface ProductPicture {
  id: number;
  slug: string;
  title: string;
  cover: ImageRef | null;
  /** The drawn cover readers see when none is uploaded. */
  fallback: { path: string; alt: string; width: number; height: number };
}

export async function productPicture(db: Database, productId: number): Promise<ProductPicture | undefined> {
  const row = await db
    .selectFrom("product")
    .select(["id", "slug", "title", "cover_image_id"])
    .where("id", "=", productId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    cover: row.cover_image_id ? ((await imageRef(db, row.cover_image_id)) ?? null) : null,
    fallback: { path: productCoverPath(row.slug), alt: `The drawn cover of ${row.title}`, ...PRODUCT_COVER_SIZE },
  };
}

/** An article as its image page shows it: what it is called, where, and its hero or the art shown without one. */
export interface ArticlePicture {
  id: number;
  title: string;
  status: ArticleStatus;
  path: string;
  hero: ImageRef | null;
  /** The generated art (or a visual-library article's chart) readers see when there is no hero. */
  fallback: { path: string; alt: string };
}

export async function articlePicture(db: Database, articleId: number): Promise<ArticlePicture | undefined> {
  const row = await db
    .selectFrom("article_record")
    .select(["id", "slug", "year", "month", "title", "status", "tier", "hero_image_id"])
    .where("id", "=", articleId)
    .executeTakeFirst();
  if (!row) return undefined;
  const chart = row.tier === "visual-library" ? chartImage(row.slug) : undefined;
  return {
    id: row.id,
    title: row.title,
    status: row.status,
    path: articlePath(row),
    hero: row.hero_image_id ? ((await imageRef(db, row.hero_image_id)) ?? null) : null,
    fallback: chart ?? { path: articleArtPath(row.slug), alt: `Abstract illustration accompanying “${row.title}”` },
  };
}

export interface AuthorPicture {
  id: number;
  slug: string;
  name: string;
  photo: ImageRef | null;
}

export async function authorPicture(db: Database, author: string | number): Promise<AuthorPicture | undefined> {
  const row = await authorQuery(db, author).executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    photo: row.photo_image_id ? ((await imageRef(db, row.photo_image_id)) ?? null) : null,
  };
}

export interface IssuePicture {
  id: number;
  code: string;
  title: string;
  monthLabel: string;
  year: number;
  path: string;
  cover: ImageRef | null;
  /** The drawn cover readers see when none is uploaded. */
  fallback: { path: string; alt: string; width: number; height: number };
}

export async function issuePicture(db: Database, issueId: number): Promise<IssuePicture | undefined> {
  const row = await db
    .selectFrom("magazine_issue")
    .select(["id", "code", "year", "month_label", "title", "version", "cover_image_id"])
    .where("id", "=", issueId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    code: row.code,
    title: row.title,
    monthLabel: row.month_label,
    year: row.year,
    path: issuePath(row.code),
    cover: row.cover_image_id ? ((await imageRef(db, row.cover_image_id)) ?? null) : null,
    fallback: {
      path: issueCoverPath(issueArtKey(row)),
      alt: `The drawn cover of the ${row.month_label} ${row.year} issue`,
      ...ISSUE_COVER_SIZE,
    },
  };
}

/** An image as the Admin API gives it: each format's srcset, as absolute URLs on siteUrl. */
export function apiImage(image: ImageRef, siteUrl: string) {
  const widths = variantWidths(image.width);
  const srcSet = (format: ImageVariantFormat) => widths.map((w) => `${siteUrl}${imagePath(image.id, w, format)} ${w}w`).join(", ");
  return {
    id: image.id,
    width: image.width,
    height: image.height,
    alt: image.alt,
    urls: Object.fromEntries(IMAGE_VARIANT_FORMATS.map((format) => [format, srcSet(format)])) as Record<ImageVariantFormat, string>,
  };
}
