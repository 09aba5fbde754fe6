import { globalStyle, style } from "@vanilla-extract/css";
import { media, vars } from "~/app/styles/theme.css";
import * as modal from "~/app/components/AuthModal.css";

/** The index: one entry per list. */
export const lists = style({ listStyle: "none", padding: 0, margin: 0, display: "grid", gap: vars.space.lg });

export const listEntry = style({ borderTop: `1px solid ${vars.color.rule}`, paddingTop: vars.space.md });

export const listName = style({ fontSize: vars.size.lg, margin: `0 0 ${vars.space.xs}` });

export const meta = style({ fontFamily: vars.font.ui, fontSize: vars.size.xs, color: vars.color.muted, margin: `0 0 ${vars.space.xs}` });

/** A list's articles, in reading order, each beside its large numeral. */
export const items = style({ listStyle: "none", padding: 0, margin: `0 0 ${vars.space.lg}`, display: "grid", gap: vars.space.lg });

/**
 * Phones: the title beside the numeral and a small picture, the rest under them; wider screens:
 * numeral, picture, then title and text.
 */
export const item = style({
  display: "grid",
  gridTemplateColumns: "2rem minmax(0, 1fr) 5.5rem",
  gridTemplateRows: "auto 1fr",
  gridTemplateAreas: '"number title image" "number text text"',
  columnGap: vars.space.sm,
  alignItems: "start",
  paddingBottom: vars.space.lg,
  borderBottom: `1px solid ${vars.color.rule}`,
  "@media": {
    [media.tablet]: {
      gridTemplateColumns: "2.75rem 10rem minmax(0, 1fr)",
      gridTemplateAreas: '"number image title" "number image text"',
      columnGap: vars.space.md,
    },
  },
});

export const number = style({
  gridArea: "number",
  fontFamily: vars.font.body,
  fontSize: vars.size.xxl,
  fontWeight: 700,
  lineHeight: 1,
  color: vars.color.accent,
});

export const image = style({
  gridArea: "image",
  width: "100%",
  height: "auto",
  aspectRatio: "16 / 9",
  objectFit: "cover",
  background: vars.color.wash,
});

export const itemText = style({ gridArea: "text" });

export const itemTitle = style({ gridArea: "title", fontSize: vars.size.lg, margin: `0 0 ${vars.space.xs}` });

export const itemLink = style({
  color: vars.color.ink,
  textDecoration: "none",
  selectors: { "&:hover": { textDecoration: "underline" } },
});

export const byline = style({ fontFamily: vars.font.ui, fontSize: vars.size.xs, color: vars.color.muted, margin: `0 0 ${vars.space.xs}` });

export const summary = style({ fontSize: vars.size.sm, margin: 0 });

/** What a reader without a subscription is told about the rest of the list. */
export const withheld = style({
  margin: `0 0 ${vars.space.lg}`,
  padding: vars.space.md,
  background: vars.color.notice,
  fontFamily: vars.font.ui,
  fontSize: vars.size.sm,
  display: "flex",
  flexWrap: "wrap",
  alignItems: "center",
  gap: vars.space.md,
});

globalStyle(`${withheld} p`, { margin: 0 });

export const related = style({ borderTop: `3px solid ${vars.color.ink}`, paddingTop: vars.space.sm });

export const relatedHeading = style({
  fontFamily: vars.font.ui,
  fontSize: vars.size.xs,
  textTransform: "uppercase",
  letterSpacing: "0.06em",
  color: vars.color.accent,
  margin: `0 0 ${vars.space.sm}`,
});

export const relatedLists = style({
  listStyle: "none",
  padding: 0,
  margin: 0,
  display: "grid",
  gap: vars.space.md,
  "@media": { [media.tablet]: { gridTemplateColumns: "repeat(3, minmax(0, 1fr))" } },
});

export const relatedName = style({ fontWeight: 700 });

/** The list in a dialog over the article: wider than the sign-in dialog, for its pictures. */
export const dialog = style([modal.dialog, { "@media": { [media.tablet]: { width: "min(48rem, calc(100% - 2rem))" } } }]);

export const dialogIntro = style({ margin: `0 0 ${vars.space.lg}`, color: vars.color.muted });

/** The list an article is read within, before the text or beside the wall. */
export const overlay = style({
  margin: `${vars.space.md} 0`,
  padding: vars.space.md,
  background: vars.color.wash,
  fontFamily: vars.font.ui,
  fontSize: vars.size.sm,
});

export const overlayToggle = style({ cursor: "pointer", fontWeight: 700 });

export const overlayHeading = style({
  fontSize: vars.size.xs,
  textTransform: "uppercase",
  letterSpacing: "0.06em",
  margin: `${vars.space.md} 0 ${vars.space.xs}`,
});

export const overlayLinks = style({ listStyle: "none", padding: 0, margin: 0, display: "grid", gap: vars.space.xs });
