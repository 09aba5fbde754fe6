import { globalStyle, style } from "@vanilla-extract/css";
import { media, vars } from "~/app/styles/theme.css";

/** The desk's pages: the site's look, with a band that says where the reader is. */
export const page = style({ display: "grid", gridTemplateColumns: "minmax(0, 1fr)", gap: vars.space.lg, maxWidth: vars.measure.page });

// The page's gap spaces its sections; a section's own margin (prose.section) would double it.
globalStyle(`${page} > section`, { marginTop: 0 });

export const band = style({
  display: "flex",
  flexWrap: "wrap",
  gap: vars.space.sm,
  alignItems: "baseline",
  justifyContent: "space-between",
  borderTop: `3px solid ${vars.color.accent}`,
  paddingTop: vars.space.sm,
  fontFamily: vars.font.ui,
  fontSize: vars.size.sm,
  color: vars.color.muted,
});

export const crumb = style({ fontWeight: 700, textTransform: "uppercase", letterSpacing: "0.08em" });

/** A desk page's name: a size smaller on a phone, where an order number or a long title would otherwise break inside a word. */
export const heading = style({ margin: 0, fontSize: vars.size.xl, "@media": { [media.tablet]: { fontSize: vars.size.xxl } } });

export const muted = style({ color: vars.color.muted, fontFamily: vars.font.ui, fontSize: vars.size.sm });

/** A note staff must act on (a pre-order whose card was declined). */
export const alert = style([muted, { color: vars.color.error, fontWeight: 700 }]);

/** The home page's areas: one column on a phone, three on a laptop. */
export const areas = style({
  display: "grid",
  gap: `${vars.space.xl} ${vars.space.lg}`,
  gridTemplateColumns: "1fr",
  listStyle: "none",
  padding: 0,
  margin: 0,
  "@media": { [media.tablet]: { gridTemplateColumns: "repeat(auto-fill, minmax(16rem, 1fr))" } },
});

/** An area: its name under a rule, what it is for, and its pages as a list of links. */
export const area = style({
  borderTop: `3px solid ${vars.color.ink}`,
  padding: `${vars.space.sm} 0 0`,
  fontFamily: vars.font.ui,
});

export const areaLater = style([area, { borderTopColor: vars.color.rule, color: vars.color.muted }]);

globalStyle(`${area} h2`, { fontSize: vars.size.lg, margin: `0 0 ${vars.space.xs}` });
globalStyle(`${area} p`, { margin: 0 });
globalStyle(`${area} > p`, { color: vars.color.muted, fontSize: vars.size.sm });

export const areaLinks = style({ listStyle: "none", padding: 0, margin: `${vars.space.sm} 0 0` });

export const areaLink = style({
  display: "flex",
  justifyContent: "space-between",
  alignItems: "center",
  minHeight: vars.control.target,
  borderBottom: `1px solid ${vars.color.rule}`,
  color: vars.color.ink,
  fontWeight: 600,
  textDecoration: "none",
  selectors: {
    "&::after": { content: '"→" / ""', color: vars.color.muted, fontWeight: 400 },
    "&:hover": { color: vars.color.accent },
    "&:hover::after": { color: vars.color.accent },
  },
});

/** The counts of waiting work on the desk's home, each a link to the list that holds it. */
export const toDo = style({
  display: "grid",
  gap: vars.space.sm,
  gridTemplateColumns: "repeat(auto-fill, minmax(12rem, 1fr))",
  listStyle: "none",
  padding: 0,
  margin: 0,
  fontFamily: vars.font.ui,
});

// On a phone each count is a row, its number beside its words.
export const toDoLink = style({
  display: "grid",
  gap: vars.space.xs,
  alignItems: "center",
  "@media": { [media.narrow]: { gridTemplateColumns: "3.5rem 1fr", padding: `${vars.space.sm} ${vars.space.md}` } },
  height: "100%",
  boxSizing: "border-box",
  padding: vars.space.md,
  background: vars.color.wash,
  borderLeft: `4px solid ${vars.color.accent}`,
  color: vars.color.ink,
  textDecoration: "none",
  selectors: {
    "&:hover": { background: vars.color.notice },
    // Nothing waiting: the rule steps back, so the eye goes to what is.
    '&[data-count="0"]': { borderLeftColor: vars.color.rule },
  },
});

export const toDoCount = style({
  fontFamily: vars.font.body,
  fontSize: vars.size.xxl,
  fontWeight: 700,
  lineHeight: 1,
  "@media": { [media.narrow]: { fontSize: vars.size.xl } },
});

export const sectionHeading = style({ fontSize: vars.size.lg, margin: `0 0 ${vars.space.sm}` });

/**
 * A table on a laptop; on a phone each row stacks into a card whose cells carry their column's
 * name (data-label), so nothing scrolls sideways.
 */
export const table = style({
  width: "100%",
  borderCollapse: "collapse",
  fontFamily: vars.font.ui,
  fontSize: vars.size.sm,
});

