import { style } from "@vanilla-extract/css";
import { vars } from "../styles/theme.css";

/** The primary button: a 44 px target, white on the accent colour (7.4:1). */
export const primaryButton = style({
  minHeight: "2.75rem",
  padding: `0 ${vars.space.lg}`,
  border: 0,
  background: vars.color.accent,
  color: vars.color.accentInk,
  fontWeight: 700,
  cursor: "pointer",
});
