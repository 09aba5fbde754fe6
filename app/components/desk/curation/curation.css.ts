import { style } from "@vanilla-extract/css";
import { media, vars } from "~/app/styles/theme.css";

// The curation forms' ordered lists: on a phone each article stacks above its buttons; on a
// laptop the buttons sit on the article's line.

export const list = style({ listStyle: "none", margin: 0, padding: 0, display: "grid", gap: vars.space.sm, maxWidth: "52rem" });

export const item = style({
  display: "grid",
  gridTemplateColumns: "minmax(0, 1fr)",
  gap: vars.space.sm,
  alignItems: "center",
  border: `1px solid ${vars.color.rule}`,
  borderRadius: vars.radius.md,
  background: vars.color.paper,
  padding: vars.space.md,
  fontFamily: vars.font.ui,
  "@media": { [media.tablet]: { gridTemplateColumns: "minmax(0, 1fr) auto" } },
});

export const what = style({ display: "grid", gap: vars.space.xs, minWidth: 0 });

export const place = style({
  fontSize: vars.size.xs,
  fontWeight: 700,
  letterSpacing: "0.08em",
  textTransform: "uppercase",
  color: vars.color.accent,
});

export const title = style({ fontFamily: vars.font.body, fontSize: vars.size.lg, fontWeight: 700, overflowWrap: "anywhere" });

export const meta = style({ fontSize: vars.size.sm, color: vars.color.muted, overflowWrap: "anywhere" });

export const warning = style({ color: vars.color.error });

export const buttons = style({ display: "flex", flexWrap: "wrap", gap: vars.space.sm });

const small = {
  minHeight: vars.control.target,
  minWidth: "4.5rem",
  padding: `0 ${vars.space.sm}`,
  fontFamily: vars.font.ui,
  fontSize: vars.size.sm,
  cursor: "pointer",
  background: vars.color.paper,
  ":disabled": { opacity: 0.4, cursor: "default" },
} as const;

export const move = style({ ...small, border: `2px solid ${vars.color.ink}`, color: vars.color.ink });

export const remove = style({ ...small, border: `2px solid ${vars.color.error}`, color: vars.color.error });

export const empty = style({
  fontFamily: vars.font.ui,
  color: vars.color.muted,
  border: `1px dashed ${vars.color.rule}`,
  borderRadius: vars.radius.md,
  padding: vars.space.md,
  margin: 0,
  maxWidth: "52rem",
});

export const addRow = style({
  display: "grid",
  gridTemplateColumns: "minmax(0, 1fr)",
  gap: vars.space.sm,
  "@media": { [media.tablet]: { gridTemplateColumns: "minmax(0, 1fr) auto" } },
});

/** The form's sections: the fields, then the articles. */
export const section = style({ display: "grid", gap: vars.space.md, maxWidth: "52rem" });

export const sectionHeading = style({ fontSize: vars.size.lg, margin: 0 });

/** The default button pressing Enter uses: first in the form, invisible, out of the tab order. */
export const enterButton = style({
  position: "absolute",
  width: 1,
  height: 1,
  overflow: "hidden",
  clip: "rect(0 0 0 0)",
  border: 0,
  padding: 0,
});

export const textarea = style({ padding: vars.space.sm, minHeight: "6rem", resize: "vertical" });

/** A conflict: what the editor sent, which was not saved, beside the list as it is now. */
export const theirs = style({
  border: `2px solid ${vars.color.ink}`,
  background: vars.color.notice,
  padding: vars.space.md,
  fontFamily: vars.font.ui,
  maxWidth: "52rem",
});
