import { globalStyle, style } from "@vanilla-extract/css";
import { media, vars } from "~/app/styles/theme.css";

// On a phone the cover sits small above the text, which keeps the width for its title.
export const header = style({
  display: "grid",
  gap: vars.space.md,
  alignItems: "start",
  marginBottom: vars.space.lg,
  "@media": { [media.tablet]: { gridTemplateColumns: "minmax(0, 12rem) minmax(0, 1fr)" } },
});

export const cover = style({
  display: "block",
  width: "8rem",
  height: "auto",
  borderRadius: vars.radius.sm,
  "@media": { [media.tablet]: { width: "100%" } },
});

export const hosts = style({ fontFamily: vars.font.ui, fontSize: vars.size.sm, color: vars.color.muted });

export const episodes = style({ listStyle: "none", padding: 0, margin: 0, display: "grid", gap: vars.space.lg });

export const episode = style({
  borderBottom: `1px solid ${vars.color.rule}`,
  paddingBottom: vars.space.lg,
  selectors: { "&:focus": { outline: `3px solid ${vars.color.focus}`, outlineOffset: "4px" } },
});

export const episodeTitle = style({ fontSize: vars.size.lg, margin: `0 0 ${vars.space.xs}` });

export const episodeMeta = style({
  fontFamily: vars.font.ui,
  fontSize: vars.size.sm,
  color: vars.color.muted,
  margin: `0 0 ${vars.space.sm}`,
});

// Spec 9: an episode's description folds after four lines (only once the Read More button exists).
export const clamped = style({ display: "-webkit-box", WebkitLineClamp: 4, WebkitBoxOrient: "vertical", overflow: "hidden" });

export const readMore = style({
  font: "inherit",
  fontFamily: vars.font.ui,
  fontSize: vars.size.sm,
  background: "none",
  border: 0,
  padding: 0,
  color: vars.color.link,
  textDecoration: "underline",
  cursor: "pointer",
});

/** The browser's own player, before scripts run (or without them); ours hides it. */
export const player = style({ selectors: { "&[controls]": { display: "block", width: "100%" } } });

globalStyle(`${episode} p`, { maxWidth: vars.measure.text });
