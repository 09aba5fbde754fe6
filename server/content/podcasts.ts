import path from "node:path";
import type { Database } from "~/server/db/connection";
import { config } from "~/server/config";
import type { EpisodeRecord } from "./podcast-episodes";
import { podcastEpisodePath } from "~/shared/urls";

export interface PodcastSeriesCard {
  slug: string;
  title: string;
  description: string;
  hosts: string[];
  feedType: "serial" | "episodic";
  episodeCount: number;
}

export interface PodcastEpisode {
  id: number;
  title: string;
  description: string;
  published: string;
  season: number;
  episode: number;
  episodeType: "full" | "bonus" | "trailer";
  durationSeconds: number;
  /** The episode's place on its series page. */
  url: string;
}

/** One tab of a series page: a season (serial shows) or a year (episodic shows). */
export interface PodcastTab {
  key: string;
  label: string;
  episodes: PodcastEpisode[];
}

export interface PodcastSeries extends PodcastSeriesCard {
  id: number;
  tabs: PodcastTab[];
}

const splitHosts = (hosts: string) =>
  hosts
    .split(",")
    .map((h) => h.trim())
    .filter(Boolean);

export async function podcastSeriesList(db: Database): Promise<PodcastSeriesCard[]> {
  const rows = await db
    .selectFrom("podcast_series as s")
    .leftJoin("podcast_episode as e", "e.series_id", "s.id")
    .select(["s.slug", "s.title", "s.description", "s.hosts", "s.feed_type", (eb) => eb.fn.count<number>("e.id").as("episodes")])
    .groupBy(["s.id", "s.slug", "s.title", "s.description", "s.hosts", "s.feed_type"])
    .orderBy("s.title")
    .execute();
  return rows.map((r) => ({
    slug: r.slug,
    title: r.title,
    description: r.description,
    hosts: splitHosts(r.hosts),
    feedType: r.feed_type,
    episodeCount: Number(r.episodes),
  }));
}

/**
 * A series with its episodes in tabs. A serial show is heard in order: seasons from the first,
 * episodes oldest first. An episodic show leads with its newest: years newest first, episodes
 * newest first.
 */
export async function podcastSeries(db: Database, slug: string): Promise<PodcastSeries | undefined> {
  const series = await db.selectFrom("podcast_series").selectAll().where("slug", "=", slug).executeTakeFirst();
  if (!series) return undefined;
  const serial = series.feed_type === "serial";
  const rows = await db
    .selectFrom("podcast_episode")
    .selectAll()
    .where("series_id", "=", series.id)
    .orderBy(serial ? ["season", "episode", "id"] : ["pub_date desc", "id desc"])
    .execute();
  const tabs = new Map<string, PodcastTab>();
  for (const row of rows) {
    const key = serial ? `season-${row.season}` : row.pub_date.slice(0, 4);
    let tab = tabs.get(key);
    if (!tab) tabs.set(key, (tab = { key, label: serial ? `Season ${row.season}` : key, episodes: [] }));
    tab.episodes.push({
      id: row.id,
      title: row.title,
      description: row.description,
      published: row.pub_date,
      season: row.season,
      episode: row.episode,
      episodeType: row.episode_type,
      durationSeconds: row.duration_seconds,
      url: podcastEpisodePath(series.slug, row),
    });
  }
  return {
    id: series.id,
    slug: series.slug,
    title: series.title,
    description: series.description,
    hosts: splitHosts(series.hosts),
    feedType: series.feed_type,
    episodeCount: rows.length,
    tabs: [...tabs.values()],
  };
}

/** An episode's own page: the episode, its show, and the episodes published either side of it. */
export interface PodcastEpisodePage {
  series: Omit<PodcastSeries, "tabs" | "id">;
  episode: PodcastEpisode;
  /** The episode published before this one, and the one after (by date, in either kind of show). */
  previous: PodcastEpisode | null;
  next: PodcastEpisode | null;
}

export async function podcastEpisodePage(db: Database, id: number): Promise<PodcastEpisodePage | undefined> {
  const row = await db
    .selectFrom("podcast_episode as e")
    .innerJoin("podcast_series as s", "s.id", "e.series_id")
    .select("s.slug")
    .where("e.id", "=", id)
    .executeTakeFirst();
  const found = row && (await podcastSeries(db, row.slug));
  if (!found) return undefined;
  const { tabs, id: _, ...series } = found;
  const byDate = tabs.flatMap((t) => t.episodes).sort((a, b) => a.published.localeCompare(b.published) || a.id - b.id);
  const at = byDate.findIndex((e) => e.id === id);
  if (at < 0) return undefined;
  return { series, episode: byDate[at]!, previous: byDate[at - 1] ?? null, next: byDate[at + 1] ?? null };
}

/** Where an episode's audio lives in the repository (content/podcast/generate.mjs makes it). */
export function episodeAudioFile(episode: Pick<EpisodeRecord, "seriesSlug" | "season" | "episode">): string {
  return path.join(config().contentDir, "podcast", `${episode.seriesSlug}-s${episode.season}e${episode.episode}.mp3`);
}
