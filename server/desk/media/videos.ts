import type { ImageStorage } from "~/server/adapters/image-storage";
import { bumpContentGeneration, noteContentChanged } from "~/server/content/content-generation";
import { videoFile } from "~/server/content/videos";
import type { Database } from "~/server/db/connection";
import { isPostgres } from "~/server/db/dialect";
import { recordAudit } from "~/server/desk/audit";
import {
  changes,
  containsText,
  withNextId,
  type Editor,
  type LastSave,
  type Listing,
  type ListQuery,
  type SaveResult,
} from "~/server/desk/catalogue/common";
import { deleteMediaFile, mediaFile, type MediaFile } from "~/server/media";
import { reindexVideo } from "~/server/search/documents";
import type { VideoFields, VideoPatch } from "~/shared/media-fields";
import { slugify } from "~/shared/slugs";
import { videoPath } from "~/shared/urls";
import { attachedFile, auditedFile, fileSource, type AttachedFile, type FileSource } from "./files";

// Videos at the desk and through the Admin API (ADR 083): their metadata, their playlists, and
// their uploaded file and captions. A video's slug names its seed files and its poster, so it is
// made once, with the video, and never changes; its address is by id, so a new title moves
// nothing. Every save names the version it read, and a stale one writes nothing. Every change is
// audited, re-indexed for search and counts the content generation up, in its transaction.

export interface DeskVideo extends LastSave {
  id: number;
  slug: string;
  title: string;
  description: string;
  /** The topic's name. */
  topic: string;
  tags: string[];
  durationSeconds: number;
  published: string;
  subscriberOnly: boolean;
  /** Playlist slugs it is in, by playlist. */
  playlists: string[];
  path: string;
  file: FileSource;
  captions: FileSource;
}

export interface VideoListing {
  id: number;
  slug: string;
  title: string;
  published: string;
  topic: string;
  subscriberOnly: boolean;
  file: FileSource["kind"];
}

export interface VideoChoices {
  topics: string[];
  playlists: { slug: string; name: string }[];
}

const SLUG_TAKEN = "Another video has this slug: choose another.";
const NO_SLUG = "The title makes no slug: enter one.";

/** The topics a video may be filed under and the playlists it may join, for the desk's forms. */
export async function videoChoices(db: Database): Promise<VideoChoices> {
  const [topics, playlists] = await Promise.all([
    db.selectFrom("topic").select("name").orderBy("name").execute(),
    db.selectFrom("playlist").select(["slug", "name"]).orderBy("name").execute(),
  ]);
  return { topics: topics.map((t) => t.name), playlists };
}

function matching(db: Database, q: string | undefined) {
  const select = db.selectFrom("video").innerJoin("topic", "topic.id", "video.topic_id");
  return q ? select.where((eb) => containsText([eb.ref("video.title"), eb.ref("video.slug")], q)) : select;
}

/** One page of videos, newest first, and how many match in all. */
export async function listDeskVideos(db: Database, query: ListQuery): Promise<Listing<VideoListing>> {
  const [rows, count] = await Promise.all([
    matching(db, query.q)
      .select([
        "video.id",
        "video.slug",
        "video.title",
        "video.published",
        "video.subscriber_only",
        "video.media_file_id",
        "topic.name as topic",
      ])
      .orderBy("video.published", "desc")
      .orderBy("video.id", "desc")
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize)
      .execute(),
    matching(db, query.q)
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  return {
    total: Number(count.n),
    items: rows.map((r) => ({
      id: r.id,
      slug: r.slug,
      title: r.title,
      published: r.published,
      topic: r.topic,
      subscriberOnly: r.subscriber_only === 1,
      file: r.media_file_id ? "upload" : fileSource(null, videoFile(r.slug, "webm")).kind,
    })),
  };
}

async function attached(db: Database, id: string | null | undefined): Promise<AttachedFile | null> {
  const file = id ? await mediaFile(db, id) : undefined;
  return file ? attachedFile(file) : null;
}

export async function getDeskVideo(db: Database, id: number): Promise<DeskVideo | undefined> {
  const row = await db
    .selectFrom("video")
    .innerJoin("topic", "topic.id", "video.topic_id")
    .selectAll("video")
    .select("topic.name as topic")
    .where("video.id", "=", id)
    .executeTakeFirst();
  if (!row) return undefined;
  const [playlists, file, captions] = await Promise.all([
    db
      .selectFrom("playlist_video")
      .innerJoin("playlist", "playlist.id", "playlist_video.playlist_id")
      .select("playlist.slug")
      .where("playlist_video.video_id", "=", id)
      .orderBy("playlist.name")
      .execute(),
    attached(db, row.media_file_id),
    attached(db, row.captions_file_id),
  ]);
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    description: row.description,
    topic: row.topic,
    tags: JSON.parse(row.tags) as string[],
    durationSeconds: row.duration_seconds,
    published: row.published,
    subscriberOnly: row.subscriber_only === 1,
    playlists: playlists.map((p) => p.slug),
    path: videoPath(row),
    version: row.version,
    updatedAt: row.updated_at,
    updatedBy: row.updated_by_name,
    file: fileSource(file, videoFile(row.slug, "webm")),
    captions: fileSource(captions, videoFile(row.slug, "vtt")),
  };
}

