import { useEffect, useId, useState, type CSSProperties, type RefObject } from "react";
import { clock, spokenClock } from "./clock";
import * as css from "./media-controls.css";

const SPEEDS = [0.75, 1, 1.25, 1.5, 2];
const SKIP_SECONDS = 15;

interface MediaState {
  playing: boolean;
  time: number;
  duration: number;
  muted: boolean;
  volume: number;
  rate: number;
  /** Null when the recording has no captions track. */
  captions: boolean | null;
}

interface Props {
  media: RefObject<HTMLMediaElement>;
  /** What is playing: the name of the controls' group, for a page with several players. */
  title: string;
  /** The length as the catalogue gives it, shown until the file's own is known. */
  knownDuration?: number;
  /** A video's frame, which goes full screen with these controls in it. */
  frame?: RefObject<HTMLElement>;
  /** Where focus goes on a replay. */
  playButton?: RefObject<HTMLButtonElement>;
  layout: "audio" | "video";
}

function captionsTrack(el: HTMLMediaElement): TextTrack | undefined {
  return Array.from(el.textTracks).find((track) => track.kind === "captions" || track.kind === "subtitles");
}

function readState(el: HTMLMediaElement, knownDuration: number): MediaState {
  const track = captionsTrack(el);
  return {
    playing: !el.paused && !el.ended,
    time: el.currentTime,
    duration: Number.isFinite(el.duration) && el.duration > 0 ? el.duration : knownDuration,
    muted: el.muted || el.volume === 0,
    volume: el.volume,
    rate: el.playbackRate,
    captions: track ? track.mode === "showing" : null,
  };
}

/** Plays a paused or ended recording, pauses a playing one. A refused play() leaves it paused. */
function playOrPause(el: HTMLMediaElement): void {
  if (el.paused || el.ended) el.play().catch(() => undefined);
  else el.pause();
}

const MEDIA_EVENTS = [
  "play",
  "pause",
  "ended",
  "timeupdate",
  "durationchange",
  "loadedmetadata",
  "volumechange",
  "ratechange",
  "seeked",
  "emptied",
];

// The fill of a range's track up to its thumb, as a custom property the style sheet reads.
const fillProperty = css.fill.slice("var(".length, -1);

/**
 * Our own controls for a native <audio> or <video>, which renders with the browser's controls
 * until React runs and then hands them to these: buttons, ranges and a drop-down, each a native
 * element that a keyboard and a screen reader already know how to use.
 */
