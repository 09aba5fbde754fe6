import { style } from "@vanilla-extract/css";
import { media, vars } from "~/app/styles/theme.css";

// An issue's page at the desk: the form (its fields, then its contents) beside what is known of
// the issue (its cover, its last save, or the version saved since the form was opened); one
// column on a phone.

export const layout = style({
  display: "grid",
  gap: vars.space.lg,
  gridTemplateColumns: "minmax(0, 1fr)",
  alignItems: "start",
  "@media": {
    [media.desktop]: { gridTemplateColumns: "minmax(0, 46rem) 20rem", justifyContent: "space-between", columnGap: vars.space.xl },
  },
});

export const form = style({ display: "grid", gap: vars.space.lg, minWidth: 0 });

/** A feature's two fields, one above the other: a title needs the row's width. */
export const featureFields = style({ display: "grid", gap: vars.space.sm, gridTemplateColumns: "minmax(0, 1fr)" });

export const aside = style({ display: "grid", gap: vars.space.md, minWidth: 0 });

/** The cover beside the form: a thumbnail, as the archive's card shows it. */
export const cover = style({ display: "block", width: "9rem", height: "auto", border: `1px solid ${vars.color.rule}` });

export const contents = style({ margin: 0, paddingLeft: vars.space.lg });
