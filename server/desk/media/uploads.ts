import { BucketError } from "~/server/adapters/bucket";
import type { ImageStorage } from "~/server/adapters/image-storage";
import type { Database } from "~/server/db/connection";
import type { Editor } from "~/server/desk/catalogue/common";
import { log } from "~/server/log";
import { deleteMediaFile, storeMediaFile, type MediaRefusal } from "~/server/media";
import { MEDIA_MESSAGES } from "~/shared/media-files";
import { getDeskEpisode, setEpisodeAudio, type DeskEpisode, type DeskSeries } from "./episodes";
import { getDeskVideo, setVideoFile, type DeskVideo } from "./videos";

// An upload put in use (ADR 083): the file is stored as it arrives, then made the video's or
// episode's. An unknown video or episode stores nothing; one removed while its file arrived
// leaves nothing behind; a bucket that fails leaves nothing either, and says so.

export type UploadResult<T> =
  { ok: true; value: T } | { ok: false; reason: "not-found" } | { ok: false; reason: MediaRefusal | "unavailable"; message: string };

/** The upload, or, when the bucket failed, a refusal saying so (storeMediaFile has taken back what it wrote). */
async function unlessUnavailable<T>(upload: () => Promise<UploadResult<T>>): Promise<UploadResult<T>> {
  try {
    return await upload();
  } catch (error) {
    if (!(error instanceof BucketError)) throw error;
    log.error("An uploaded media file could not be written to the bucket", { error: error.message });
    return { ok: false, reason: "unavailable", message: MEDIA_MESSAGES.unavailable };
  }
}

export interface UploadOptions {
  /** A lower limit than the kind's (tests). */
  maxBytes?: number;
}

export async function uploadVideoFile(
  db: Database,
  storage: ImageStorage,
  editor: Editor,
  id: number,
  kind: "file" | "captions",
  source: AsyncIterable<Uint8Array>,
  now: Date,
  options: UploadOptions = {},
): Promise<UploadResult<DeskVideo>> {
  if (!(await getDeskVideo(db, id))) return { ok: false, reason: "not-found" };
  return unlessUnavailable(async () => {
    const stored = await storeMediaFile(db, storage, editor.actor.label, kind === "file" ? "video" : "captions", source, now, options);
    if (!stored.ok) return stored;
    const set = await setVideoFile(db, storage, editor, id, kind, stored.file, now);
    if (!set.ok) await deleteMediaFile(db, storage, stored.file.id);
    return set;
  });
}

export async function uploadEpisodeAudio(
  db: Database,
  storage: ImageStorage,
  editor: Editor,
  series: DeskSeries,
  id: number,
  source: AsyncIterable<Uint8Array>,
  now: Date,
  options: UploadOptions = {},
): Promise<UploadResult<DeskEpisode>> {
  if (!(await getDeskEpisode(db, series.slug, id))) return { ok: false, reason: "not-found" };
  return unlessUnavailable(async () => {
    const stored = await storeMediaFile(db, storage, editor.actor.label, "audio", source, now, options);
    if (!stored.ok) return stored;
    const set = await setEpisodeAudio(db, storage, editor, series, id, stored.file, now);
    if (!set.ok) await deleteMediaFile(db, storage, stored.file.id);
    return set;
  });
}
