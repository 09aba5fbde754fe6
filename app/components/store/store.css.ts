import { globalStyle, style } from "@vanilla-extract/css";
import { media, vars } from "~/app/styles/theme.css";

export const card = style({
  display: "grid",
  gap: vars.space.xs,
  alignContent: "start",
  height: "100%",
  fontFamily: vars.font.ui,
  selectors: { "&:focus": { outline: `3px solid ${vars.color.focus}` } },
});

/** The store's listing: covers in a grid, two across on a phone and four on a desktop (a page holds 8). */
export const grid = style({
  listStyle: "none",
  padding: 0,
  margin: 0,
  display: "grid",
  gap: `${vars.space.lg} ${vars.space.md}`,
  gridTemplateColumns: "repeat(2, minmax(0, 1fr))",
  "@media": { [media.desktop]: { gridTemplateColumns: "repeat(4, minmax(0, 1fr))" } },
});

export const coverLink = style({ display: "block" });

/** Two covers across a phone leave a title half the width of a card's. */
export const title = style({ "@media": { [media.narrow]: { fontSize: vars.size.md } } });

export const cover = style({
  display: "block",
  width: "100%",
  height: "auto",
  aspectRatio: "3 / 4",
  background: vars.color.wash,
  boxShadow: "0 1px 3px rgba(0, 0, 0, 0.25)",
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

export const typeLinks = style({ marginBottom: vars.space.md });

/**
 * The product page: its heading, then the cover with the buy box, then the details, in reading
 * order; on a desktop the cover and buy box take a column of their own beside the other two.
 */
export const productLayout = style({
  display: "grid",
  // One column no wider than the screen on a phone (a grid column is otherwise as wide as its widest word or field).
  gridTemplateColumns: "minmax(0, 1fr)",
  gap: vars.space.xl,
  alignItems: "start",
  "@media": { [media.desktop]: { gridTemplateColumns: "minmax(0, 2fr) minmax(18rem, 1fr)", gridTemplateRows: "auto 1fr", rowGap: 0 } },
});

export const productHeader = style({ "@media": { [media.desktop]: { gridColumn: 1, gridRow: 1 } } });

export const productDetails = style({ "@media": { [media.desktop]: { gridColumn: 1, gridRow: 2 } } });

/**
 * The cover with the buy box: side by side on a tablet, the cover above the box in the desktop's
 * side column, and a smaller cover above it on a phone.
 */
export const purchase = style({
  display: "grid",
  gap: vars.space.lg,
  alignContent: "start",
  gridTemplateColumns: "minmax(0, 1fr)",
  "@media": {
    [media.tablet]: { gridTemplateColumns: "minmax(0, 14rem) minmax(0, 1fr)" },
    [media.desktop]: { gridTemplateColumns: "minmax(0, 1fr)", gridColumn: 2, gridRow: "1 / span 2" },
  },
});

export const productCover = style({
  display: "block",
  width: "100%",
  maxWidth: "14rem",
  height: "auto",
  aspectRatio: "3 / 4",
  boxShadow: "0 2px 8px rgba(0, 0, 0, 0.3)",
  "@media": { [media.narrow]: { maxWidth: "10rem" }, [media.desktop]: { justifySelf: "center" } },
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
globalStyle(`${table} tr[aria-current="true"] > *`, { fontWeight: 700, background: vars.color.wash });

/** The formats as a choice above the price: each its own page, so it works as a plain link. */
export const formatChoice = style({ fontFamily: vars.font.ui });
globalStyle(`${formatChoice} ul`, {
  display: "grid",
  gridTemplateColumns: "repeat(auto-fill, minmax(7.5rem, 1fr))",
  gap: vars.space.sm,
  listStyle: "none",
  margin: 0,
  padding: 0,
});

export const formatOption = style({
  display: "grid",
  gap: vars.space.xs,
  minHeight: "100%",
  padding: `${vars.space.sm} ${vars.space.md}`,
  border: `1px solid ${vars.color.rule}`,
  borderRadius: "4px",
  background: vars.color.paper,
  color: vars.color.ink,
  fontSize: vars.size.sm,
  textDecoration: "none",
  ":hover": { borderColor: vars.color.ink },
  selectors: { '&[aria-current="page"]': { borderColor: vars.color.accent, boxShadow: `inset 0 0 0 1px ${vars.color.accent}` } },
});

export const formatName = style({ fontWeight: 700 });

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

/** A book's chapters or an issue's articles, as a contents page lists them. */
export const contents = style({
  margin: `0 0 ${vars.space.lg}`,
  padding: 0,
  // Chapter titles carry their own numbers.
  listStyle: "none",
});

globalStyle(`${contents} li`, { padding: `${vars.space.xs} 0`, borderBottom: `1px solid ${vars.color.rule}` });
globalStyle(`${contents} a`, { display: "inline-block", minHeight: "24px" });

/** The listing's heading with its count beside it (under it when there is no room), under a rule as a section's heading is. */
export const resultsBar = style({
  display: "flex",
  flexWrap: "wrap",
  alignItems: "baseline",
  justifyContent: "space-between",
  gap: `0 ${vars.space.md}`,
  margin: `0 0 ${vars.space.md}`,
  paddingTop: vars.space.sm,
  borderTop: `3px solid ${vars.color.ink}`,
});

export const resultsHeading = style({
  margin: 0,
  fontFamily: vars.font.ui,
  fontSize: vars.size.sm,
  textTransform: "uppercase",
  letterSpacing: "0.08em",
});

export const count = style({ margin: 0, color: vars.color.muted, fontFamily: vars.font.ui, fontSize: vars.size.sm });

export const empty = style({ padding: vars.space.lg, border: `1px solid ${vars.color.rule}`, fontFamily: vars.font.ui });

globalStyle(`${empty} p`, { margin: 0 });
globalStyle(`${empty} p + p`, { marginTop: vars.space.sm });

export const clear = style({ marginTop: vars.space.lg, fontFamily: vars.font.ui, fontSize: vars.size.sm });
