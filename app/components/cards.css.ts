import { style } from "@vanilla-extract/css";
import { media, vars } from "~/app/styles/theme.css";

export const list = style({ listStyle: "none", padding: 0, margin: 0, display: "grid", gap: vars.space.lg });

export const grid = style([
  list,
  { "@media": { [media.tablet]: { gridTemplateColumns: "repeat(2, 1fr)" }, [media.desktop]: { gridTemplateColumns: "repeat(3, 1fr)" } } },
]);

export const card = style({
  display: "grid",
  gridTemplateColumns: "7rem 1fr",
  gap: vars.space.md,
  alignItems: "start",
  borderBottom: `1px solid ${vars.color.rule}`,
  paddingBottom: vars.space.lg,
  selectors: { "&:focus": { outline: `3px solid ${vars.color.focus}` } },
  "@media": { [media.tablet]: { gridTemplateColumns: "12rem 1fr" } },
});

export const stackedCard = style({ display: "grid", gap: vars.space.sm, alignContent: "start" });

export const cardImage = style({ width: "100%", aspectRatio: "16 / 9", objectFit: "cover", background: vars.color.wash });

export const eyebrow = style({
  fontSize: vars.size.xs,
  textTransform: "uppercase",
  letterSpacing: "0.06em",
  fontWeight: 700,
  margin: `0 0 ${vars.space.xs}`,
  color: vars.color.accent,
});

export const eyebrowLink = style({ color: vars.color.accent, textDecoration: "none" });

export const cardTitle = style({ fontSize: vars.size.lg, margin: `0 0 ${vars.space.xs}` });

export const cardTitleLink = style({
  color: vars.color.ink,
  textDecoration: "none",
  selectors: { "&:hover": { textDecoration: "underline" } },
});

export const summary = style({
  fontSize: vars.size.sm,
  color: vars.color.muted,
  margin: `0 0 ${vars.space.xs}`,
  fontFamily: vars.font.body,
});

/** A card's summary: at most three lines, ended with an ellipsis. */
export const cardSummary = style([
  summary,
  { display: "-webkit-box", WebkitBoxOrient: "vertical", WebkitLineClamp: 3, overflow: "hidden" },
]);

/** A story in a compact list: no picture, no summary, a rule between stories. */
export const headlineCard = style({
  borderBottom: `1px solid ${vars.color.rule}`,
  paddingBottom: vars.space.md,
});

export const byline = style({ fontSize: vars.size.xs, color: vars.color.muted, margin: 0 });