type Audited = Pick<
  DeskVideo,
  "title" | "description" | "topic" | "tags" | "durationSeconds" | "published" | "subscriberOnly" | "playlists"
>;

const audited = (v: Audited): Audited => ({
  title: v.title,
  description: v.description,
  topic: v.topic,
  tags: v.tags,
  durationSeconds: v.durationSeconds,
  published: v.published,
  subscriberOnly: v.subscriberOnly,
  playlists: [...v.playlists].sort(),
});

/** The topic and playlists named, as the database has them; field errors for those it has not. */
async function resolve(
  tx: Database,
  fields: { topic: string; playlists: string[] },
): Promise<
  | { ok: true; topic: { id: number; name: string }; playlists: { id: number; slug: string }[] }
  | { ok: false; fields: Record<string, string[]> }
> {
  const topic = await tx
    .selectFrom("topic")
    .select(["id", "name"])
    .where((eb) => eb(eb.fn("lower", ["name"]), "=", fields.topic.toLowerCase()))
    .executeTakeFirst();
  const wanted = [...new Set(fields.playlists)];
  const playlists = wanted.length ? await tx.selectFrom("playlist").select(["id", "slug"]).where("slug", "in", wanted).execute() : [];
  const errors: Record<string, string[]> = {};
  if (!topic) errors.topic = [`No topic is named "${fields.topic}".`];
  const unknown = wanted.filter((slug) => !playlists.some((p) => p.slug === slug));
  if (unknown.length) errors.playlists = unknown.map((slug) => `No playlist has the slug "${slug}".`);
  return topic && unknown.length === 0 ? { ok: true, topic, playlists } : { ok: false, fields: errors };
}

/** Puts the video in exactly these playlists: last in those it joins, the others closing up behind it. */
async function setPlaylists(tx: Database, videoId: number, playlistIds: number[]): Promise<void> {
  const now = await tx.selectFrom("playlist_video").select("playlist_id").where("video_id", "=", videoId).execute();
  const was = new Set(now.map((r) => r.playlist_id));
  const joins = playlistIds.filter((id) => !was.has(id));
  const leaves = [...was].filter((id) => !playlistIds.includes(id));
  for (const playlistId of joins) {
    const last = await tx
      .selectFrom("playlist_video")
      .select((eb) => eb.fn.max("position").as("max"))
      .where("playlist_id", "=", playlistId)
      .executeTakeFirst();
    const position = last?.max === null || last?.max === undefined ? 0 : Number(last.max) + 1;
    await tx.insertInto("playlist_video").values({ playlist_id: playlistId, video_id: videoId, position }).execute();
  }
  for (const playlistId of leaves) {
    // Positions are the key: the list is written again in order without the video.
    const rest = await tx
      .selectFrom("playlist_video")
      .select("video_id")
      .where("playlist_id", "=", playlistId)
      .where("video_id", "!=", videoId)
      .orderBy("position")
      .execute();
    await tx.deleteFrom("playlist_video").where("playlist_id", "=", playlistId).execute();
    if (rest.length)
      await tx
        .insertInto("playlist_video")
        .values(rest.map((r, position) => ({ playlist_id: playlistId, video_id: r.video_id, position })))
        .execute();
  }
}

/** What readers see changed: the video's search entry, and every instance's caches, within seconds. */
async function readersSee(tx: Database, id: number, now: Date): Promise<number> {
  await reindexVideo(tx, id);
  return bumpContentGeneration(tx, now);
}

export async function createVideo(db: Database, editor: Editor, fields: VideoFields, now: Date): Promise<SaveResult<DeskVideo>> {
  const slug = fields.slug ?? slugify(fields.title);
  if (!slug) return { ok: false, reason: "invalid", fields: { slug: [NO_SLUG] } };
  let generation: number | null = null;
  const result = await withNextId(db, "video", async (tx, id): Promise<SaveResult<DeskVideo>> => {
    const resolved = await resolve(tx, fields);
    const taken = await tx.selectFrom("video").select("id").where("slug", "=", slug).executeTakeFirst();
    if (taken || !resolved.ok)
      return {
        ok: false,
        reason: "invalid",
        fields: { ...(resolved.ok ? {} : resolved.fields), ...(taken ? { slug: [SLUG_TAKEN] } : {}) },
      };
    await tx
      .insertInto("video")
      .values({
        id,
        slug,
        title: fields.title,
        description: fields.description,
        duration_seconds: fields.durationSeconds ?? 0,
        published: fields.published,
        topic_id: resolved.topic.id,
        tags: JSON.stringify(fields.tags),
        subscriber_only: fields.subscriberOnly ? 1 : 0,
        version: 1,
        updated_at: now.toISOString(),
        updated_by_name: editor.name,
      })
      .execute();
    await setPlaylists(
      tx,
      id,
      resolved.playlists.map((p) => p.id),
    );
    const video = (await getDeskVideo(tx, id))!;
    await recordAudit(
      tx,
      { actor: editor.actor, action: "video.create", subject: `video:${slug}`, after: { slug, ...audited(video) } },
      now,
    );
    generation = await readersSee(tx, id, now);
    return { ok: true, value: video, changed: true };
  });
  if (generation !== null) noteContentChanged(db, generation);
  return result;
}