// Below a laptop's width anything too long for the screen breaks where it must. On a laptop a
// cell is as wide as its longest word, so "$64.00" and a heading's words stay whole.
globalStyle(`${table} th, ${table} td`, {
  textAlign: "left",
  verticalAlign: "top",
  padding: vars.space.sm,
  borderBottom: `1px solid ${vars.color.rule}`,
  overflowWrap: "anywhere",
  "@media": { [media.desktop]: { overflowWrap: "break-word" } },
});
globalStyle(`${table} th`, { "@media": { [media.desktop]: { overflowWrap: "normal" } } });
// Column headings as small capitals on a laptop, where the columns have room for them.
globalStyle(`${table} thead th`, {
  borderBottom: `2px solid ${vars.color.ink}`,
  color: vars.color.muted,
  fontWeight: 700,
  verticalAlign: "bottom",
  "@media": { [media.desktop]: { fontSize: vars.size.xs, letterSpacing: "0.06em", textTransform: "uppercase" } },
});
globalStyle(`${table} tbody tr:hover`, { background: vars.color.wash });
// A working list's links in ink, their underline quiet until pointed at: a table of blue
// underlines reads as a wall. Weightless (:where), so a link's own class still decides.
globalStyle(`:where(${table}) a`, {
  color: "inherit",
  textDecorationColor: vars.color.rule,
  textUnderlineOffset: vars.link.underlineOffset,
});
globalStyle(`:where(${table}) a:hover`, { color: vars.color.accent, textDecorationColor: "currentColor" });

globalStyle(`${table} thead`, {
  "@media": { [media.narrow]: { position: "absolute", width: 1, height: 1, overflow: "hidden", clip: "rect(0 0 0 0)" } },
});
globalStyle(`${table} tr`, {
  "@media": { [media.narrow]: { display: "block", borderBottom: `2px solid ${vars.color.rule}`, padding: `${vars.space.sm} 0` } },
});
globalStyle(`${table} td`, { "@media": { [media.narrow]: { display: "block", border: 0, padding: `${vars.space.xs} 0` } } });
globalStyle(`${table} td[data-label]::before`, {
  "@media": { [media.narrow]: { content: "attr(data-label) ': '", fontWeight: 700 } },
});

export const code = style({ fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace", overflowWrap: "anywhere" });

/** The secret and the recovery codes, set large enough to copy by eye. */
export const secret = style([code, { fontSize: vars.size.lg, letterSpacing: "0.08em", wordSpacing: "0.3em" }]);

export const codes = style([
  code,
  {
    display: "grid",
    gridTemplateColumns: "repeat(auto-fill, minmax(11rem, 1fr))",
    gap: vars.space.sm,
    fontSize: vars.size.md,
    padding: 0,
    listStyle: "none",
  },
]);

export const qr = style({ width: "13rem", height: "13rem", background: "#fff", display: "block", marginTop: vars.space.sm });

export const filters = style({
  display: "grid",
  gap: vars.space.md,
  gridTemplateColumns: "1fr",
  alignItems: "end",
  fontFamily: vars.font.ui,
  "@media": { [media.tablet]: { gridTemplateColumns: "repeat(4, minmax(0, 1fr)) auto" } },
});

export const change = style([code, { fontSize: vars.size.xs, whiteSpace: "pre-wrap", margin: 0 }]);

export const fieldset = style({ border: 0, padding: 0, margin: 0, display: "grid", gap: vars.space.sm });

globalStyle(`${fieldset} legend`, { fontFamily: vars.font.ui, fontWeight: 700, marginBottom: vars.space.sm, padding: 0 });

/** A listing's search: the field and its button side by side from a tablet up. */
export const search = style({
  display: "grid",
  gap: vars.space.md,
  gridTemplateColumns: "1fr",
  alignItems: "end",
  fontFamily: vars.font.ui,
  maxWidth: "40rem",
  "@media": { [media.tablet]: { gridTemplateColumns: "minmax(0, 1fr) auto" } },
});

/**
 * An edit page: the form, and beside it on a laptop what the desk knows of the row, in a column
 * as wide as the article editor's.
 */
export const editor = style({
  display: "grid",
  gap: vars.space.lg,
  gridTemplateColumns: "minmax(0, 1fr)",
  alignItems: "start",
  "@media": {
    [media.desktop]: { gridTemplateColumns: "minmax(0, 36rem) 20rem", justifyContent: "space-between", columnGap: vars.space.xl },
  },
});

/** Facts about a row, in a panel under a rule, as the article editor's state and publishing are. */
export const facts = style({
  border: `1px solid ${vars.color.rule}`,
  borderTop: `3px solid ${vars.color.ink}`,
  padding: vars.space.md,
  background: vars.color.paper,
  fontFamily: vars.font.ui,
  fontSize: vars.size.sm,
  display: "grid",
  gap: vars.space.sm,
});

/** The version saved since the form was opened: set apart, since saving again replaces it. */
export const factsStale = style([facts, { borderTopColor: vars.color.accent, background: vars.color.notice }]);

globalStyle(`${facts} h2`, {
  fontFamily: vars.font.ui,
  fontSize: vars.size.sm,
  textTransform: "uppercase",
  letterSpacing: "0.06em",
  margin: 0,
});
globalStyle(`${facts} h3`, { fontFamily: vars.font.ui, fontSize: vars.size.sm, margin: 0 });
globalStyle(`${facts} dl`, { margin: 0, display: "grid", gap: vars.space.sm });
globalStyle(`${facts} dt`, { color: vars.color.muted });
globalStyle(`${facts} dd`, { margin: 0, overflowWrap: "anywhere", whiteSpace: "pre-wrap" });
globalStyle(`${facts} ul`, { margin: 0, paddingLeft: vars.space.lg });
globalStyle(`${facts} p`, { margin: 0 });
