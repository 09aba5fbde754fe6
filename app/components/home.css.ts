import { globalStyle, style } from "@vanilla-extract/css";
import { media, vars } from "../styles/theme.css";

// Grid columns are minmax(0, …) throughout: a column is otherwise as wide as its longest word
// or widest field, and on a 320 px phone that widened the page.
export const top = style({
  display: "grid",
  gridTemplateColumns: "minmax(0, 1fr)",
  gap: vars.space.xl,
  "@media": { [media.desktop]: { gridTemplateColumns: "minmax(0, 3fr) minmax(0, 2fr)" } },
});

// The first section heading beside the lead starts level with the lead's picture.
globalStyle(`${top} > section > h2:first-child`, { marginTop: 0 });

export const lead = style({ fontSize: vars.size.lg });

/** The help box above the front page runs its full width (no empty space beside it); its text keeps a reading measure. */
export const intro = style({});
globalStyle(`${intro} > aside`, { maxWidth: "none" });
globalStyle(`${intro} > aside > *`, { maxWidth: vars.measure.text });

export const split = style({
  display: "grid",
  gridTemplateColumns: "minmax(0, 1fr)",
  gap: vars.space.xl,
  "@media": { [media.tablet]: { gridTemplateColumns: "repeat(2, minmax(0, 1fr))" } },
});

export const topicList = style({ columns: 2, paddingLeft: vars.space.lg, margin: 0 });
