import { globalStyle, style, styleVariants } from "@vanilla-extract/css";
import { media, vars } from "~/app/styles/theme.css";

// The desk's article pages: a working tool's density, the site's type and colours.

const mono = "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace";

/** The heading's row: the page's title and its main action. */
export const toolbar = style({
  display: "flex",
  flexWrap: "wrap",
  gap: vars.space.sm,
  alignItems: "center",
  justifyContent: "space-between",
  fontFamily: vars.font.ui,
});

export const crumbs = style({ fontFamily: vars.font.ui, fontSize: vars.size.sm, color: vars.color.muted, margin: 0 });

/** The list's filters: two columns under the search on a phone, one row on a laptop. */
export const filters = style({
  display: "grid",
  gap: vars.space.sm,
  gridTemplateColumns: "repeat(2, minmax(0, 1fr))",
  alignItems: "end",
  padding: vars.space.md,
  background: vars.color.wash,
  border: `1px solid ${vars.color.rule}`,
  fontFamily: vars.font.ui,
  "@media": {
    [media.desktop]: { gridTemplateColumns: "minmax(0, 2fr) repeat(4, minmax(0, 1fr)) auto" },
  },
});

/** The search box and the buttons take a whole row of the phone's two columns. */
export const filterWide = style({ gridColumn: "1 / -1", "@media": { [media.desktop]: { gridColumn: "auto" } } });

export const filterActions = style([
  filterWide,
  { display: "flex", gap: vars.space.md, alignItems: "center", minHeight: vars.control.target },
]);

export const count = style({ fontFamily: vars.font.ui, fontSize: vars.size.sm, color: vars.color.muted, margin: 0 });

export const titleLink = style({ fontFamily: vars.font.body, fontSize: vars.size.md, fontWeight: 700 });

export const sub = style({ display: "block", color: vars.color.muted, fontSize: vars.size.xs, marginTop: vars.space.xs });

export const nowrap = style({ whiteSpace: "nowrap" });

/** The edit page: the form, and beside it on a laptop the article's state and its actions. */
export const layout = style({
  display: "grid",
  gap: vars.space.xl,
  gridTemplateColumns: "minmax(0, 1fr)",
  alignItems: "start",
  "@media": { [media.desktop]: { gridTemplateColumns: "minmax(0, 1fr) 20rem" } },
});

export const side = style({
  display: "grid",
  gap: vars.space.md,
  fontFamily: vars.font.ui,
  fontSize: vars.size.sm,
  "@media": { [media.desktop]: { order: 2, position: "sticky", top: vars.space.md } },
});

export const panel = style({
  border: `1px solid ${vars.color.rule}`,
  borderTop: `3px solid ${vars.color.ink}`,
  padding: vars.space.md,
  background: vars.color.paper,
  display: "grid",
  gap: vars.space.sm,
});

globalStyle(`${panel} h2`, {
  fontFamily: vars.font.ui,
  fontSize: vars.size.sm,
  textTransform: "uppercase",
  letterSpacing: "0.06em",
  margin: 0,
});
globalStyle(`${panel} p`, { margin: 0 });

export const facts = style({
  display: "grid",
  gridTemplateColumns: "auto minmax(0, 1fr)",
  gap: `${vars.space.xs} ${vars.space.md}`,
  margin: 0,
});
globalStyle(`${facts} dt`, { color: vars.color.muted });
globalStyle(`${facts} dd`, { margin: 0, overflowWrap: "anywhere" });

export const stateForm = style({
  display: "grid",
  gap: vars.space.sm,
  borderTop: `1px solid ${vars.color.rule}`,
  paddingTop: vars.space.sm,
});

export const wide = style({ width: "100%" });

/** The article's form: wide fields for text, a grid for the filing details. */
export const form = style({ display: "grid", gap: vars.space.lg, minWidth: 0 });

export const section = style({
  border: 0,
  borderTop: `1px solid ${vars.color.rule}`,
  padding: `${vars.space.md} 0 0`,
  margin: 0,
  display: "grid",
  gap: vars.space.md,
  minWidth: 0,
});

globalStyle(`${section} > legend`, {
  fontFamily: vars.font.ui,
  fontSize: vars.size.sm,
  fontWeight: 700,
  textTransform: "uppercase",
  letterSpacing: "0.06em",
  color: vars.color.muted,
  padding: `0 ${vars.space.sm} 0 0`,
});

/** Fields side by side; their controls line up whatever the length of the hints above them. */
export const grid = style({
  display: "grid",
  gap: vars.space.md,
  alignItems: "end",
  gridTemplateColumns: "minmax(0, 1fr)",
  "@media": { [media.tablet]: { gridTemplateColumns: "repeat(2, minmax(0, 1fr))" } },
});

