import { globalStyle, style } from "@vanilla-extract/css";
import { media, vars, visuallyHidden } from "~/app/styles/theme.css";

export const heading = style({ marginBottom: vars.space.lg });

export const steps = style({
  display: "flex",
  gap: vars.space.sm,
  listStyle: "none",
  padding: 0,
  margin: `0 0 ${vars.space.md}`,
  fontFamily: vars.font.ui,
  fontSize: vars.size.sm,
});

export const step = style({
  flex: "1 1 0",
  display: "flex",
  alignItems: "center",
  gap: vars.space.sm,
  paddingBottom: vars.space.sm,
  borderBottom: `3px solid ${vars.color.rule}`,
  color: vars.color.muted,
  selectors: {
    '&[data-state="current"]': { borderBottomColor: vars.color.accent, color: vars.color.ink, fontWeight: 700 },
    '&[data-state="done"]': { borderBottomColor: vars.color.ink, color: vars.color.ink },
  },
  "@media": { [media.narrow]: { flex: "0 0 auto", selectors: { '&[data-state="current"]': { flex: "1 1 auto" } } } },
});

export const marker = style({
  display: "inline-grid",
  placeItems: "center",
  flex: "none",
  width: "1.75rem",
  height: "1.75rem",
  borderRadius: "50%",
  border: `2px solid currentColor`,
  fontSize: vars.size.xs,
  fontWeight: 700,
});
globalStyle(`${step}[data-state="current"] ${marker}`, {
  background: vars.color.accent,
  borderColor: vars.color.accent,
  color: vars.color.accentInk,
});
globalStyle(`${step}[data-state="done"] ${marker}`, { background: vars.color.ink, borderColor: vars.color.ink, color: vars.color.paper });

/** On a phone only the current step is named; the others keep their number, and their name for screen readers. */
export const nameAside = style({ "@media": { [media.narrow]: visuallyHidden } });

export const stepLink = style({
  display: "flex",
  alignItems: "center",
  gap: vars.space.sm,
  color: "inherit",
  textDecoration: "none",
  ":hover": { textDecoration: "underline" },
});

export const title = style({ margin: 0 });

export const caption = style({
  display: "block",
  fontFamily: vars.font.ui,
  fontSize: vars.size.sm,
  fontWeight: 400,
  color: vars.color.muted,
  marginBottom: vars.space.xs,
});
