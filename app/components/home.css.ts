import { globalStyle, style } from "@vanilla-extract/css";
import { media, vars } from "~/app/styles/theme.css";

// Grid columns are minmax(0, …) throughout: a column is otherwise as wide as its longest word
// or widest field, and on a 320 px phone that widened the page.

/** The help box above the front page runs its full width (no empty space beside it); its text keeps a reading measure. */
export const intro = style({});
globalStyle(`${intro} > aside`, { maxWidth: "none" });
globalStyle(`${intro} > aside > *`, { maxWidth: vars.measure.text });

/** The lead package, and The Latest beside it on a desktop. */
export const top = style({
  display: "grid",
  gridTemplateColumns: "minmax(0, 1fr)",
  gap: vars.space.xl,
  "@media": { [media.desktop]: { gridTemplateColumns: "minmax(0, 2fr) minmax(0, 1fr)" } },
});

// The first section heading beside the lead starts level with the lead's picture.
globalStyle(`${top} > section > h2:first-of-type`, { marginTop: 0 });

export const leadPackage = style({ display: "grid", gap: vars.space.xl, alignContent: "start" });

export const lead = style({ fontSize: vars.size.lg });
globalStyle(`${lead} h3`, {
  fontSize: vars.size.xl,
  "@media": { [media.desktop]: { fontSize: vars.size.xxl } },
});

/** The two stories under the lead, side by side from a tablet's width. */
export const secondary = style({
  listStyle: "none",
  margin: 0,
  padding: `${vars.space.lg} 0 0`,
  borderTop: `1px solid ${vars.color.rule}`,
  display: "grid",
  gap: vars.space.lg,
  "@media": { [media.tablet]: { gridTemplateColumns: "repeat(2, minmax(0, 1fr))" } },
});

// On a phone the stories under the lead, and the rows further down, are compact: a small
// picture beside the headline, so the page is not a column of full-width pictures.
const compactOnPhone = {
  display: "grid",
  gridTemplateColumns: "7rem minmax(0, 1fr)",
  gap: vars.space.md,
  alignItems: "start",
} as const;

export const latest = style({ "@media": { [media.desktop]: { borderLeft: `1px solid ${vars.color.rule}`, paddingLeft: vars.space.lg } } });

export const headlines = style({ listStyle: "none", margin: 0, padding: 0, display: "grid", gap: vars.space.md });

/** Most Popular: a numbered list of headlines, five across on a desktop (two across would leave one alone). */
export const ranked = style({
  listStyle: "none",
  margin: 0,
  padding: 0,
  display: "grid",
  gap: vars.space.lg,
  "@media": { [media.desktop]: { gridTemplateColumns: "repeat(5, minmax(0, 1fr))" } },
});

export const rankedItem = style({ display: "grid", gridTemplateColumns: "2.25rem minmax(0, 1fr)", alignItems: "start" });
globalStyle(`${rankedItem} h3`, { fontSize: vars.size.md });

export const rank = style({
  fontFamily: vars.font.body,
  fontSize: vars.size.xxl,
  fontWeight: 700,
  lineHeight: 1,
  color: vars.color.accent,
});

/**
 * A row of cards whose columns follow the number of cards (data-cards), so that no row is left
 * with empty places: four go two by two on a tablet and four across on a desktop.
 */
export const row = style({
  listStyle: "none",
  margin: 0,
  padding: 0,
  display: "grid",
  gap: vars.space.lg,
  "@media": {
    [media.tablet]: {
      gridTemplateColumns: "repeat(2, minmax(0, 1fr))",
      selectors: {
        '&[data-cards="1"]': { gridTemplateColumns: "minmax(0, 1fr)" },
        '&[data-cards="3"]': { gridTemplateColumns: "repeat(3, minmax(0, 1fr))" },
      },
    },
    [media.desktop]: { selectors: { '&[data-cards="4"]': { gridTemplateColumns: "repeat(4, minmax(0, 1fr))" } } },
  },
});

globalStyle(`${secondary} > li > article, ${row} > li > article`, { "@media": { [media.narrow]: compactOnPhone } });

/** Podcasts, the magazine and newsletters: three columns on a desktop. */
export const trio = style({
  display: "grid",
  gridTemplateColumns: "minmax(0, 1fr)",
  gap: vars.space.xl,
  "@media": { [media.desktop]: { gridTemplateColumns: "repeat(3, minmax(0, 1fr))" } },
});

export const shows = style({ listStyle: "none", margin: 0, padding: 0, display: "grid", gap: vars.space.md });

export const show = style({ display: "grid", gridTemplateColumns: "5.5rem minmax(0, 1fr)", gap: vars.space.md, alignItems: "start" });

export const showCover = style({ width: "5.5rem", height: "5.5rem", display: "block" });

export const smallTitle = style({ fontSize: vars.size.md, margin: `0 0 ${vars.space.xs}` });

export const note = style({ fontSize: vars.size.xs, color: vars.color.muted, margin: 0 });

export const newsletterList = style({
  listStyle: "none",
  margin: `0 0 ${vars.space.md}`,
  padding: 0,
  display: "grid",
  gap: vars.space.md,
});

export const signUp = style({
  display: "inline-block",
  padding: `${vars.space.sm} ${vars.space.md}`,
  background: vars.color.accent,
  color: vars.color.paper,
  fontFamily: vars.font.ui,
  fontWeight: 700,
  textDecoration: "none",
  borderRadius: vars.radius.sm,
});

/** The subjects as a ruled index in columns, in ink: a block of blue bullets read as a site map. */
export const topicList = style({
  columns: "2 12rem",
  columnGap: vars.space.lg,
  listStyle: "none",
  padding: 0,
  margin: `0 0 ${vars.space.md}`,
  fontFamily: vars.font.ui,
  "@media": { [media.desktop]: { columns: 4 } },
});
globalStyle(`${topicList} li`, { breakInside: "avoid", borderTop: `1px solid ${vars.color.rule}` });
globalStyle(`${topicList} a`, {
  display: "block",
  padding: `${vars.space.sm} 0`,
  color: vars.color.ink,
  fontWeight: 600,
  textDecoration: "none",
});
globalStyle(`${topicList} a:hover`, { color: vars.color.accent, textDecoration: "underline" });
