import { style } from "@vanilla-extract/css";
import { media, vars } from "../styles/theme.css";

export const top = style({
  display: "grid",
  gap: vars.space.xl,
  "@media": { [media.desktop]: { gridTemplateColumns: "3fr 2fr" } },
});

export const lead = style({ fontSize: vars.size.lg });

export const split = style({
  display: "grid",
  gap: vars.space.xl,
  "@media": { [media.tablet]: { gridTemplateColumns: "1fr 1fr" } },
});

export const topicList = style({ columns: 2, paddingLeft: vars.space.lg, margin: 0 });