/**
 * Saves the fields given over the version read. Nothing changed writes nothing (no new version,
 * no audit row); a version that is not the video's now writes nothing either and answers what is there.
 */
export async function updateVideo(db: Database, editor: Editor, id: number, change: VideoPatch, now: Date): Promise<SaveResult<DeskVideo>> {
  let generation: number | null = null;
  const result = await db.transaction().execute(async (tx): Promise<SaveResult<DeskVideo>> => {
    const current = await getDeskVideo(tx, id);
    if (!current) return { ok: false, reason: "not-found" };
    if (current.version !== change.version) return { ok: false, reason: "stale", current };
    const next: Audited = {
      title: change.title ?? current.title,
      description: change.description ?? current.description,
      topic: change.topic ?? current.topic,
      tags: change.tags ?? current.tags,
      durationSeconds: change.durationSeconds ?? current.durationSeconds,
      published: change.published ?? current.published,
      subscriberOnly: change.subscriberOnly ?? current.subscriberOnly,
      playlists: [...new Set(change.playlists ?? current.playlists)],
    };
    const resolved = await resolve(tx, next);
    if (!resolved.ok) return { ok: false, reason: "invalid", fields: resolved.fields };
    next.topic = resolved.topic.name;
    const diff = changes(audited(current), audited(next));
    if (!diff) return { ok: true, value: current, changed: false };
    const updated = await tx
      .updateTable("video")
      .set((eb) => ({
        title: next.title,
        description: next.description,
        topic_id: resolved.topic.id,
        tags: JSON.stringify(next.tags),
        duration_seconds: next.durationSeconds,
        published: next.published,
        subscriber_only: next.subscriberOnly ? 1 : 0,
        version: eb("version", "+", 1),
        updated_at: now.toISOString(),
        updated_by_name: editor.name,
      }))
      .where("id", "=", id)
      .where("version", "=", change.version)
      .executeTakeFirst();
    // Another save took this version between the read and the write (PostgreSQL waits for it).
    if (Number(updated.numUpdatedRows) === 0) return { ok: false, reason: "stale", current: (await getDeskVideo(tx, id))! };
    if (diff.after.playlists)
      await setPlaylists(
        tx,
        id,
        resolved.playlists.map((p) => p.id),
      );
    await recordAudit(tx, { actor: editor.actor, action: "video.update", subject: `video:${current.slug}`, ...diff }, now);
    generation = await readersSee(tx, id, now);
    return { ok: true, value: (await getDeskVideo(tx, id))!, changed: true };
  });
  if (generation !== null) noteContentChanged(db, generation);
  return result;
}

export type FileChange = { ok: true; value: DeskVideo } | { ok: false; reason: "not-found" };

/**
 * Makes an uploaded file the video's file or its captions, in place of the seed's or an earlier
 * upload (which is then deleted). A video file whose length was read sets the video's length too,
 * which is a save: the version counts up, so a form opened before it is stale.
 */
export async function setVideoFile(
  db: Database,
  storage: ImageStorage,
  editor: Editor,
  id: number,
  kind: "file" | "captions",
  file: MediaFile,
  now: Date,
): Promise<FileChange> {
  const column = kind === "file" ? "media_file_id" : "captions_file_id";
  const done = await db.transaction().execute(async (tx) => {
    let query = tx.selectFrom("video").select(["id", "slug", "duration_seconds", column]).where("id", "=", id);
    if (isPostgres(tx)) query = query.forUpdate();
    const row = await query.executeTakeFirst();
    if (!row) return null;
    const before = row[column] ?? null;
    const duration =
      kind === "file" && file.durationSeconds !== null && file.durationSeconds !== row.duration_seconds ? file.durationSeconds : null;
    await tx
      .updateTable("video")
      .set((eb) => ({
        [column]: file.id,
        ...(duration !== null
          ? { duration_seconds: duration, version: eb("version", "+", 1), updated_at: now.toISOString(), updated_by_name: editor.name }
          : {}),
      }))
      .where("id", "=", id)
      .execute();
    await recordAudit(
      tx,
      {
        actor: editor.actor,
        action: kind === "file" ? "video.file" : "video.captions",
        subject: `video:${row.slug}`,
        before: { file: auditedFile(await attached(tx, before)), ...(duration !== null ? { durationSeconds: row.duration_seconds } : {}) },
        after: { file: auditedFile(attachedFile(file)), ...(duration !== null ? { durationSeconds: duration } : {}) },
      },
      now,
    );
    return { before, generation: await readersSee(tx, id, now) };
  });
  if (!done) return { ok: false, reason: "not-found" };
  noteContentChanged(db, done.generation);
  if (done.before && done.before !== file.id) await deleteMediaFile(db, storage, done.before);
  return { ok: true, value: (await getDeskVideo(db, id))! };
}
