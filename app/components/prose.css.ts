import { style } from "@vanilla-extract/css";
import { vars } from "~/app/styles/theme.css";

export const narrow = style({ maxWidth: vars.measure.text });

export const pageHeading = style({ marginBottom: vars.space.lg });

/** A part of a page after the first, set off by a rule (My account's forms). */
export const section = style({ marginTop: vars.space.xl, paddingTop: vars.space.lg, borderTop: `1px solid ${vars.color.rule}` });

export const lede = style({ fontSize: vars.size.lg, color: vars.color.muted, fontFamily: vars.font.body });

export const sectionHeading = style({
  fontFamily: vars.font.ui,
  fontSize: vars.size.sm,
  textTransform: "uppercase",
  letterSpacing: "0.08em",
  borderTop: `3px solid ${vars.color.ink}`,
  paddingTop: vars.space.sm,
  marginTop: vars.space.xl,
});

export const notice = style({
  background: vars.color.notice,
  border: `1px solid ${vars.color.rule}`,
  padding: vars.space.md,
  borderRadius: vars.radius.md,
});
