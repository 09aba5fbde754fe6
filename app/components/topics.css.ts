import { style } from "@vanilla-extract/css";
import { media, vars } from "../styles/theme.css";

export const topicGrid = style({
  listStyle: "none",
  padding: 0,
  display: "grid",
  gap: vars.space.lg,
  "@media": { [media.tablet]: { gridTemplateColumns: "repeat(2, 1fr)" }, [media.desktop]: { gridTemplateColumns: "repeat(3, 1fr)" } },
});

export const topicItem = style({ borderTop: `3px solid ${vars.color.ink}`, paddingTop: vars.space.sm });

export const topicName = style({ fontSize: vars.size.lg });

export const topicDescription = style({ fontFamily: vars.font.body, margin: `0 0 ${vars.space.xs}` });

export const topicMeta = style({ fontSize: vars.size.xs, color: vars.color.muted, margin: 0 });
