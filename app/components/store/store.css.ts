import { globalStyle, style } from "@vanilla-extract/css";
import { media, vars } from "../../styles/theme.css";

export const card = style({
  display: "grid",
  gap: vars.space.xs,
  alignContent: "start",
  height: "100%",
  padding: vars.space.md,
  border: `1px solid ${vars.color.rule}`,
  fontFamily: vars.font.ui,
  selectors: { "&:focus": { outline: `3px solid ${vars.color.focus}` } },
});

export const facts = style({ margin: 0, fontSize: vars.size.sm, color: vars.color.muted });

export const price = style({ margin: 0, fontWeight: 700, fontSize: vars.size.md });

/** The "Available {date}" label of a coming-soon item: ink on the notice colour (15:1). */
export const comingSoon = style({
  justifySelf: "start",
  margin: 0,
  padding: `${vars.space.xs} ${vars.space.sm}`,
  background: vars.color.notice,
  border: `1px solid ${vars.color.rule}`,
  fontWeight: 700,
  fontSize: vars.size.sm,
});

export const typeLinks = style({
  display: "flex",
  flexWrap: "wrap",
  gap: vars.space.xs,
  listStyle: "none",
  padding: 0,
  margin: `0 0 ${vars.space.md}`,
});

export const typeLink = style({
  display: "inline-block",
  minHeight: "24px",
  padding: `${vars.space.xs} ${vars.space.sm}`,
  border: `1px solid ${vars.color.rule}`,
  fontFamily: vars.font.ui,
  fontSize: vars.size.sm,
  textDecoration: "none",
  selectors: { '&[aria-current="page"]': { background: vars.color.ink, color: vars.color.paper } },
});

export const productLayout = style({
  display: "grid",
  // One column no wider than the screen on a phone (a grid column is otherwise as wide as its widest word or field).
  gridTemplateColumns: "minmax(0, 1fr)",
  gap: vars.space.xl,
  "@media": { [media.desktop]: { gridTemplateColumns: "minmax(0, 2fr) minmax(18rem, 1fr)" } },
});

export const buyBox = style({
  display: "grid",
  gap: vars.space.lg,
  alignContent: "start",
  padding: vars.space.md,
  background: vars.color.wash,
});

export const table = style({ width: "100%", borderCollapse: "collapse", fontFamily: vars.font.ui, fontSize: vars.size.sm });

globalStyle(`${table} th, ${table} td`, { textAlign: "left", padding: vars.space.sm, borderBottom: `1px solid ${vars.color.rule}` });
globalStyle(`${table} caption`, { textAlign: "left", fontWeight: 700, paddingBottom: vars.space.xs });
globalStyle(`${table} a`, { display: "inline-block", minHeight: "24px" });
globalStyle(`${table} a[aria-current="page"]`, { fontWeight: 700, color: vars.color.ink });

export const tableScroll = style({ overflowX: "auto" });

export const details = style({
  display: "grid",
  gridTemplateColumns: "max-content 1fr",
  gap: `${vars.space.xs} ${vars.space.md}`,
  fontFamily: vars.font.ui,
  fontSize: vars.size.sm,
});

globalStyle(`${details} dt`, { fontWeight: 700 });
globalStyle(`${details} dd`, { margin: 0 });