export function MediaControls({ media, title, knownDuration = 0, frame, playButton, layout }: Props) {
  const [state, setState] = useState<MediaState>({
    playing: false,
    time: 0,
    duration: knownDuration,
    muted: false,
    volume: 1,
    rate: 1,
    captions: null,
  });
  const [fullscreen, setFullscreen] = useState<{ can: boolean; on: boolean }>({ can: false, on: false });
  const speedId = useId();

  useEffect(() => {
    const el = media.current;
    if (!el) return;
    const update = () => setState(readState(el, knownDuration));
    for (const event of MEDIA_EVENTS) el.addEventListener(event, update);
    el.textTracks.addEventListener("change", update);
    update();
    // A click on the picture plays and pauses, as on every video site; keyboards have the button.
    const toggle = () => playOrPause(el);
    const video = el instanceof HTMLVideoElement ? el : null;
    video?.addEventListener("click", toggle);
    return () => {
      for (const event of MEDIA_EVENTS) el.removeEventListener(event, update);
      el.textTracks.removeEventListener("change", update);
      video?.removeEventListener("click", toggle);
    };
  }, [media, knownDuration]);

  useEffect(() => {
    if (!frame) return;
    const update = () => setFullscreen({ can: document.fullscreenEnabled, on: document.fullscreenElement === frame.current });
    document.addEventListener("fullscreenchange", update);
    update();
    return () => document.removeEventListener("fullscreenchange", update);
  }, [frame]);

  const el = () => media.current;
  const play = () => {
    const m = el();
    if (m) playOrPause(m);
  };
  const seek = (seconds: number) => {
    const m = el();
    if (m) m.currentTime = Math.max(0, Math.min(seconds, state.duration || seconds));
  };
  const toggleCaptions = () => {
    const track = el() && captionsTrack(el()!);
    if (track) track.mode = track.mode === "showing" ? "hidden" : "showing";
  };
  const toggleFullscreen = () => {
    if (document.fullscreenElement) document.exitFullscreen().catch(() => undefined);
    else frame?.current?.requestFullscreen().catch(() => undefined);
  };

  // A video's bar keeps one row on a phone, with fewer controls in it.
  const optional = layout === "video" ? css.wide : "";
  const shown = Math.min(state.time, state.duration || state.time);
  const filled = (value: number, max: number): CSSProperties =>
    ({ [fillProperty]: `${max > 0 ? (value / max) * 100 : 0}%` }) as CSSProperties;

  return (
    <div role="group" aria-label={`Player: ${title}`} className={`${css.bar} ${css.layout[layout]}`} data-media-controls="">
      <button ref={playButton} type="button" className={css.button} onClick={play} aria-label={state.playing ? "Pause" : "Play"}>
        {state.playing ? <Icon path="M7 5h4v14H7zM14 5h4v14h-4z" /> : <Icon path="M8 5.5v13l10.5-6.5z" />}
      </button>
      <button
        type="button"
        className={`${css.button} ${optional}`}
        onClick={() => seek(shown - SKIP_SECONDS)}
        aria-label={`Back ${SKIP_SECONDS} seconds`}
      >
        <SkipIcon back />
      </button>
      <button
        type="button"
        className={`${css.button} ${optional}`}
        onClick={() => seek(shown + SKIP_SECONDS)}
        aria-label={`Forward ${SKIP_SECONDS} seconds`}
      >
        <SkipIcon />
      </button>
      <span className={css.time}>
        {clock(shown)}
        <span className={css.total}> / {clock(state.duration)}</span>
      </span>
      <input
        type="range"
        className={`${css.range} ${layout === "audio" ? css.seekRow : ""}`}
        min={0}
        max={Math.max(Math.floor(state.duration), 0)}
        step={1}
        value={Math.floor(shown)}
        disabled={state.duration <= 0}
        onChange={(event) => seek(Number(event.currentTarget.value))}
        aria-label="Position"
        aria-valuetext={`${spokenClock(shown)} of ${spokenClock(state.duration)}`}
        style={filled(shown, state.duration)}
      />
      <button
        type="button"
        className={`${css.button} ${css.wide}`}
        onClick={() => {
          const m = el();
          if (!m) return;
          m.muted = !state.muted;
          if (!m.muted && m.volume === 0) m.volume = 1;
        }}
        aria-label="Mute"
        aria-pressed={state.muted}
      >
        {state.muted ? (
          <Icon path="M4 9.5v5h3.5l4.5 4v-13l-4.5 4zM15 9l6 6M21 9l-6 6" stroke />
        ) : (
          <Icon path="M4 9.5v5h3.5l4.5 4v-13l-4.5 4zM15.5 9a4 4 0 0 1 0 6M18 6.5a7.5 7.5 0 0 1 0 11" stroke />
        )}
      </button>
      <input
        type="range"
        className={`${css.range} ${css.volume} ${css.wide}`}
        min={0}
        max={1}
        step={0.05}
        value={state.muted ? 0 : state.volume}
        onChange={(event) => {
          const m = el();
          if (!m) return;
          m.volume = Number(event.currentTarget.value);
          m.muted = m.volume === 0;
        }}
        aria-label="Volume"
        aria-valuetext={`${Math.round((state.muted ? 0 : state.volume) * 100)} %`}
        style={filled(state.muted ? 0 : state.volume, 1)}
      />
      <label htmlFor={speedId} className="visually-hidden">
        Speed
      </label>
      <select
        id={speedId}
        className={`${css.speed} ${optional}`}
        value={String(state.rate)}
        onChange={(event) => {
          const m = el();
          if (m) m.playbackRate = Number(event.currentTarget.value);
        }}
      >
        {SPEEDS.map((speed) => (
          <option key={speed} value={String(speed)}>
            {speed}×
          </option>
        ))}
      </select>
      {state.captions !== null ? (
        <button type="button" className={css.button} onClick={toggleCaptions} aria-label="Captions" aria-pressed={state.captions}>
          <Icon path="M3.5 6.5h17v11h-17zM10.5 10.5a2 2 0 1 0 0 3M16.5 10.5a2 2 0 1 0 0 3" stroke />
        </button>
      ) : null}
      {fullscreen.can ? (
        <button
          type="button"
          className={css.button}
          onClick={toggleFullscreen}
          aria-label={fullscreen.on ? "Exit full screen" : "Full screen"}
        >
          {fullscreen.on ? (
            <Icon path="M9 4v5H4M15 4v5h5M9 20v-5H4M15 20v-5h5" stroke />
          ) : (
            <Icon path="M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5" stroke />
          )}
        </button>
      ) : null}
    </div>
  );
}

function Icon({ path, stroke = false }: { path: string; stroke?: boolean }) {
  return (
    <svg className={css.icon} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        d={path}
        {...(stroke ? { fill: "none", stroke: "currentColor", strokeWidth: 2, strokeLinecap: "round" } : { fill: "currentColor" })}
      />
    </svg>
  );
}

function SkipIcon({ back = false }: { back?: boolean }) {
  return (
    <svg className={css.icon} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <g transform={back ? undefined : "matrix(-1 0 0 1 24 0)"}>
        <path d="M5.5 8.5A8 8 0 1 1 4 13" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" />
        <path d="M4 4.5v5h5" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" />
      </g>
      <text x="12.5" y="16" textAnchor="middle" fontSize="7.5" fontWeight="700" fill="currentColor" fontFamily="system-ui, sans-serif">
        {SKIP_SECONDS}
      </text>
    </svg>
  );
}
