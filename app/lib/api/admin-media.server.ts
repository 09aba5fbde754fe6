import type { DeskEpisode, DeskVideo, FileSource, UploadResult } from "~/server/desk/media";
import { MEDIA_MAX_BYTES, MEDIA_MESSAGES, type MediaKind } from "~/shared/media-files";
import { podcastAudioPath, videoMediaPath } from "~/shared/urls";
import { config } from "~/app/lib/context/db.server";
import { apiError, apiJson, invalidFields, notFoundAnswer } from "./handler.server";

// The Admin API's videos and episodes (ADR 083): the domain's results as JSON, in the canonical
// shapes: 400 `invalid_input` with `fields`, 404 `not_found`, 409 `conflict` with `current`, `by`
// and `at`, 413 `too_large`.

const absolute = (path: string) => new URL(path, config().siteUrl).href;

function apiFile(source: FileSource, url: (extension: string) => string) {
  return {
    source: source.kind,
    url: source.kind === "upload" ? absolute(url(source.file.extension)) : source.kind === "seed" ? absolute(url("")) : null,
    upload:
      source.kind === "upload"
        ? {
            id: source.file.id,
            contentType: source.file.contentType,
            bytes: source.file.bytes,
            durationSeconds: source.file.durationSeconds,
            sha256: source.file.sha256,
            uploadedAt: source.file.uploadedAt,
            uploadedBy: source.file.uploadedBy,
          }
        : null,
  };
}

export const apiVideo = (v: DeskVideo) => ({
  id: v.id,
  slug: v.slug,
  title: v.title,
  description: v.description,
  topic: v.topic,
  tags: v.tags,
  durationSeconds: v.durationSeconds,
  published: v.published,
  subscriberOnly: v.subscriberOnly,
  playlists: v.playlists,
  url: absolute(v.path),
  // A seed video's file is its WebM; an upload is at the extension it was decoded as.
  file: apiFile(v.file, (extension) => videoMediaPath(v.id, extension === "mp4" ? "mp4" : "webm")),
  captions: apiFile(v.captions, () => videoMediaPath(v.id, "vtt")),
  version: v.version,
  updatedAt: v.updatedAt,
  updatedBy: v.updatedBy,
});

export const apiEpisode = (e: DeskEpisode) => ({
  id: e.id,
  series: e.series.slug,
  title: e.title,
  description: e.description,
  pubDate: e.pubDate,
  season: e.season,
  episode: e.episode,
  episodeType: e.episodeType,
  durationSeconds: e.durationSeconds,
  url: absolute(e.path),
  audio: apiFile(e.audio, () => podcastAudioPath(e.id)),
  version: e.version,
  updatedAt: e.updatedAt,
  updatedBy: e.updatedBy,
});

/** Refuses a body that says it is larger than the file may be, before reading any of it. */
export function announcedTooLarge(request: Request, kind: MediaKind): Response | null {
  return Number(request.headers.get("Content-Length") ?? 0) > MEDIA_MAX_BYTES[kind]
    ? apiError(413, "too_large", MEDIA_MESSAGES.wrongType[kind])
    : null;
}

/** What an upload answers: the video or episode with its new file, 404, 413, or 400 with the file's fault. */
export function uploadAnswer<T>(result: UploadResult<T>, what: string, show: (row: T) => object): Response {
  if (result.ok) return apiJson(show(result.value));
  if (result.reason === "not-found") return notFoundAnswer(what);
  if (result.reason === "too-large") return apiError(413, "too_large", result.message);
  if (result.reason === "broken-off") return apiError(400, "unreadable_body", result.message);
  if (result.reason === "unavailable") return apiError(503, "unavailable", result.message, {}, { "Retry-After": "30" });
  return invalidFields({ file: [result.message] }, result.message);
}
