import { globalStyle, style } from "@vanilla-extract/css";
import { media, vars } from "~/app/styles/theme.css";

export const section = style({
  margin: `${vars.space.xl} 0`,
  padding: vars.space.md,
  border: `1px solid ${vars.color.rule}`,
  borderTop: `3px solid ${vars.color.ink}`,
  fontFamily: vars.font.ui,
});

export const heading = style({ fontSize: vars.size.lg, margin: `0 0 ${vars.space.md}` });

/** The items: one under the other on a phone, side by side (joined by "+") from a tablet on. */
export const items = style({
  listStyle: "none",
  padding: 0,
  margin: `0 0 ${vars.space.md}`,
  display: "grid",
  gap: vars.space.md,
  "@media": { [media.tablet]: { gridAutoFlow: "column", gridAutoColumns: "minmax(0, 1fr)", gap: vars.space.xl } },
});

export const item = style({
  position: "relative",
  display: "grid",
  gridTemplateColumns: "4.5rem minmax(0, 1fr)",
  gap: vars.space.sm,
  alignItems: "start",
  alignContent: "start",
  "@media": { [media.tablet]: { gridTemplateColumns: "minmax(0, 1fr)" } },
});

// The "+" between two items, in the gap before each item after the first.
globalStyle(`${item} + ${item}::before`, {
  "@media": {
    [media.tablet]: {
      content: '"+"',
      position: "absolute",
      left: `calc(-1 * ${vars.space.xl} / 2)`,
      top: "3rem",
      transform: "translateX(-50%)",
      fontSize: vars.size.xl,
      fontWeight: 700,
      color: vars.color.muted,
    },
  },
});

export const cover = style({
  display: "block",
  width: "100%",
  maxWidth: "7rem",
  height: "auto",
  aspectRatio: "3 / 4",
  background: vars.color.wash,
  boxShadow: "0 1px 3px rgba(0, 0, 0, 0.25)",
});

export const choice = style({ display: "flex", gap: vars.space.sm, alignItems: "flex-start" });

/** A 24 px box, the size of a target WCAG 2.2 asks for. */
export const checkbox = style({ flex: "none", width: "1.5rem", height: "1.5rem", margin: 0, accentColor: vars.color.accent });

export const label = style({ fontSize: vars.size.sm, fontWeight: 700, cursor: "pointer" });

/** Under the title, in line with it rather than with the box. */
export const facts = style({
  margin: `${vars.space.xs} 0 0`,
  paddingLeft: `calc(1.5rem + ${vars.space.sm})`,
  fontSize: vars.size.xs,
  color: vars.color.muted,
});

export const price = style({ fontWeight: 700, color: vars.color.ink });

export const summary = style({
  display: "flex",
  flexWrap: "wrap",
  alignItems: "center",
  justifyContent: "space-between",
  gap: vars.space.md,
  paddingTop: vars.space.md,
  borderTop: `1px solid ${vars.color.rule}`,
});

export const total = style({ fontSize: vars.size.md, fontWeight: 700 });
