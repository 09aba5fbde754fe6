import { createVar, style, styleVariants } from "@vanilla-extract/css";
import { media, vars } from "~/app/styles/theme.css";

/** How far a range's track is filled: the position played, the volume. */
export const fill = createVar();
const ink = createVar();
const track = createVar();

const row = `calc(${vars.control.target} + 2 * ${vars.space.xs})`;

export const bar = style({
  display: "flex",
  alignItems: "center",
  gap: vars.space.xs,
  minHeight: row,
  padding: `${vars.space.xs} ${vars.space.sm}`,
  boxSizing: "border-box",
  "@media": { [media.smallPhone]: { paddingInline: vars.space.xs } },
  fontFamily: vars.font.ui,
  fontSize: vars.size.sm,
  color: ink,
});

/**
 * An episode's bar, light, which on a phone takes two rows: the position across the top and the
 * buttons under it, as a podcast app's does. A video's, dark, keeps one row.
 */
export const layout = styleVariants({
  audio: {
    vars: { [ink]: vars.color.ink, [track]: vars.color.rule },
    background: vars.color.wash,
    borderRadius: vars.radius.md,
    "@media": { [media.narrow]: { flexWrap: "wrap", rowGap: 0 } },
  },
  video: {
    vars: { [ink]: vars.color.paper, [track]: "rgba(255, 255, 255, 0.4)" },
    background: "#111",
    position: "absolute",
    insetInline: 0,
    bottom: 0,
  },
});

/** Controls a narrow one-row bar leaves out: the range seeks, the phone's keys set the volume. */
export const wide = style({ "@media": { [media.narrow]: { display: "none" } } });

/** The position on a phone's two-row bar: a row of its own. */
export const seekRow = style({ "@media": { [media.narrow]: { order: -1, flexBasis: "100%" } } });

const focusRing = { outline: `3px solid ${vars.color.focus}`, outlineOffset: "1px" };

export const button = style({
  flex: "none",
  display: "inline-grid",
  placeItems: "center",
  width: vars.control.target,
  height: vars.control.target,
  padding: 0,
  border: 0,
  borderRadius: "50%",
  background: "transparent",
  color: "inherit",
  cursor: "pointer",
  selectors: {
    "&:hover": { background: "rgba(127, 127, 127, 0.2)" },
    "&:focus-visible": focusRing,
    '&[aria-pressed="true"]': { background: "rgba(127, 127, 127, 0.3)" },
  },
});

export const icon = style({ width: "1.5rem", height: "1.5rem" });

export const time = style({
  flex: "none",
  marginRight: "auto",
  padding: "0 2px",
  fontVariantNumeric: "tabular-nums",
  whiteSpace: "nowrap",
});

/** The length beside the position; the smallest phones leave it to the range. */
export const total = style({ opacity: 0.8, "@media": { [media.smallPhone]: { display: "none" } } });

const thumb = {
  width: "0.875rem",
  height: "0.875rem",
  borderRadius: "50%",
  border: 0,
  background: ink,
};

// A native range without the platform's chrome: a thin track, filled up to the thumb. Forced
// colours get the platform's own range back.
export const range = style({
  flex: "1 1 6rem",
  minWidth: "3rem",
  height: vars.control.target,
  margin: 0,
  background: "transparent",
  appearance: "none",
  color: "inherit",
  cursor: "pointer",
  selectors: {
    "&:focus-visible": focusRing,
    "&:disabled": { cursor: "default", opacity: 0.5 },
    "&::-webkit-slider-runnable-track": {
      height: "0.25rem",
      borderRadius: "0.125rem",
      background: `linear-gradient(to right, ${ink} ${fill}, ${track} ${fill})`,
    },
    "&::-moz-range-track": { height: "0.25rem", borderRadius: "0.125rem", background: track },
    "&::-moz-range-progress": { height: "0.25rem", borderRadius: "0.125rem", background: ink },
    "&::-webkit-slider-thumb": { ...thumb, appearance: "none", marginTop: "-0.3125rem" },
    "&::-moz-range-thumb": thumb,
  },
  "@media": { "(forced-colors: active)": { appearance: "auto" } },
});

export const volume = style({ flex: "0 1 5rem" });

export const speed = style({
  flex: "none",
  minHeight: vars.control.target,
  border: `1px solid ${track}`,
  backgroundColor: "transparent",
  color: "inherit",
  // Narrower than the site's other drop-downs; doubled to outweigh their global rule.
  selectors: {
    "&&": { padding: `0 1.6em 0 ${vars.space.sm}`, backgroundPosition: "right 0.95em center, right 0.6em center" },
    "&:focus-visible": focusRing,
  },
});

/**
 * The room a player keeps for its bar from the first paint when scripts run, so that nothing
 * below moves when the bar takes over from the browser's own controls. Without scripts the
 * browser's controls stay, and no room is kept.
 */
export const audioPlayer = style({
  maxWidth: vars.measure.text,
  margin: `${vars.space.sm} 0`,
  "@media": {
    "(scripting: enabled)": { minHeight: row },
    [`${media.narrow} and (scripting: enabled)`]: { minHeight: `calc(2 * ${vars.control.target} + 2 * ${vars.space.xs})` },
  },
});

export const videoPlayer = style({
  position: "relative",
  "@media": { "(scripting: enabled)": { paddingBottom: row } },
  selectors: { "&:fullscreen": { background: "#000" } },
});
