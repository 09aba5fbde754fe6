import { style } from "@vanilla-extract/css";
import { vars } from "~/app/styles/theme.css";

// The desk's bar: ink, so that no one mistakes the desk for the site readers see.

export const bar = style({ background: vars.color.ink, color: vars.color.paper, fontFamily: vars.font.ui, fontSize: vars.size.sm });

export const inner = style({
  display: "flex",
  flexWrap: "wrap",
  alignItems: "center",
  gap: `${vars.space.xs} ${vars.space.lg}`,
  maxWidth: vars.measure.page,
  margin: "0 auto",
  padding: `${vars.space.sm} ${vars.space.md}`,
});

export const name = style({
  color: vars.color.paper,
  fontFamily: vars.font.body,
  fontSize: vars.size.lg,
  fontWeight: 700,
  textDecoration: "none",
  whiteSpace: "nowrap",
  // The site's links turn accent red on hover, which would not read on ink.
  ":hover": { color: vars.color.paper },
  ":focus-visible": { outline: `3px solid ${vars.color.focus}`, outlineOffset: 2 },
});

export const desk = style({
  marginLeft: vars.space.xs,
  padding: `0 ${vars.space.xs}`,
  background: vars.color.accent,
  color: vars.color.accentInk,
  fontFamily: vars.font.ui,
  fontSize: vars.size.xs,
  letterSpacing: "0.08em",
  textTransform: "uppercase",
  verticalAlign: "middle",
});

/** The areas on a row of their own under the name and who is at the desk, at every width. */
export const nav = style({
  flex: "1 1 100%",
  order: 3,
  borderTop: "1px solid rgba(255, 255, 255, 0.2)",
  paddingTop: vars.space.xs,
});

// 14 px type, 10 px apart: an admin's 17 areas, the most any role has, fit one row at 1280 px.
export const navList = style({
  display: "flex",
  flexWrap: "wrap",
  gap: "0 0.625rem",
  fontSize: "0.875rem",
  listStyle: "none",
  margin: 0,
  padding: 0,
});

export const navLink = style({
  display: "inline-block",
  padding: `${vars.space.xs} 0`,
  color: vars.color.paper,
  textDecoration: "none",
  ":hover": { color: vars.color.paper, textDecoration: "underline" },
  ":focus-visible": { outline: `3px solid ${vars.color.focus}`, outlineOffset: 2 },
});

export const current = style([navLink, { fontWeight: 700, boxShadow: `inset 0 -3px 0 ${vars.color.accent}` }]);

export const who = style({ display: "flex", flexWrap: "wrap", alignItems: "center", gap: `0 ${vars.space.md}`, marginLeft: "auto" });

export const leave = style({
  font: "inherit",
  color: vars.color.paper,
  background: "transparent",
  border: `1px solid ${vars.color.paper}`,
  borderRadius: vars.radius.sm,
  padding: `${vars.space.xs} ${vars.space.sm}`,
  cursor: "pointer",
  ":hover": { background: vars.color.paper, color: vars.color.ink },
  ":focus-visible": { outline: `3px solid ${vars.color.focus}`, outlineOffset: 2 },
});

export const main = style({
  maxWidth: vars.measure.page,
  margin: "0 auto",
  padding: `${vars.space.lg} ${vars.space.md} ${vars.space.xl}`,
  outline: "none",
});