export const gridThree = style({
  display: "grid",
  gap: vars.space.md,
  alignItems: "end",
  gridTemplateColumns: "minmax(0, 1fr)",
  "@media": { [media.tablet]: { gridTemplateColumns: "minmax(0, 1fr) minmax(0, 2fr) 6rem" } },
});

export const headline = style({ fontFamily: vars.font.body, fontSize: vars.size.xl, fontWeight: 700, minHeight: "3.25rem" });

export const textarea = style({ paddingTop: vars.space.sm, paddingBottom: vars.space.sm, lineHeight: 1.45, resize: "vertical" });

export const bodyText = style({ fontFamily: mono, fontSize: vars.size.sm, lineHeight: 1.55, minHeight: "28rem" });

/** The body and, with JS, its preview: side by side where the column has room for both, else one below the other. */
export const bodyRow = style({ display: "flex", flexWrap: "wrap", gap: vars.space.lg, alignItems: "flex-start" });
globalStyle(`${bodyRow} > *`, { flex: "1 1 22rem", minWidth: 0 });

/** A place the form's enhancements fill once loaded (ADR 085); without JS it stays empty and takes no room. */
export const slot = style({ position: "relative", selectors: { "&:empty": { display: "none" } } });

export const streams = style({
  display: "grid",
  gap: vars.space.sm,
  gridTemplateColumns: "repeat(auto-fill, minmax(13rem, 1fr))",
  border: 0,
  padding: 0,
  margin: 0,
});

export const streamsHint = style({ gridColumn: "1 / -1", margin: 0 });

globalStyle(`${streams} > legend`, { fontFamily: vars.font.ui, fontWeight: 700, padding: 0, marginBottom: vars.space.sm });

export const markdownNote = style({ fontFamily: vars.font.ui, fontSize: vars.size.sm, color: vars.color.muted, margin: 0 });
globalStyle(`${markdownNote} code`, { fontFamily: mono, background: vars.color.wash, padding: "0 0.2em" });

/** Stays at the foot of the window while the editor is in the form, so Save is always at hand. */
export const saveBar = style({
  position: "sticky",
  bottom: 0,
  zIndex: 1,
  background: vars.color.paper,
  display: "flex",
  flexWrap: "wrap",
  gap: vars.space.md,
  alignItems: "center",
  padding: `${vars.space.md} 0`,
  borderTop: `2px solid ${vars.color.ink}`,
  fontFamily: vars.font.ui,
  fontSize: vars.size.sm,
});

/** The conflict: the other editor's changes, read-only, above the editor's own form. */
export const conflict = style({
  border: `4px solid ${vars.color.error}`,
  padding: vars.space.md,
  display: "grid",
  gap: vars.space.md,
  fontFamily: vars.font.ui,
  background: vars.color.paper,
  ":focus": { outline: `3px solid ${vars.color.focus}` },
});

globalStyle(`${conflict} h2`, { margin: 0, fontSize: vars.size.lg });
globalStyle(`${conflict} p`, { margin: 0 });

/** A field's line diff: each line marked with a sign and hidden words, not by colour alone. */
export const diffField = style({ display: "grid", gap: vars.space.xs, minWidth: 0 });
globalStyle(`${diffField} h2, ${diffField} h3`, { fontFamily: vars.font.ui, fontSize: vars.size.md, margin: 0 });

export const diff = style({
  margin: 0,
  padding: 0,
  listStyle: "none",
  border: `1px solid ${vars.color.rule}`,
  fontFamily: mono,
  fontSize: vars.size.xs,
  lineHeight: 1.6,
  maxHeight: "32rem",
  overflow: "auto",
});

const lineBase = style({
  display: "grid",
  gridTemplateColumns: "1.5rem minmax(0, 1fr)",
  whiteSpace: "pre-wrap",
  overflowWrap: "anywhere",
  padding: `0 ${vars.space.sm} 0 0`,
});

export const line = styleVariants({
  same: [lineBase, { color: vars.color.muted }],
  added: [lineBase, { background: "#e6f4ea", color: vars.color.ink }],
  removed: [lineBase, { background: "#fbeeed", color: vars.color.ink }],
});

export const sign = style({ textAlign: "center", fontWeight: 700, userSelect: "none" });

globalStyle(`${diff} ins, ${diff} del`, { textDecoration: "none" });
globalStyle(`${diff} del`, { textDecoration: "line-through", textDecorationColor: "rgba(179, 38, 30, 0.5)" });

export const legend = style({
  display: "flex",
  flexWrap: "wrap",
  gap: vars.space.md,
  fontFamily: vars.font.ui,
  fontSize: vars.size.sm,
  margin: 0,
});

export const unchanged = style({ fontFamily: vars.font.ui, fontSize: vars.size.sm, color: vars.color.muted, margin: 0 });
