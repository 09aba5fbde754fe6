import path from "node:path";
import type { Database } from "~/server/db/connection";
import { config } from "~/server/config";
import { topicPath, videoEmbedPath, videoPath, videoPosterPath } from "~/shared/urls";

export interface VideoCard {
  id: number;
  slug: string;
  title: string;
  durationSeconds: number;
  published: string;
  subscriberOnly: boolean;
  url: string;
  poster: string;
}

export interface Video extends VideoCard {
  description: string;
  tags: string[];
  topic: { name: string; url: string };
  embedUrl: string;
  /** The uploaded files readers get (ADR 083); null plays the seed's WebM or captions. */
  uploads: { file: UploadedMedia | null; captions: UploadedMedia | null };
}

/** An uploaded file as its media route serves it. */
export interface UploadedMedia {
  id: string;
  /** As decoded from its bytes: webm, mp4 or vtt. */
  extension: string;
  contentType: string;
}

export interface Playlist {
  slug: string;
  name: string;
  videos: VideoCard[];
}

/** How many more playlist entries "Load more" shows each time (spec: 6). */
export const PLAYLIST_STEP = 6;
export const VIDEO_PAGE_SIZE = 12;

const cardColumns = [
  "video.id",
  "video.slug",
  "video.title",
  "video.duration_seconds",
  "video.published",
  "video.subscriber_only",
] as const;

function toCard(r: {
  id: number;
  slug: string;
  title: string;
  duration_seconds: number;
  published: string;
  subscriber_only: number;
}): VideoCard {
  return {
    id: r.id,
    slug: r.slug,
    title: r.title,
    durationSeconds: r.duration_seconds,
    published: r.published,
    subscriberOnly: r.subscriber_only === 1,
    url: videoPath(r),
    poster: videoPosterPath(r.slug),
  };
}

export async function videoById(db: Database, id: number): Promise<Video | undefined> {
  const row = await db
    .selectFrom("video")
    .innerJoin("topic", "topic.id", "video.topic_id")
    .select([
      ...cardColumns,
      "video.description",
      "video.tags",
      "video.media_file_id",
      "video.captions_file_id",
      "topic.name as topic_name",
      "topic.slug as topic_slug",
    ])
    .where("video.id", "=", id)
    .executeTakeFirst();
  if (!row) return undefined;
  const ids = [row.media_file_id, row.captions_file_id].filter((f): f is string => !!f);
  const files = ids.length
    ? await db
        .selectFrom("media_file")
        .select(["id", "extension", "content_type as contentType"])
        .where("id", "in", ids)
        .where("complete", "=", 1)
        .execute()
    : [];
  const upload = (fileId: string | null) => files.find((f) => f.id === fileId) ?? null;
  return {
    ...toCard(row),
    description: row.description,
    tags: JSON.parse(row.tags) as string[],
    topic: { name: row.topic_name, url: topicPath(row.topic_slug) },
    embedUrl: videoEmbedPath(row),
    uploads: { file: upload(row.media_file_id), captions: upload(row.captions_file_id) },
  };
}

/** What a video's poster shows. */
export async function videoPosterSource(
  db: Database,
  slug: string,
): Promise<{ slug: string; title: string; topic: string; subject: string } | undefined> {
  const row = await db
    .selectFrom("video")
    .innerJoin("topic", "topic.id", "video.topic_id")
    .leftJoin("topic as subject", "subject.id", "topic.subject_id")
    .select(["video.slug", "video.title", "topic.name as topic", "subject.name as subject"])
    .where("video.slug", "=", slug)
    .executeTakeFirst();
  // A topic that is itself a subject has none above it.
  return row && { ...row, subject: row.subject ?? row.topic };
}

/** The seed video's file: the narrated slide or its captions. */
export function videoFile(slug: string, kind: "webm" | "vtt"): string {
  return path.join(config().contentDir, "video", `${slug}.${kind}`);
}

/** Newest first, a page at a time. */
export async function videoList(db: Database, page: number): Promise<{ videos: VideoCard[]; total: number }> {
  const [rows, count] = await Promise.all([
    db
      .selectFrom("video")
      .select(cardColumns)
      .orderBy("video.published", "desc")
      .orderBy("video.id", "desc")
      .limit(VIDEO_PAGE_SIZE)
      .offset((page - 1) * VIDEO_PAGE_SIZE)
      .execute(),
    db
      .selectFrom("video")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  return { videos: rows.map(toCard), total: Number(count.n) };
}

export async function playlistBySlug(db: Database, slug: string): Promise<Playlist | undefined> {
  const playlist = await db.selectFrom("playlist").select(["id", "slug", "name"]).where("slug", "=", slug).executeTakeFirst();
  if (!playlist) return undefined;
  const rows = await db
    .selectFrom("playlist_video")
    .innerJoin("video", "video.id", "playlist_video.video_id")
    .select(cardColumns)
    .where("playlist_video.playlist_id", "=", playlist.id)
    .orderBy("playlist_video.position")
    .execute();
  return { slug: playlist.slug, name: playlist.name, videos: rows.map(toCard) };
}

export async function allPlaylists(db: Database): Promise<Playlist[]> {
  const names = await db.selectFrom("playlist").select("slug").orderBy("id").execute();
  const lists = await Promise.all(names.map((p) => playlistBySlug(db, p.slug)));
  return lists.filter((p): p is Playlist => p !== undefined);
}

/** The video after this one, newest first; after the oldest comes the newest again. */
export async function nextVideo(db: Database, videoId: number): Promise<VideoCard | undefined> {
  const rows = await db.selectFrom("video").select(cardColumns).orderBy("video.published", "desc").orderBy("video.id", "desc").execute();
  const at = rows.findIndex((r) => r.id === videoId);
  const next = at < 0 ? undefined : rows[(at + 1) % rows.length];
  return next && toCard(next);
}

/** The video after this one in a playlist; after the last comes the first again. */
export function nextInPlaylist(playlist: Playlist, videoId: number): VideoCard | undefined {
  const at = playlist.videos.findIndex((v) => v.id === videoId);
  if (at < 0) return undefined;
  return playlist.videos[(at + 1) % playlist.videos.length];
}

/** Whether a reader may watch (and so share and embed) a video: subscriber-only videos are for subscribers. */
export function mayWatch(video: Pick<VideoCard, "subscriberOnly">, subscriber: boolean): boolean {
  return !video.subscriberOnly || subscriber;
}
