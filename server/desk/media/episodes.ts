import type { ImageStorage } from "~/server/adapters/image-storage";
import { bumpContentGeneration, noteContentChanged } from "~/server/content/content-generation";
import { episodeAudioFile } from "~/server/content/podcasts";
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
import { reindexPodcastEpisode } from "~/server/search/documents";
import type { EpisodeFields, EpisodePatch } from "~/shared/media-fields";
import type { EpisodeType } from "~/shared/media-vocabulary";
import { podcastEpisodePath } from "~/shared/urls";
import { attachedFile, auditedFile, fileSource, type AttachedFile, type FileSource } from "./files";

// Podcast episodes at the desk and through the Admin API (ADR 083), within their series: their
// metadata and their uploaded audio. An episode's page is at its id (and a slug of its title,
// which a wrong one is sent on from), so a new title moves nothing. Within a series, a season
// and episode number belong to one episode; an episode still playing its seed file keeps its
// numbers, which name that file. Saves name the version they read, as a video's do.

export interface DeskSeries {
  id: number;
  slug: string;
  title: string;
  feedType: "serial" | "episodic";
  episodes: number;
}

export interface DeskEpisode extends LastSave {
  id: number;
  series: { slug: string; title: string };
  title: string;
  description: string;
  pubDate: string;
  season: number;
  episode: number;
  episodeType: EpisodeType;
  durationSeconds: number;
  path: string;
  audio: FileSource;
}

export type EpisodeListing = Pick<DeskEpisode, "id" | "title" | "pubDate" | "season" | "episode" | "episodeType"> & {
  audio: FileSource["kind"];
};

const NUMBER_TAKEN = "Another episode of this series has this season and number.";
const SEED_NUMBERS = "This episode still plays its seed file, which its season and number name: upload its audio before you renumber it.";

export async function listPodcastSeries(db: Database): Promise<DeskSeries[]> {
  const rows = await db
    .selectFrom("podcast_series as s")
    .leftJoin("podcast_episode as e", "e.series_id", "s.id")
    .select(["s.id", "s.slug", "s.title", "s.feed_type", (eb) => eb.fn.count<number>("e.id").as("episodes")])
    .groupBy(["s.id", "s.slug", "s.title", "s.feed_type"])
    .orderBy("s.title")
    .execute();
  return rows.map((r) => ({ id: r.id, slug: r.slug, title: r.title, feedType: r.feed_type, episodes: Number(r.episodes) }));
}

export async function podcastSeriesBySlug(db: Database, slug: string): Promise<DeskSeries | undefined> {
  return (await listPodcastSeries(db)).find((s) => s.slug === slug);
}

const seedAudio = (seriesSlug: string, e: { season: number; episode: number }) =>
  episodeAudioFile({ seriesSlug, season: e.season, episode: e.episode });

function matching(db: Database, seriesId: number, q: string | undefined) {
  const select = db.selectFrom("podcast_episode").where("series_id", "=", seriesId);
  return q ? select.where((eb) => containsText([eb.ref("title")], q)) : select;
}

/** One page of a series' episodes, newest first, and how many match in all. */
export async function listDeskEpisodes(db: Database, series: DeskSeries, query: ListQuery): Promise<Listing<EpisodeListing>> {
  const [rows, count] = await Promise.all([
    matching(db, series.id, query.q)
      .select(["id", "title", "pub_date", "season", "episode", "episode_type", "audio_file_id"])
      .orderBy("pub_date", "desc")
      .orderBy("id", "desc")
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize)
      .execute(),
    matching(db, series.id, query.q)
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  return {
    total: Number(count.n),
    items: rows.map((r) => ({
      id: r.id,
      title: r.title,
      pubDate: r.pub_date,
      season: r.season,
      episode: r.episode,
      episodeType: r.episode_type,
      audio: r.audio_file_id ? "upload" : fileSource(null, seedAudio(series.slug, r)).kind,
    })),
  };
}

async function attached(db: Database, id: string | null | undefined): Promise<AttachedFile | null> {
  const file = id ? await mediaFile(db, id) : undefined;
  return file ? attachedFile(file) : null;
}

/** An episode of the series named by slug; undefined when there is none (or it is another series'). */
export async function getDeskEpisode(db: Database, seriesSlug: string, id: number): Promise<DeskEpisode | undefined> {
  const row = await db
    .selectFrom("podcast_episode as e")
    .innerJoin("podcast_series as s", "s.id", "e.series_id")
    .selectAll("e")
    .select(["s.slug as series_slug", "s.title as series_title"])
    .where("e.id", "=", id)
    .where("s.slug", "=", seriesSlug)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    series: { slug: row.series_slug, title: row.series_title },
    title: row.title,
    description: row.description,
    pubDate: row.pub_date,
    season: row.season,
    episode: row.episode,
    episodeType: row.episode_type,
    durationSeconds: row.duration_seconds,
    path: podcastEpisodePath(row.series_slug, row),
    version: row.version,
    updatedAt: row.updated_at,
    updatedBy: row.updated_by_name,
    audio: fileSource(await attached(db, row.audio_file_id), seedAudio(row.series_slug, row)),
  };
}

type Audited = Pick<DeskEpisode, "title" | "description" | "pubDate" | "season" | "episode" | "episodeType" | "durationSeconds">;

const audited = (e: Audited): Audited => ({
  title: e.title,
  description: e.description,
  pubDate: e.pubDate,
  season: e.season,
  episode: e.episode,
  episodeType: e.episodeType,
  durationSeconds: e.durationSeconds,
});

