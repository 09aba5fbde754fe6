import { style } from "@vanilla-extract/css";
import { vars } from "~/app/styles/theme.css";

/**
 * The primary button: a 44 px target, white on the accent colour (7.4:1). A link wearing it is a
 * box too, its words centred in it as a button's are.
 */
export const primaryButton = style({
  display: "inline-flex",
  alignItems: "center",
  justifyContent: "center",
  textDecoration: "none",
  minHeight: vars.control.target,
  padding: `0 ${vars.space.lg}`,
  border: 0,
  background: vars.color.accent,
  color: vars.color.accentInk,
  fontWeight: 700,
  cursor: "pointer",
});

/**
 * A form's button that reads as a link (remove, discard, log out): the link's colour and
 * underline, at least 24 px tall as a target.
 */
export const linkButton = style({
  font: "inherit",
  color: vars.color.link,
  textDecoration: "underline",
  textUnderlineOffset: vars.link.underlineOffset,
  background: "none",
  border: 0,
  padding: 0,
  minHeight: "1.5rem",
  cursor: "pointer",
  selectors: { "&:hover": { color: vars.color.accent } },
});

/** A panel that opens under its control (flyouts, the mini cart); each places and sizes it. */
export const popover = style({
  position: "absolute",
  zIndex: 20,
  top: "100%",
  marginTop: vars.space.xs,
  padding: vars.space.md,
  background: vars.color.paper,
  border: `1px solid ${vars.color.rule}`,
  boxShadow: "0 0.5rem 1.5rem rgba(0, 0, 0, 0.18)",
  display: "grid",
  gap: vars.space.sm,
});
