import crypto from "node:crypto";
import type { ImageStorage } from "~/server/adapters/image-storage";
import type { Database } from "~/server/db/connection";
import { MEDIA_MAX_BYTES, MEDIA_MESSAGES, type MediaKind } from "~/shared/media-files";
import { firstMp3Frame, id3Length, mp3Duration } from "./mp3";
import { mediaFile, type MediaFile } from "./read";
import { judgeVideo } from "./video-formats";
import { checkWebVtt } from "./webvtt";

// Storing an uploaded media file (ADR 083) as it arrives: its first bytes are judged before
// anything is written (a file that is not what it should be writes nothing), then it is cut into
// chunks of a mebibyte, each kept by the uploads' storage (the database, or the bucket) and
// recorded as it fills, so a file of hundreds of megabytes never sits in memory. A file that
// passes its limit, or breaks off, is removed again; one that ends is marked complete, with its
// size, SHA-256 and, where the format says it, its length.

export const CHUNK_BYTES = 1024 * 1024;
/** Enough of a file to judge it; an MP3's ID3 tag (its cover art) may need more, up to HEAD_LIMIT, and captions are read whole. */
const HEAD_BYTES = 64 * 1024;
const HEAD_LIMIT = 16 * 1024 * 1024;

export type MediaRefusal = "empty" | "wrong-type" | "too-large" | "broken-off";

export type StoreMediaResult = { ok: true; file: MediaFile } | { ok: false; reason: MediaRefusal; message: string };

interface Judged {
  contentType: string;
  extension: string;
  /** The length, once the file's size is known. */
  duration: (total: number) => number | null;
}

const refused = (reason: MediaRefusal, message: string): StoreMediaResult => ({ ok: false, reason, message });

/** What the first bytes (all of them, for captions) say the file is; a message when it is not what `kind` must be. */
function judge(kind: MediaKind, head: Uint8Array): Judged | string {
  if (kind === "video") {
    const video = judgeVideo(head);
    if (!video) return MEDIA_MESSAGES.wrongType.video;
    return { contentType: `video/${video.format}`, extension: video.format, duration: () => video.durationSeconds };
  }
  if (kind === "download") {
    const file = judgeDownload(head);
    return file ? { ...file, duration: () => null } : MEDIA_MESSAGES.wrongType.download;
  }
  if (kind === "audio") {
    const at = firstMp3Frame(head);
    if (at < 0) return MEDIA_MESSAGES.wrongType.audio;
    return { contentType: "audio/mpeg", extension: "mp3", duration: (total) => mp3Duration(head, at, total) };
  }
  const captions = checkWebVtt(head);
  if (!captions.ok) return captions.message;
  return { contentType: "text/vtt; charset=utf-8", extension: "vtt", duration: () => null };
}

const startsWith = (head: Uint8Array, text: string, at = 0) =>
  head.length >= at + text.length && [...text].every((c, i) => head[at + i] === c.charCodeAt(0));

/**
 * A product's download (ADR 091) by its first bytes: a PDF, an EPUB (a ZIP whose first entry is
 * its uncompressed "mimetype"), a PowerPoint or Excel file (ZIP archives, named by what they hold
 * first), or another ZIP archive.
 */