async function numberTaken(tx: Database, seriesId: number, e: { season: number; episode: number }, self?: number): Promise<boolean> {
  let query = tx
    .selectFrom("podcast_episode")
    .select("id")
    .where("series_id", "=", seriesId)
    .where("season", "=", e.season)
    .where("episode", "=", e.episode);
  if (self !== undefined) query = query.where("id", "!=", self);
  return (await query.executeTakeFirst()) !== undefined;
}

async function readersSee(tx: Database, id: number, now: Date): Promise<number> {
  await reindexPodcastEpisode(tx, id);
  return bumpContentGeneration(tx, now);
}

const subject = (seriesSlug: string, id: number) => `podcast-episode:${seriesSlug}/${id}`;

export async function createEpisode(
  db: Database,
  editor: Editor,
  series: DeskSeries,
  fields: EpisodeFields,
  now: Date,
): Promise<SaveResult<DeskEpisode>> {
  let generation: number | null = null;
  const result = await withNextId(db, "podcast_episode", async (tx, id): Promise<SaveResult<DeskEpisode>> => {
    if (await numberTaken(tx, series.id, fields)) return { ok: false, reason: "invalid", fields: { episode: [NUMBER_TAKEN] } };
    await tx
      .insertInto("podcast_episode")
      .values({
        id,
        series_id: series.id,
        title: fields.title,
        description: fields.description,
        pub_date: fields.pubDate,
        season: fields.season,
        episode: fields.episode,
        episode_type: fields.episodeType,
        duration_seconds: fields.durationSeconds ?? 0,
        version: 1,
        updated_at: now.toISOString(),
        updated_by_name: editor.name,
      })
      .execute();
    const episode = (await getDeskEpisode(tx, series.slug, id))!;
    await recordAudit(
      tx,
      { actor: editor.actor, action: "podcast-episode.create", subject: subject(series.slug, id), after: audited(episode) },
      now,
    );
    generation = await readersSee(tx, id, now);
    return { ok: true, value: episode, changed: true };
  });
  if (generation !== null) noteContentChanged(db, generation);
  return result;
}

export async function updateEpisode(
  db: Database,
  editor: Editor,
  series: DeskSeries,
  id: number,
  change: EpisodePatch,
  now: Date,
): Promise<SaveResult<DeskEpisode>> {
  let generation: number | null = null;
  const result = await db.transaction().execute(async (tx): Promise<SaveResult<DeskEpisode>> => {
    const current = await getDeskEpisode(tx, series.slug, id);
    if (!current) return { ok: false, reason: "not-found" };
    if (current.version !== change.version) return { ok: false, reason: "stale", current };
    const next: Audited = {
      title: change.title ?? current.title,
      description: change.description ?? current.description,
      pubDate: change.pubDate ?? current.pubDate,
      season: change.season ?? current.season,
      episode: change.episode ?? current.episode,
      episodeType: change.episodeType ?? current.episodeType,
      durationSeconds: change.durationSeconds ?? current.durationSeconds,
    };
    const diff = changes(audited(current), next);
    if (!diff) return { ok: true, value: current, changed: false };
    if ("season" in diff.after || "episode" in diff.after) {
      if (current.audio.kind === "seed") return { ok: false, reason: "invalid", fields: { episode: [SEED_NUMBERS] } };
      if (await numberTaken(tx, series.id, next, id)) return { ok: false, reason: "invalid", fields: { episode: [NUMBER_TAKEN] } };
    }
    const updated = await tx
      .updateTable("podcast_episode")
      .set((eb) => ({
        title: next.title,
        description: next.description,
        pub_date: next.pubDate,
        season: next.season,
        episode: next.episode,
        episode_type: next.episodeType,
        duration_seconds: next.durationSeconds,
        version: eb("version", "+", 1),
        updated_at: now.toISOString(),
        updated_by_name: editor.name,
      }))
      .where("id", "=", id)
      .where("version", "=", change.version)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) return { ok: false, reason: "stale", current: (await getDeskEpisode(tx, series.slug, id))! };
    await recordAudit(tx, { actor: editor.actor, action: "podcast-episode.update", subject: subject(series.slug, id), ...diff }, now);
    generation = await readersSee(tx, id, now);
    return { ok: true, value: (await getDeskEpisode(tx, series.slug, id))!, changed: true };
  });
  if (generation !== null) noteContentChanged(db, generation);
  return result;
}

/**
 * Makes an uploaded MP3 the episode's audio, in place of the seed's or an earlier upload (which
 * is then deleted). The length read from it becomes the episode's: a save, which counts the
 * version up when it changes the length, so a form opened before it is stale.
 */
export async function setEpisodeAudio(
  db: Database,
  storage: ImageStorage,
  editor: Editor,
  series: DeskSeries,
  id: number,
  file: MediaFile,
  now: Date,
): Promise<{ ok: true; value: DeskEpisode } | { ok: false; reason: "not-found" }> {
  const done = await db.transaction().execute(async (tx) => {
    let query = tx
      .selectFrom("podcast_episode")
      .select(["id", "duration_seconds", "audio_file_id"])
      .where("id", "=", id)
      .where("series_id", "=", series.id);
    if (isPostgres(tx)) query = query.forUpdate();
    const row = await query.executeTakeFirst();
    if (!row) return null;
    const before = row.audio_file_id ?? null;
    const duration = file.durationSeconds !== null && file.durationSeconds !== row.duration_seconds ? file.durationSeconds : null;
    await tx
      .updateTable("podcast_episode")
      .set((eb) => ({
        audio_file_id: file.id,
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
        action: "podcast-episode.audio",
        subject: subject(series.slug, id),
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
  return { ok: true, value: (await getDeskEpisode(db, series.slug, id))! };
}
