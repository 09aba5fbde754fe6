import { style } from "@vanilla-extract/css";
import { vars } from "~/app/styles/theme.css";

export const track = style({
  display: "grid",
  gridAutoFlow: "column",
  gridAutoColumns: "min(80%, 17rem)",
  gap: vars.space.lg,
  overflowX: "auto",
  scrollSnapType: "x mandatory",
  listStyle: "none",
  padding: `0 0 ${vars.space.md}`,
  margin: 0,
  "@media": { print: { display: "none" } },
});

export const slide = style({ scrollSnapAlign: "start" });
