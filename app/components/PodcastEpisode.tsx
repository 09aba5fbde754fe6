import { useRef } from "react";
import type { PodcastEpisode } from "~/server/content/podcasts";
import { podcastAudioPath } from "~/shared/urls";
import { formatDuration, formatPublished } from "~/app/lib/content/format";
import { SaveControl } from "./library/SaveControl";
import { MediaControls } from "./media/MediaControls";
import { audioPlayer } from "./media/media-controls.css";
import { useHydrated } from "./useHydrated";
import { ShareControl } from "./library/ShareControl";
import { toolButton, toolRow } from "./controls.css";
import * as css from "./podcast.css";
import { ToolIcon } from "./ToolIcon";

const TYPE_LABELS = { trailer: "Trailer", bonus: "Bonus", full: null } as const;

/** An episode's type (unless a full one), its place in a serial show, its date and its length. */
export function EpisodeMeta({ episode, serial }: { episode: PodcastEpisode; serial: boolean }) {
  const label = TYPE_LABELS[episode.episodeType];
  return (
    <p className={css.episodeMeta}>
      {[label, serial ? `Season ${episode.season}, Episode ${episode.episode}` : null].filter(Boolean).join(" · ")}
      {label || serial ? " · " : null}
      <time dateTime={episode.published}>{formatPublished(episode.published)}</time> · {formatDuration(episode.durationSeconds)}
    </p>
  );
}

/**
 * The player (the browser's own until scripts run, then ours around the same <audio>), a download
 * link, and Save and Share, for one episode.
 */
export function EpisodeAudio({ episode, seriesTitle, siteUrl }: { episode: PodcastEpisode; seriesTitle: string; siteUrl: string }) {
  const audio = useRef<HTMLAudioElement>(null);
  const hydrated = useHydrated();
  return (
    <>
      <div className={audioPlayer}>
        {/* Audio only: WCAG asks a transcript of it, not a captions <track>. */}
        {/* eslint-disable-next-line jsx-a11y/media-has-caption */}
        <audio
          ref={audio}
          className={css.player}
          controls={!hydrated}
          preload="none"
          src={podcastAudioPath(episode.id)}
          aria-label={`Listen: ${episode.title}`}
        >
          <a href={podcastAudioPath(episode.id)}>Download the episode (MP3)</a>
        </audio>
        {hydrated ? <MediaControls media={audio} title={episode.title} knownDuration={episode.durationSeconds} layout="audio" /> : null}
      </div>
      <p className={toolRow}>
        <a href={podcastAudioPath(episode.id)} download className={toolButton}>
          <ToolIcon name="download" />
          Download<span className="visually-hidden"> {episode.title}</span> (MP3)
        </a>
        <SaveControl type="podcast" id={episode.id} title={episode.title} look="tool" />
        <ShareControl type="podcast" id={episode.id} title={`${seriesTitle}: ${episode.title}`} url={`${siteUrl}${episode.url}`} />
      </p>
    </>
  );
}
