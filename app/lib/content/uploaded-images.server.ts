import { BucketError } from "~/server/adapters/bucket";
import type { ImageStorage } from "~/server/adapters/image-storage";
import type { Database } from "~/server/db/connection";
import { log } from "~/server/log";
import { storedVariant, variantBytes } from "~/server/images/uploads";
import { IMAGE_CONTENT_TYPES, parseVariantFile } from "~/shared/uploaded-images";

const IMAGE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const notFound = () => new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });

/**
 * An uploaded image's variant, /images/{id}/{width}.{avif|webp|jpg} (ADR 077). Its type is the
 * format it was encoded in, never anything the uploader said; its address never changes what it
 * holds, so it is cached for a year and its ETag is its address.
 */
export async function uploadedImageResponse(db: Database, storage: ImageStorage, id: string, file: string, request: Request): Promise<Response> {
  const wanted = parseVariantFile(file);
  const variant = wanted && IMAGE_ID.test(id) ? await storedVariant(db, id, wanted.width, wanted.format) : undefined;
  if (!wanted || !variant) return notFound();
  const headers = new Headers({
    "Content-Type": IMAGE_CONTENT_TYPES[variant.format],
    "Cache-Control": "public, max-age=31536000, immutable",
    ETag: `"${id}-${wanted.width}-${variant.format}"`,
    "X-Content-Type-Options": "nosniff",
  });
  const known = request.headers.get("If-None-Match")?.split(",").map((tag) => tag.trim().replace(/^W\//, ""));
  if (known?.some((tag) => tag === "*" || tag === headers.get("ETag"))) return new Response(null, { status: 304, headers });
  let bytes: Buffer | undefined;
  try {
    bytes = await variantBytes(storage, variant);
  } catch (error) {
    if (!(error instanceof BucketError)) throw error;
    log.error("An uploaded image could not be read from the bucket", { error: error.message });
    return new Response("This image cannot be fetched just now.", {
      status: 503,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", "Retry-After": "30" },
    });
  }
  if (!bytes) return notFound();
  headers.set("Content-Length", String(bytes.length));
  return new Response(new Uint8Array(bytes), { headers });
}
