import fs from "node:fs";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { BucketError } from "~/server/adapters/bucket";
import { imageStorage } from "~/server/adapters/image-storage";
import { log } from "~/server/log";
import { mediaFile, openMediaFile } from "~/server/media";
import { parseByteRange } from "~/server/http/byte-range";
import { applySecurityHeaders } from "~/app/lib/http/security.server";
import { db } from "~/app/lib/context/db.server";

// Media files, whole or the byte range the browser asks for: players seek by asking for ranges,
// and Chromium will not seek in a file served without them. A seed file is read from content/;
// an uploaded one (ADR 083) a chunk at a time from where the uploads are kept, with the type its
// bytes were decoded as.

interface Served {
  size: number;
  contentType: string;
  cacheControl: string;
  validators: Record<string, string>;
  body: (start: number, end: number) => Promise<ReadableStream<Uint8Array>>;
}

async function rangeResponse(request: Request, served: Served): Promise<Response> {
  const headers = new Headers({
    "Content-Type": served.contentType,
    "Accept-Ranges": "bytes",
    "Cache-Control": served.cacheControl,
    ...served.validators,
  });
  applySecurityHeaders(headers);
  const etag = served.validators.ETag;
  if (etag && request.headers.get("If-None-Match") === etag) return new Response(null, { status: 304, headers });
  const range = parseByteRange(request.headers.get("Range"), served.size);
  if (range === "unsatisfiable") {
    headers.set("Content-Range", `bytes */${served.size}`);
    return new Response(null, { status: 416, headers });
  }
  const { start, end } = range ?? { start: 0, end: served.size - 1 };
  headers.set("Content-Length", String(Math.max(0, end - start + 1)));
  if (range) headers.set("Content-Range", `bytes ${start}-${end}/${served.size}`);
  const body = request.method === "HEAD" || served.size === 0 ? null : await served.body(start, end);
  return new Response(body, { status: range ? 206 : 200, headers });
}

/** A seed file from content/; 404 when there is none. */
export async function mediaFileResponse(request: Request, file: string, contentType: string, cacheControl: string): Promise<Response> {
  const stat = await fs.promises.stat(file).catch(() => undefined);
  if (!stat?.isFile()) throw new Response("Not found", { status: 404 });
  return rangeResponse(request, {
    size: stat.size,
    contentType,
    cacheControl,
    validators: { "Last-Modified": stat.mtime.toUTCString() },
    body: async (start, end) => createReadableStreamFromReadable(fs.createReadStream(file, { start, end })),
  });
}

/**
 * An uploaded file. A new upload replaces a video's or episode's file at the same address, so
 * caches keep it five minutes, then ask again with its ETag (its id), which costs no bytes.
 */
export async function uploadedMediaResponse(request: Request, fileId: string, cacheControl: "public" | "private"): Promise<Response> {
  const database = await db();
  const file = await mediaFile(database, fileId);
  if (!file) throw new Response("Not found", { status: 404 });
  try {
    return await rangeResponse(request, {
      size: file.bytes,
      contentType: file.contentType,
      cacheControl: `${cacheControl}, max-age=300`,
      validators: { ETag: `"${file.id}"`, "Last-Modified": new Date(file.uploadedAt).toUTCString() },
      body: (start, end) => openMediaFile(database, imageStorage(), file, start, end),
    });
  } catch (error) {
    if (!(error instanceof BucketError)) throw error;
    log.error("An uploaded media file could not be read from the bucket", { error: error.message });
    return new Response("This file cannot be fetched just now.", {
      status: 503,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", "Retry-After": "30" },
    });
  }
}
