import type { ImageStorage } from "~/server/adapters/image-storage";
import type { Database } from "~/server/db/connection";
import type { ImageFormat } from "~/server/db/schema";
import type { ImageRef, ImageVariantFormat } from "~/shared/uploaded-images";

/** An uploaded image as the desk shows it; an ImageRef for pages (imageSources, ogImage). */
export interface UploadedImage extends ImageRef {
  uploadedBy: string;
  uploadedAt: string;
  /** The upload's own format and size. */
  format: ImageFormat;
  bytes: number;
  variants: { width: number; height: number; format: ImageVariantFormat; bytes: number }[];
}

export async function uploadedImage(db: Database, id: string): Promise<UploadedImage | undefined> {
  const row = await db.selectFrom("image").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) return undefined;
  const variants = await db
    .selectFrom("image_variant")
    .select(["width", "height", "format", "bytes"])
    .where("image_id", "=", id)
    .orderBy("width")
    .orderBy("format")
    .execute();
  return {
    id: row.id,
    width: row.width,
    height: row.height,
    alt: row.alt,
    uploadedBy: row.uploaded_by,
    uploadedAt: row.uploaded_at,
    format: row.format,
    bytes: row.bytes,
    variants,
  };
}

export interface StoredVariant {
  format: ImageVariantFormat;
  bytes: number;
  /** The bytes, when the database keeps them. */
  data: Buffer | null;
  storageKey: string;
}

/** One variant's row, or undefined when the image has no such width in that format. */
export async function storedVariant(
  db: Database,
  id: string,
  width: number,
  format: ImageVariantFormat,
): Promise<StoredVariant | undefined> {
  const row = await db
    .selectFrom("image_variant")
    .select(["format", "bytes", "data", "storage_key"])
    .where("image_id", "=", id)
    .where("width", "=", width)
    .where("format", "=", format)
    .executeTakeFirst();
  return row && { format: row.format, bytes: row.bytes, data: row.data, storageKey: row.storage_key };
}

/** A variant's bytes, from its row or from the storage that holds them. */
export async function variantBytes(storage: ImageStorage, variant: StoredVariant): Promise<Buffer | undefined> {
  return variant.data ?? (await storage.get(variant.storageKey));
}
