import { style, styleVariants } from "@vanilla-extract/css";
import { vars } from "~/app/styles/theme.css";

/** A state as a word in a box: the word carries it, the colour only helps. */
const base = style({
  display: "inline-block",
  padding: `0 ${vars.space.sm}`,
  border: "1px solid currentColor",
  borderRadius: vars.radius.sm,
  fontFamily: vars.font.ui,
  fontSize: vars.size.xs,
  fontWeight: 700,
  letterSpacing: "0.04em",
  textTransform: "uppercase",
  whiteSpace: "nowrap",
  lineHeight: 1.7,
});

export const tone = styleVariants({
  quiet: [base, { color: vars.color.muted, background: vars.color.paper }],
  waiting: [base, { color: "#7a4b00", background: vars.color.notice }],
  done: [base, { color: vars.color.success, background: "#eef7f1" }],
  stopped: [base, { color: vars.color.error, background: "#fbeeed" }],
});
