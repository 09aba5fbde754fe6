import { globalStyle, style } from "@vanilla-extract/css";
import { media, vars } from "~/app/styles/theme.css";

export const form = style({ marginBottom: vars.space.lg });

export const label = style({ display: "block", fontWeight: 700, marginBottom: vars.space.xs });

export const row = style({ display: "flex", gap: vars.space.sm, maxWidth: vars.measure.text });

export const input = style({
  flex: 1,
  minWidth: 0,
  minHeight: vars.control.target,
  padding: `0 ${vars.space.sm}`,
  border: `2px solid ${vars.color.ink}`,
  fontSize: vars.size.md,
});

export const layout = style({
  display: "grid",
  gap: vars.space.lg,
  marginTop: vars.space.lg,
  "@media": { [media.desktop]: { gridTemplateColumns: "16rem minmax(0, 1fr)", gap: vars.space.xl } },
});

// On a phone the results come first; the filters follow them, reached by a link at the top.
export const filters = style({
  display: "grid",
  gap: vars.space.md,
  alignContent: "start",
  fontFamily: vars.font.ui,
  "@media": { [media.narrow]: { order: 2 } },
});

export const toFilters = style({ fontSize: vars.size.sm, "@media": { [media.tablet]: { display: "none" } } });

export const filterGroup = style({ border: 0, borderTop: `1px solid ${vars.color.rule}`, margin: 0, padding: `${vars.space.sm} 0 0` });

export const filterLegend = style({
  fontSize: vars.size.xs,
  fontWeight: 700,
  textTransform: "uppercase",
  letterSpacing: "0.06em",
  padding: 0,
  marginBottom: vars.space.xs,
});

export const option = style({ display: "flex", alignItems: "center", gap: vars.space.sm, padding: "0.2rem 0", fontSize: vars.size.sm });

export const count = style({ color: vars.color.muted, fontVariantNumeric: "tabular-nums", marginLeft: "auto" });

export const years = style({ display: "flex", gap: vars.space.sm, flexWrap: "wrap" });

export const yearField = style({ display: "grid", gap: vars.space.xs, fontSize: vars.size.sm });

export const yearInput = style({
  width: "6.5rem",
  minHeight: "2.25rem",
  padding: `0 ${vars.space.xs}`,
  border: `1px solid ${vars.color.muted}`,
});

export const toolbar = style({
  display: "flex",
  flexWrap: "wrap",
  alignItems: "center",
  justifyContent: "space-between",
  gap: vars.space.sm,
  marginBottom: vars.space.md,
  fontFamily: vars.font.ui,
});

export const sortField = style({ display: "flex", alignItems: "center", gap: vars.space.sm, fontSize: vars.size.sm });

export const subjects = style({
  background: vars.color.wash,
  padding: vars.space.md,
  marginBottom: vars.space.lg,
  fontFamily: vars.font.ui,
});

export const result = style({
  display: "grid",
  gridTemplateColumns: "minmax(0, 1fr)",
  gap: vars.space.md,
  borderBottom: `1px solid ${vars.color.rule}`,
  paddingBottom: vars.space.lg,
  selectors: { "&:focus": { outline: `3px solid ${vars.color.focus}` } },
  "@media": { [media.tablet]: { gridTemplateColumns: "10rem minmax(0, 1fr)" } },
});

export const resultImage = style({
  display: "none",
  width: "100%",
  aspectRatio: "16 / 9",
  objectFit: "cover",
  background: vars.color.wash,
  "@media": { [media.tablet]: { display: "block" } },
});

// A product's cover is a book's or a box's shape: shown whole on the wash, not cropped to 16:9.
globalStyle(`${result}[data-result-kind="product"] ${resultImage}`, { objectFit: "contain" });

export const snippet = style({ fontSize: vars.size.sm, color: vars.color.ink, margin: `0 0 ${vars.space.xs}`, fontFamily: vars.font.body });

/** The other issues an issue's result stands for (same cover story): a line of small links. */
export const otherIssues = style({
  fontSize: vars.size.xs,
  color: vars.color.muted,
  margin: `${vars.space.xs} 0 0`,
  fontFamily: vars.font.ui,
});

globalStyle(`${otherIssues} a`, { color: vars.color.ink });

globalStyle(`${snippet} mark`, { background: vars.color.notice, color: "inherit", fontWeight: 700, padding: "0 0.1em" });

export const filterActions = style({ display: "flex", gap: vars.space.sm, alignItems: "center", flexWrap: "wrap" });

export const note = style({ fontSize: vars.size.sm, color: vars.color.muted, margin: `0 0 ${vars.space.md}`, fontFamily: vars.font.ui });
