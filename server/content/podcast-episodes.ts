// The podcast episodes that references name (a library item, a share, an audio file's id): the
// lookup beneath server/library and the media route, apart from the series and episode pages.
import type { Database } from "~/server/db/connection";

export interface EpisodeRecord {
  id: number;
  title: string;
  description: string;
  seriesSlug: string;
  seriesTitle: string;
  season: number;
  episode: number;
  /** The uploaded audio (ADR 083); null plays the seed's file. */
  audioFileId: string | null;
}

export async function podcastEpisodesById(db: Database, ids: number[]): Promise<EpisodeRecord[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom("podcast_episode as e")
    .innerJoin("podcast_series as s", "s.id", "e.series_id")
    .select([
      "e.id",
      "e.title",
      "e.description",
      "s.slug as seriesSlug",
      "s.title as seriesTitle",
      "e.season",
      "e.episode",
      "e.audio_file_id as audioFileId",
    ])
    .where("e.id", "in", ids)
    .execute();
}
