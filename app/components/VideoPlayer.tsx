import { Link, useLocation, useNavigate } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { primaryButton } from "./controls.css";
import { MediaControls } from "./media/MediaControls";
import { videoPlayer } from "./media/media-controls.css";
import { useHydrated } from "./useHydrated";
import * as css from "./video.css";

/** Seconds the end screen waits before the next video starts (spec: 10). */
export const END_COUNTDOWN_SECONDS = 10;

export interface PlayableVideo {
  title: string;
  poster: string;
  src: string;
  /** The file's type: video/webm or video/mp4. */
  type: string;
  captions: string;
}

interface Props {
  video: PlayableVideo;
  /** What the end screen offers next; the playlist wraps round to its first video. */
  next: { title: string; url: string } | null;
  /** Fill the page's height (the embed) rather than take 16:9 of its width. */
  fillHeight?: boolean;
}

/**
 * The browser's own player, which plays, seeks and shows captions without any script of ours.
 * With JS, our controls take over from it, and the end of the video brings the end screen: a
 * countdown to the next video, with replay. Key it on the video, so each video starts with a
 * fresh end screen.
 */
export function VideoPlayer({ video, next, fillHeight = false }: Props) {
  const player = useRef<HTMLVideoElement>(null);
  const frame = useRef<HTMLDivElement>(null);
  const playButton = useRef<HTMLButtonElement>(null);
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const location = useLocation();
  const [ended, setEnded] = useState(false);
  const [counting, setCounting] = useState(false);
  const [seconds, setSeconds] = useState(END_COUNTDOWN_SECONDS);

  // Arriving from the end screen, the next video plays at once (the browser may refuse; then it waits).
  const autoplay = (location.state as { autoplay?: boolean } | null)?.autoplay === true;
  useEffect(() => {
    if (autoplay) player.current?.play().catch(() => undefined);
  }, [autoplay]);

  useEffect(() => {
    if (!ended || !counting || !next) return;
    if (seconds === 0) {
      navigate(next.url, { state: { autoplay: true } });
      return;
    }
    const timer = setTimeout(() => setSeconds((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [ended, counting, seconds, next, navigate]);

  const replay = () => {
    setEnded(false);
    const el = player.current;
    if (!el) return;
    el.currentTime = 0;
    el.play().catch(() => undefined);
    playButton.current?.focus();
  };

  return (
    <div ref={frame} className={`${videoPlayer} ${fillHeight ? css.fillPlayer : css.player}`}>
      <div className={css.stage}>
        <video
          ref={player}
          className={css.video}
          controls={!hydrated}
          preload="metadata"
          poster={video.poster}
          width={1280}
          height={720}
          onPlay={() => setEnded(false)}
          onEnded={() => {
            setSeconds(END_COUNTDOWN_SECONDS);
            setCounting(true);
            setEnded(true);
          }}
        >
          <source src={video.src} type={video.type} />
          <track kind="captions" src={video.captions} srcLang="en" label="English" default />
          <p>
            Your browser cannot play this video. <a href={video.src}>Download the video</a> or read the description below.
          </p>
        </video>
        {ended ? (
          <section className={css.overlay} aria-labelledby="end-screen-title" data-end-screen="">
            {next ? (
              <>
                <h2 id="end-screen-title" className={css.overlayText}>
                  Up next
                </h2>
                <p className={css.overlayTitle}>{next.title}</p>
                {counting ? (
                  <p className={css.overlayText} role="timer">
                    Playing in {seconds} {seconds === 1 ? "second" : "seconds"}
                  </p>
                ) : null}
                <div className={css.overlayActions}>
                  <Link className={primaryButton} to={next.url} state={{ autoplay: true }}>
                    Play now
                  </Link>
                  <button type="button" className={css.secondaryButton} onClick={replay}>
                    Replay
                  </button>
                  {counting ? (
                    <button type="button" className={css.secondaryButton} onClick={() => setCounting(false)}>
                      Cancel
                    </button>
                  ) : null}
                </div>
              </>
            ) : (
              <>
                <h2 id="end-screen-title" className={css.overlayTitle}>
                  {video.title}
                </h2>
                <button type="button" className={css.secondaryButton} onClick={replay}>
                  Replay
                </button>
              </>
            )}
          </section>
        ) : null}
      </div>
      {hydrated ? <MediaControls media={player} frame={frame} playButton={playButton} title={video.title} layout="video" /> : null}
    </div>
  );
}
