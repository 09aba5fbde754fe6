import crypto from "node:crypto";
import type { Database } from "~/server/db/connection";
import type { CartLineKind } from "~/server/db/schema";
import { addMonths } from "~/server/subscriptions/entitlements";
import { fileFormatOf, type FileFormat } from "~/server/documents/file-formats";
import { isDigitalCode } from "~/shared/product-types";
import { extendedExpiries, laterExpiry } from "./download-extensions";
import { awaitingRelease } from "./fulfilment/lifecycle";

/** Spec section 9: case study access expires six months after purchase. */
export const CASE_STUDY_ACCESS_MONTHS = 6;
export const CASE_STUDY = "Case Study";

const ORDER_ID = /^ord_[A-Za-z0-9_-]{22}$/;

export interface OrderDownload {
  position: number;
  title: string;
  /** The file the reader gets, e.g. "PDF" or "EPUB". */
  format: string;
  href: string;
  /** Case studies only: when access ends (for a refunded line, when it was refunded). */
  expiresAt: string | null;
  expired: boolean;
  /** The line was refunded (ADR 086): its download closed then. */
  refunded: boolean;
}

/** Everything a downloadable file is made from. */
export interface DownloadSource {
  orderId: string;
  orderNumber: string;
  buyerEmail: string;
  paidAt: string;
  position: number;
  kind: CartLineKind;
  title: string;
  /** The catalogue format bought, e.g. "Hardcover" or "PDF". */
  format: string;
  code: string;
  quantity: number;
  file: FileFormat;
  product: {
    slug: string;
    availabilityId: number;
    /** E.g. "Book" or "Magazine Issue". */
    productType: string;
    authors: string[];
    summary: string;
    description: string;
    published: string;
    pages: number;
  };
  /** A book's or case study's sections (preface, chapters), in order; empty for other products. */
  sections: { title: string; body: string }[];
  /** The articles a magazine issue or reprint holds, in order; empty for other products. */
  articles: HeldArticle[];
  /** A file the desk uploaded for this format (ADR 091): served as it is, instead of one made from the texts. */
  uploadedFileId: string | null;
}

export interface HeldArticle {
  title: string;
  dek: string;
  /** Display names. */
  authors: string[];
  published: string;
  body: string;
}

export type DownloadAccess =
  | { status: "ok"; source: DownloadSource }
  | { status: "expired"; title: string; expiresAt: string; orderId: string }
  | { status: "refunded"; title: string; refundedAt: string; orderId: string }
  | { status: "not-found" };

type LineRow = { kind: CartLineKind; code: string; product_type: string; available_date: string | null; released_at: string | null };

/**
 * A line the buyer can download: a digital item, or a copyright permission (its licence), once
 * a pre-order has been released on its date (ADR 092). Shipped lines and bundles are delivered,
 * not downloaded.
 */
function downloadable(line: LineRow): boolean {
  if (awaitingRelease(line)) return false;
  return line.kind === "perm" || isDigitalCode(line.code);
}

/**
 * When a line's access ends: case studies six months after payment. A permissions licence is
 * a record of what the buyer may copy, so it stays available.
 */
export function expiryOf(line: Pick<LineRow, "kind" | "product_type">, paidAt: string): string | null {
  if (line.kind !== "item" || line.product_type !== CASE_STUDY) return null;
  return addMonths(new Date(paidAt), CASE_STUDY_ACCESS_MONTHS).toISOString();
}

const downloadPath = (orderId: string, position: number, key?: string) =>
  `/download/order/${orderId}/${position}${key ? `?key=${encodeURIComponent(key)}` : ""}`;

/**
 * The downloads of a paid order, in line order (none for an unpaid or unknown order). The caller
 * has checked the reader may see the order; a guest's `key` is carried into the links.
 */
export async function downloadsForOrder(db: Database, orderId: string, now = new Date(), key?: string): Promise<OrderDownload[]> {
  if (!ORDER_ID.test(orderId)) return [];
  const order = await db.selectFrom("store_order").select(["status", "paid_at"]).where("id", "=", orderId).executeTakeFirst();
  if (!order || order.status !== "paid" || !order.paid_at) return [];
  const paidAt = order.paid_at;
  const lines = await db
    .selectFrom("store_order_line")
    .select(["position", "title", "kind", "code", "product_type", "available_date", "released_at", "refunded_at"])
    .where("order_id", "=", orderId)
    .orderBy("position")
    .execute();
  const extended = await extendedExpiries(db, orderId);
  return lines
    .filter((l) => downloadable(l))
    .map((l) => {
      const expiresAt = l.refunded_at ?? laterExpiry(expiryOf(l, paidAt), extended.get(l.position));
      return {
        position: l.position,
        title: l.kind === "perm" ? `Copyright permissions licence: ${l.title}` : l.title,
        format: fileFormatOf(l.kind, l.code).label,
        href: downloadPath(orderId, l.position, key),
        expiresAt,
        expired: expiresAt !== null && now.toISOString() >= expiresAt,
        refunded: l.refunded_at !== null,
      };
    });
}