function judgeDownload(head: Uint8Array): { contentType: string; extension: string } | null {
  if (startsWith(head, "%PDF-")) return { contentType: "application/pdf", extension: "pdf" };
  if (!startsWith(head, "PK\x03\x04")) return null;
  if (startsWith(head, "mimetypeapplication/epub+zip", 30)) return { contentType: "application/epub+zip", extension: "epub" };
  const names = new TextDecoder("latin1").decode(head.subarray(0, Math.min(head.length, 4096)));
  if (names.includes("ppt/"))
    return { contentType: "application/vnd.openxmlformats-officedocument.presentationml.presentation", extension: "pptx" };
  if (names.includes("xl/")) return { contentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", extension: "xlsx" };
  return { contentType: "application/zip", extension: "zip" };
}

/** How many first bytes judging needs: captions whole, an MP3 past its tag, else HEAD_BYTES. */
function headNeeded(kind: MediaKind, head: Uint8Array): number {
  if (kind === "captions") return Infinity;
  if (kind === "audio" && head.length >= 10) return id3Length(head) + HEAD_BYTES;
  return HEAD_BYTES;
}

const concat = (parts: Uint8Array[], length: number) => {
  const out = Buffer.allocUnsafe(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
};

const storageKey = (id: string, seq: number) => `media/${id}/${seq}`;

/** A request's body as the pieces storeMediaFile reads; stopping early cancels the rest. */
export function streamPieces(body: ReadableStream<Uint8Array>): AsyncIterable<Uint8Array> {
  return {
    [Symbol.asyncIterator]() {
      const reader = body.getReader();
      return {
        async next() {
          const { done, value } = await reader.read();
          return done ? { done: true, value: undefined } : { done: false, value };
        },
        async return() {
          await reader.cancel();
          return { done: true, value: undefined };
        },
      };
    },
  };
}

/**
 * Reads a file of this kind from `source` into storage; `maxBytes` lowers the kind's limit (tests).
 * The source is read no further than the limit, or than judging needs when the file is refused.
 */
export async function storeMediaFile(
  db: Database,
  storage: ImageStorage,
  uploadedBy: string,
  kind: MediaKind,
  source: AsyncIterable<Uint8Array>,
  now: Date,
  options: { maxBytes?: number } = {},
): Promise<StoreMediaResult> {
  const maxBytes = Math.min(options.maxBytes ?? MEDIA_MAX_BYTES[kind], MEDIA_MAX_BYTES[kind]);
  const tooLarge = refused("too-large", MEDIA_MESSAGES.wrongType[kind]);
  const input = source[Symbol.asyncIterator]();
  const hash = crypto.createHash("sha256");
  let total = 0;
  /** The next piece of the source, counted and hashed; null at its end, "too-large" past the limit. */
  const next = async (): Promise<Uint8Array | null | "too-large" | "broken-off"> => {
    let piece: IteratorResult<Uint8Array>;
    try {
      piece = await input.next();
    } catch {
      return "broken-off";
    }
    if (piece.done) return null;
    total += piece.value.byteLength;
    if (total > maxBytes) return "too-large";
    hash.update(piece.value);
    return piece.value;
  };
  const stop = () => input.return?.().catch(() => undefined);

  // The head, read whole before anything is stored.
  const parts: Uint8Array[] = [];
  let held = 0;
  let needed = HEAD_BYTES;
  let sized = false;
  let ended = false;
  while (held < needed) {
    const piece = await next();
    if (piece === null) {
      ended = true;
      break;
    }
    if (piece === "too-large") return (await stop(), tooLarge);
    if (piece === "broken-off") return refused("broken-off", MEDIA_MESSAGES.brokenOff);
    parts.push(piece);
    held += piece.byteLength;
    if (!sized && held >= 10) {
      needed = Math.min(headNeeded(kind, concat(parts, held)), HEAD_LIMIT);
      sized = true;
    }
  }
  if (held === 0) return refused("empty", MEDIA_MESSAGES.noFile);
  const head = concat(parts, held);
  const judged = judge(kind, head);
  if (typeof judged === "string") return (await stop(), refused("wrong-type", judged));

  const id = crypto.randomUUID();
  await db
    .insertInto("media_file")
    .values({
      id,
      kind,
      content_type: judged.contentType,
      extension: judged.extension,
      bytes: 0,
      chunk_bytes: CHUNK_BYTES,
      sha256: null,
      duration_seconds: null,
      uploaded_by: uploadedBy,
      uploaded_at: now.toISOString(),
      complete: 0,
    })
    .execute();
  const inBucket: string[] = [];
  let seq = 0;
  const write = async (chunk: Buffer) => {
    const key = storageKey(id, seq);
    const data = await storage.put(key, chunk, judged.contentType);
    if (data === null) inBucket.push(key);
    await db.insertInto("media_chunk").values({ file_id: id, seq, bytes: chunk.byteLength, data, storage_key: key }).execute();
    seq++;
  };

  try {
    let pending: Uint8Array[] = [head];
    let pendingBytes = head.byteLength;
    while (!ended || pendingBytes > 0) {
      while (pendingBytes >= CHUNK_BYTES) {
        const all = concat(pending, pendingBytes);
        await write(all.subarray(0, CHUNK_BYTES));
        pending = [all.subarray(CHUNK_BYTES)];
        pendingBytes -= CHUNK_BYTES;
      }
      if (ended) {
        if (pendingBytes > 0) await write(concat(pending, pendingBytes));
        break;
      }
      const piece = await next();
      if (piece === null) ended = true;
      else if (piece === "too-large" || piece === "broken-off") {
        if (piece === "too-large") await stop();
        await forget(db, storage, id, inBucket);
        return piece === "too-large" ? tooLarge : refused("broken-off", MEDIA_MESSAGES.brokenOff);
      } else {
        pending.push(piece);
        pendingBytes += piece.byteLength;
      }
    }
    await db
      .updateTable("media_file")
      .set({ complete: 1, bytes: total, sha256: hash.digest("hex"), duration_seconds: judged.duration(total) })
      .where("id", "=", id)
      .execute();
  } catch (error) {
    await forget(db, storage, id, inBucket);
    throw error;
  }
  return { ok: true, file: (await mediaFile(db, id))! };
}

/** Removes a file's rows, and what the bucket keeps of it. */
async function forget(db: Database, storage: ImageStorage, id: string, inBucket: string[]): Promise<void> {
  await db.deleteFrom("media_file").where("id", "=", id).execute();
  // The rows are gone, so nothing would find an object left behind: a delete the bucket did not
  // answer (a dropped connection) is tried again, up to three times in all.
  await Promise.allSettled(
    inBucket.map(async (key) => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await storage.delete(key);
        } catch (error) {
          if (attempt === 3) throw error;
        }
      }
    }),
  );
}

/** Removes a file no video or episode uses any more (one replaced by a new upload). */
export async function deleteMediaFile(db: Database, storage: ImageStorage, id: string): Promise<void> {
  const inBucket = await db.selectFrom("media_chunk").select("storage_key").where("file_id", "=", id).where("data", "is", null).execute();
  await forget(
    db,
    storage,
    id,
    inBucket.map((row) => row.storage_key),
  );
}

/** How long an upload may take before a file still being written counts as abandoned (a server stopped mid-upload). */
export const ABANDONED_UPLOAD_HOURS = 24;

/** Removes the files whose upload never ended (their chunks, and the bucket's objects); answers how many. */
export async function removeAbandonedUploads(db: Database, storage: ImageStorage, now: Date): Promise<number> {
  const before = new Date(now.getTime() - ABANDONED_UPLOAD_HOURS * 3_600_000).toISOString();
  const abandoned = await db.selectFrom("media_file").select("id").where("complete", "=", 0).where("uploaded_at", "<", before).execute();
  for (const { id } of abandoned) await deleteMediaFile(db, storage, id);
  return abandoned.length;
}
