import { globalStyle, style, styleVariants } from "@vanilla-extract/css";
import { vars } from "~/app/styles/theme.css";

const errorRed = vars.color.error;

export const form = style({ maxWidth: "32rem", display: "grid", gap: vars.space.lg });

export const field = style({ display: "grid", gap: vars.space.xs });

export const label = style({ fontFamily: vars.font.ui, fontWeight: 700 });

export const hint = style({ fontFamily: vars.font.ui, fontSize: vars.size.sm, color: vars.color.muted });

export const input = style({
  font: "inherit",
  fontFamily: vars.font.ui,
  minHeight: vars.control.target,
  padding: `0 ${vars.space.sm}`,
  border: `${vars.control.border} solid ${vars.color.ink}`,
  borderRadius: 0,
  width: "100%",
  background: vars.color.paper,
  color: vars.color.ink,
  selectors: {
    '&[aria-invalid="true"]': { borderColor: errorRed, borderWidth: "3px" },
  },
});

/**
 * Narrower text boxes for short answers, so a box's width says what goes in it: `short` for a
 * few digits (a year, a count, a percentage), `medium` for a date, a length, a price or a code.
 */
export const inputWidth = styleVariants({ short: { maxWidth: "7rem" }, medium: { maxWidth: "12rem" } });

export const textarea = style([input, { padding: vars.space.sm, minHeight: "8rem", resize: "vertical", lineHeight: 1.5 }]);

export const fieldError = style({ fontFamily: vars.font.ui, fontWeight: 700, color: errorRed, margin: 0 });

export const withError = style({ borderLeft: `4px solid ${errorRed}`, paddingLeft: vars.space.md });

export const passwordRow = style({ display: "flex", gap: vars.space.sm });

export const secondaryButton = style({
  minHeight: vars.control.target,
  padding: `0 ${vars.space.md}`,
  border: `${vars.control.border} solid ${vars.color.ink}`,
  background: vars.color.paper,
  color: vars.color.ink,
  fontFamily: vars.font.ui,
  cursor: "pointer",
  whiteSpace: "nowrap",
});

export const checkbox = style({ display: "flex", gap: vars.space.sm, alignItems: "flex-start", fontFamily: vars.font.ui });

globalStyle(`${checkbox} input`, { width: "1.5rem", height: "1.5rem", marginTop: "0.1rem", flex: "none" });

export const summary = style({
  border: `4px solid ${errorRed}`,
  padding: vars.space.md,
  marginBottom: vars.space.lg,
  maxWidth: "40rem",
  fontFamily: vars.font.ui,
  selectors: { "&:focus": { outline: `3px solid ${vars.color.focus}` } },
});

globalStyle(`${summary} h2`, { marginTop: 0, fontSize: vars.size.lg });
globalStyle(`${summary} a`, { color: errorRed, fontWeight: 700 });
globalStyle(`${summary} li > p`, { margin: 0 });
globalStyle(`${summary} li > p + p`, { marginTop: vars.space.xs });

export const formMessage = style({ fontFamily: vars.font.ui, color: errorRed, fontWeight: 700 });

export const success = style({
  borderLeft: `6px solid #00703c`,
  background: "#eef7f1",
  padding: vars.space.md,
  fontFamily: vars.font.ui,
  maxWidth: "40rem",
});

/** Off-screen and out of the tab order: only form-filling bots find it. */
export const honeypot = style({ position: "absolute", left: "-10000px", width: "1px", height: "1px", overflow: "hidden" });

export const actions = style({ display: "flex", flexWrap: "wrap", gap: vars.space.md, alignItems: "center", fontFamily: vars.font.ui });