function sameSecret(given: string, stored: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(stored);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

/**
 * Whether the requester may download one line of an order, and what from. Only the buyer may:
 * the signed-in reader who placed it, or whoever holds the order's access key (a guest's link).
 * Anyone else, an unknown or unpaid order, and a line that is not downloadable are all
 * "not-found", so nobody learns that someone else's order exists.
 */
export async function openDownload(
  db: Database,
  request: { orderId: string; position: string; userId: string | null; key: string | null },
  now = new Date(),
): Promise<DownloadAccess> {
  const notFound = { status: "not-found" } as const;
  if (!ORDER_ID.test(request.orderId) || !/^\d{1,4}$/.test(request.position)) return notFound;
  const order = await db
    .selectFrom("store_order")
    .select(["id", "number", "user_id", "email", "access_token", "status", "paid_at"])
    .where("id", "=", request.orderId)
    .executeTakeFirst();
  if (!order) return notFound;
  const owner = order.user_id !== null && order.user_id === request.userId;
  if (!owner && !(request.key !== null && sameSecret(request.key, order.access_token))) return notFound;
  if (order.status === "pending_payment" || !order.paid_at) return notFound;
  const line = await db
    .selectFrom("store_order_line as l")
    .leftJoin("product as p", "p.id", "l.product_id")
    .leftJoin("product_availability as a", "a.id", "l.availability_id")
    .select([
      "a.download_file_id",
      "l.position",
      "l.kind",
      "l.title",
      "l.format",
      "l.code",
      "l.quantity",
      "l.product_type",
      "l.available_date",
      "l.released_at",
      "l.availability_id",
      "l.refunded_at",
      "p.id as product_id",
      "p.slug",
      "p.authors",
      "p.summary",
      "p.description",
      "p.published",
      "p.pages",
    ])
    .where("l.order_id", "=", order.id)
    .where("l.position", "=", Number(request.position))
    .executeTakeFirst();
  if (!line || !downloadable(line)) return notFound;
  // A refunded line's link says so, even once the order was cancelled with its refund.
  if (line.refunded_at) return { status: "refunded", title: line.title, refundedAt: line.refunded_at, orderId: order.id };
  if (order.status !== "paid") return notFound;
  const expiresAt = laterExpiry(expiryOf(line, order.paid_at), (await extendedExpiries(db, order.id)).get(line.position));
  if (expiresAt !== null && now.toISOString() >= expiresAt) return { status: "expired", title: line.title, expiresAt, orderId: order.id };
  // A permissions licence is made from the order alone, not from the work's text.
  const texts = line.kind === "item" && line.product_id !== null ? await productTexts(db, line.product_id) : { sections: [], articles: [] };
  return {
    status: "ok",
    source: {
      orderId: order.id,
      orderNumber: order.number,
      buyerEmail: order.email,
      paidAt: order.paid_at,
      position: line.position,
      kind: line.kind,
      title: line.title,
      format: line.format,
      code: line.code,
      quantity: line.quantity,
      file: fileFormatOf(line.kind, line.code),
      product: {
        slug: line.slug ?? `product-${line.availability_id}`,
        availabilityId: line.availability_id,
        productType: line.product_type,
        authors: line.authors ? line.authors.split(", ") : [],
        summary: line.summary ?? "",
        description: line.description ?? "",
        published: line.published ?? order.paid_at,
        pages: line.pages ?? 0,
      },
      ...texts,
      // A licence is the order's own document; an item's uploaded file is the format's current one.
      uploadedFileId: line.kind === "item" ? line.download_file_id : null,
    },
  };
}

/** What a product's download is made of, beyond its catalogue entry. */
async function productTexts(db: Database, productId: number): Promise<Pick<DownloadSource, "sections" | "articles">> {
  const [sections, held, authors] = await Promise.all([
    db.selectFrom("product_section").select(["title", "body"]).where("product_id", "=", productId).orderBy("position").execute(),
    db
      .selectFrom("product_article as pa")
      .innerJoin("article as a", "a.id", "pa.article_id")
      .select(["a.id", "a.title", "a.dek", "a.published", "a.body"])
      .where("pa.product_id", "=", productId)
      .orderBy("pa.position")
      .execute(),
    db
      .selectFrom("product_article as pa")
      .innerJoin("article_author as aa", "aa.article_id", "pa.article_id")
      .innerJoin("author as au", "au.id", "aa.author_id")
      .select(["aa.article_id", "au.name"])
      .where("pa.product_id", "=", productId)
      .orderBy("aa.article_id")
      .orderBy("aa.position")
      .execute(),
  ]);
  return {
    sections,
    articles: held.map((a) => ({
      title: a.title,
      dek: a.dek,
      authors: authors.filter((x) => x.article_id === a.id).map((x) => x.name),
      published: a.published,
      body: a.body,
    })),
  };
}
