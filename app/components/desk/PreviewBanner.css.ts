import { style } from "@vanilla-extract/css";
import { media, vars } from "~/app/styles/theme.css";

// The preview's banner: in the desk's ink, so that nobody takes the page for the published one.

export const banner = style({
  display: "flex",
  flexWrap: "wrap",
  alignItems: "baseline",
  gap: `${vars.space.xs} ${vars.space.lg}`,
  margin: `0 0 ${vars.space.lg}`,
  padding: `${vars.space.sm} ${vars.space.md}`,
  background: vars.color.ink,
  color: vars.color.paper,
  fontFamily: vars.font.ui,
  fontSize: vars.size.sm,
});

export const label = style({ margin: 0, flex: "1 1 100%", "@media": { [media.tablet]: { flex: "0 1 auto" } } });

export const views = style({ display: "flex", flexWrap: "wrap", gap: `0 ${vars.space.md}`, listStyle: "none", margin: 0, padding: 0 });

export const view = style({
  display: "inline-block",
  padding: `${vars.space.xs} 0`,
  color: vars.color.paper,
  ":hover": { color: vars.color.paper },
  ":focus-visible": { outline: `3px solid ${vars.color.focus}`, outlineOffset: 2 },
});

export const current = style([view, { fontWeight: 700, textDecoration: "none", boxShadow: `inset 0 -3px 0 ${vars.color.accent}` }]);
