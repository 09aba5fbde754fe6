import crypto from "node:crypto";
import type { ImageStorage } from "~/server/adapters/image-storage";
import type { Database } from "~/server/db/connection";
import { recordAudit, type AuditActor } from "~/server/desk/audit";
import { IMAGE_CONTENT_TYPES, imagePath } from "~/shared/uploaded-images";
import { decodeUpload, encodeVariants, type UploadRefusal } from "./decode";
import { uploadedImage, type UploadedImage } from "./read";

// Storing an upload (ADR 077): decoded and judged, resized to its variants, their bytes kept by
// the storage, then the image's row, its variants' rows and the audit row in one transaction.

export const UPLOAD_MESSAGES: Record<UploadRefusal, string> = {
  "not-an-image": "Upload a JPEG, PNG or WebP image of up to 20 MB.",
  "too-large": "Upload a JPEG, PNG or WebP image of up to 20 MB.",
  "too-many-pixels": "That image has too many pixels: upload one of up to 64 megapixels (8,000 × 8,000).",
};

export type UploadResult =
  | {
      ok: true;
      image: UploadedImage;
      /** The same file had been uploaded before: this is that image, unchanged. */
      existing: boolean;
    }
  | { ok: false; reason: UploadRefusal; message: string };

/** Where a variant's bytes live outside the database: its address on the site, without the slash. */
const storageKey = (id: string, width: number, format: keyof typeof IMAGE_CONTENT_TYPES) => imagePath(id, width, format).slice(1);

export async function storeUpload(
  db: Database,
  storage: ImageStorage,
  actor: AuditActor,
  bytes: Uint8Array,
  now: Date,
  options: { alt?: string } = {},
): Promise<UploadResult> {
  const sha256 = crypto.createHash("sha256").update(bytes).digest("hex");
  const before = await db.selectFrom("image").select("id").where("sha256", "=", sha256).executeTakeFirst();
  if (before) return uploadedAgain(db, actor, before.id, now);

  const decoded = await decodeUpload(bytes);
  if (!decoded.ok) return { ok: false, reason: decoded.reason, message: UPLOAD_MESSAGES[decoded.reason] };
  const { upload } = decoded;
  const variants = await encodeVariants(upload, decoded.pixels);

  const id = crypto.randomUUID();
  const puts = await Promise.allSettled(
    variants.map(async (variant) => {
      const key = storageKey(id, variant.width, variant.format);
      return {
        ...variant,
        key,
        data: await storage.put(key, variant.data, IMAGE_CONTENT_TYPES[variant.format]),
        bytes: variant.data.length,
      };
    }),
  );
  const kept = puts.flatMap((put) => (put.status === "fulfilled" ? [put.value] : []));
  const failed = puts.find((put) => put.status === "rejected");
  if (failed) {
    await forget(storage, kept);
    throw failed.reason;
  }
  const alt = options.alt?.trim() || null;
  const uploadedBy = actor.label;
  let stored: boolean;
  try {
    stored = await db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto("image")
        .values({ id, uploaded_by: uploadedBy, uploaded_at: now.toISOString(), ...upload, bytes: bytes.byteLength, alt, sha256 })
        .onConflict((conflict) => conflict.column("sha256").doNothing())
        .executeTakeFirst();
      // The same file, uploaded at the same moment through another request, was stored first.
      if (Number(inserted.numInsertedOrUpdatedRows) !== 1) return false;
      await trx
        .insertInto("image_variant")
        .values(
          kept.map((v) => ({
            image_id: id,
            width: v.width,
            height: v.height,
            format: v.format,
            bytes: v.bytes,
            data: v.data,
            storage_key: v.key,
          })),
        )
        .execute();
      await recordAudit(
        trx,
        {
          actor,
          action: "image.upload",
          subject: `image:${id}`,
          after: { ...upload, bytes: bytes.byteLength, alt, sha256, variants: kept.length, storage: storage.kind },
        },
        now,
      );
      return true;
    });
  } catch (error) {
    await forget(storage, kept);
    throw error;
  }
  if (!stored) {
    await forget(storage, kept);
    const winner = await db.selectFrom("image").select("id").where("sha256", "=", sha256).executeTakeFirstOrThrow();
    return uploadedAgain(db, actor, winner.id, now);
  }
  return { ok: true, image: (await uploadedImage(db, id))!, existing: false };
}

/** A file uploaded again is the image it made the first time; the upload is still logged. */
async function uploadedAgain(db: Database, actor: AuditActor, id: string, now: Date): Promise<UploadResult> {
  await recordAudit(db, { actor, action: "image.upload", subject: `image:${id}`, after: { existing: true } }, now);
  return { ok: true, image: (await uploadedImage(db, id))!, existing: true };
}

/** Removes what the storage kept for variants whose rows were never written. */
async function forget(storage: ImageStorage, variants: { key: string; data: Buffer | null }[]): Promise<void> {
  await Promise.allSettled(variants.filter((v) => v.data === null).map((v) => storage.delete(v.key)));
}
