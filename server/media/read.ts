import type { ImageStorage } from "~/server/adapters/image-storage";
import type { Database } from "~/server/db/connection";
import type { MediaKind } from "~/shared/media-files";

// Reading an uploaded media file (ADR 083): what it is, and any run of its bytes, a chunk at a
// time as the answer is sent, each chunk from its row or from the storage that holds it.

export interface MediaFile {
  id: string;
  kind: MediaKind;
  /** As decoded: what it is served as. */
  contentType: string;
  extension: string;
  bytes: number;
  chunkBytes: number;
  sha256: string;
  durationSeconds: number | null;
  uploadedBy: string;
  uploadedAt: string;
}

/** A complete file; undefined for an unknown id or one still being written. */
export async function mediaFile(db: Database, id: string): Promise<MediaFile | undefined> {
  const row = await db.selectFrom("media_file").selectAll().where("id", "=", id).where("complete", "=", 1).executeTakeFirst();
  return (
    row && {
      id: row.id,
      kind: row.kind,
      contentType: row.content_type,
      extension: row.extension,
      bytes: row.bytes,
      chunkBytes: row.chunk_bytes,
      sha256: row.sha256!,
      durationSeconds: row.duration_seconds,
      uploadedBy: row.uploaded_by,
      uploadedAt: row.uploaded_at,
    }
  );
}

/** A chunk's bytes, from its row or from the storage. */
async function chunkBytes(db: Database, storage: ImageStorage, file: MediaFile, seq: number): Promise<Buffer> {
  const row = await db
    .selectFrom("media_chunk")
    .select(["data", "storage_key"])
    .where("file_id", "=", file.id)
    .where("seq", "=", seq)
    .executeTakeFirst();
  const bytes = row && (row.data ?? (await storage.get(row.storage_key)));
  if (!bytes) throw new Error(`media file ${file.id} has lost chunk ${seq}`);
  return bytes;
}

/**
 * The file's bytes from `start` to `end` (both included), read a chunk at a time as the stream is
 * read. The first chunk is read before this answers, so a storage that fails (a bucket that does
 * not answer) fails here, before an answer has begun, rather than cutting one off.
 */
export async function openMediaFile(
  db: Database,
  storage: ImageStorage,
  file: MediaFile,
  start: number,
  end: number,
): Promise<ReadableStream<Uint8Array>> {
  let seq = Math.floor(start / file.chunkBytes);
  const last = Math.floor(end / file.chunkBytes);
  const next = async () => {
    const bytes = await chunkBytes(db, storage, file, seq);
    const offset = seq++ * file.chunkBytes;
    return bytes.subarray(Math.max(0, start - offset), Math.min(bytes.length, end - offset + 1));
  };
  let first: Uint8Array | null = await next();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        controller.enqueue(first ?? (await next()));
        first = null;
        if (seq > last) controller.close();
      },
    },
    { highWaterMark: 0 },
  );
}
