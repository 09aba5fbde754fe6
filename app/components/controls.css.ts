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

/** A row of a page's tools (Save, Share, Larger text, Download), under its headline or player. */
export const toolRow = style({ display: "flex", flexWrap: "wrap", alignItems: "center", gap: vars.space.sm, margin: `${vars.space.md} 0` });

/**
 * The rounded outline in ink, not underlined, that a page's tools and the chips share: filled
 * when it is pressed or is the page the reader is on.
 */
export const pill = style({
  display: "inline-flex",
  alignItems: "center",
  border: `1px solid ${vars.color.rule}`,
  borderRadius: "999px",
  background: vars.color.paper,
  color: vars.color.ink,
  fontFamily: vars.font.ui,
  fontSize: vars.size.sm,
  fontWeight: 600,
  textDecoration: "none",
  selectors: {
    "&:hover": { borderColor: vars.color.ink, color: vars.color.ink },
    '&[aria-pressed="true"], &[aria-current="page"], &[aria-current="true"]': {
      background: vars.color.ink,
      borderColor: vars.color.ink,
      color: vars.color.paper,
    },
  },
});

/** A page's tool, link or button alike: its icon beside its word, in a 44 px pill. Pressed (Larger text on) it is filled. */
export const toolButton = style([
  pill,
  { gap: vars.space.xs, minHeight: vars.control.target, padding: `0 ${vars.space.md}`, lineHeight: 1.2, cursor: "pointer" },
]);

/** A card's Save: the card's small type in ink with its icon, underlined under the pointer. */
export const cardTool = style({
  display: "inline-flex",
  alignItems: "center",
  gap: "0.35em",
  minHeight: "1.5rem",
  color: vars.color.ink,
  fontFamily: vars.font.ui,
  fontSize: vars.size.xs,
  fontWeight: 600,
  textDecoration: "none",
  selectors: { "&:hover": { textDecoration: "underline", textUnderlineOffset: vars.link.underlineOffset } },
});

/** A tool's icon: the size of its word, drawn in the word's colour. */
export const toolIcon = style({ width: "1.1em", height: "1.1em", flex: "none" });
