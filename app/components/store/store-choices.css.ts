import { style } from "@vanilla-extract/css";
import { media, vars } from "~/app/styles/theme.css";

/**
 * The store's form, its fields in reading order: on a phone the keywords across the top, the four
 * selects two by two and the button across the foot; on a tablet three across; on a desktop the
 * keywords beside type and topic, then format, order and the button. A select is never narrower
 * than its longest order's name needs.
 */
export const form = style({
  display: "grid",
  gridTemplateColumns: "repeat(2, minmax(0, 1fr))",
  gap: `${vars.space.sm} ${vars.space.sm}`,
  alignItems: "end",
  margin: `${vars.space.md} 0 ${vars.space.lg}`,
  padding: vars.space.sm,
  background: vars.color.wash,
  fontFamily: vars.font.ui,
  "@media": {
    [media.tablet]: { gridTemplateColumns: "repeat(3, minmax(0, 1fr))", gap: `${vars.space.sm} ${vars.space.md}`, padding: vars.space.md },
    [media.desktop]: { gridTemplateColumns: "repeat(4, minmax(0, 1fr))" },
  },
});

export const field = style({
  display: "grid",
  gridTemplateColumns: "minmax(0, 1fr)",
  gap: vars.space.xs,
  minWidth: 0,
  fontWeight: 600,
  fontSize: vars.size.sm,
});

export const keywords = style({ gridColumn: "1 / -1", "@media": { [media.desktop]: { gridColumn: "span 2" } } });

// 17 px text: a phone does not zoom into a field whose text is 16 px or more.
const control = {
  width: "100%",
  minHeight: vars.control.target,
  padding: `0 ${vars.space.sm}`,
  border: `1px solid ${vars.color.ink}`,
  borderRadius: vars.radius.sm,
  background: vars.color.paper,
  color: vars.color.ink,
  fontFamily: vars.font.ui,
  fontSize: vars.size.md,
  fontWeight: 400,
};

export const input = style(control);

export const select = style(control);

export const submit = style({
  gridColumn: "1 / -1",
  "@media": { [media.tablet]: { gridColumn: "auto", justifySelf: "start" } },
});
