import { style } from "@vanilla-extract/css";
import { vars } from "~/app/styles/theme.css";

// Spec: help boxes sit 14 px from what they explain.
export const helpBox = style({
  margin: "14px 0",
  padding: vars.space.md,
  border: `1px solid ${vars.color.rule}`,
  borderLeft: `4px solid ${vars.color.link}`,
  background: vars.color.paper,
  fontFamily: vars.font.ui,
  fontSize: vars.size.sm,
  maxWidth: vars.measure.text,
});

export const headline = style({ fontSize: vars.size.md, margin: `0 0 ${vars.space.xs}` });

export const close = style({
  font: "inherit",
  fontWeight: 700,
  color: vars.color.link,
  background: "none",
  border: `1px solid ${vars.color.link}`,
  borderRadius: vars.radius.sm,
  padding: `${vars.space.xs} ${vars.space.sm}`,
  cursor: "pointer",
});

export const banner = style({
  position: "sticky",
  bottom: 0,
  zIndex: 10,
  display: "flex",
  flexWrap: "wrap",
  gap: vars.space.md,
  alignItems: "center",
  justifyContent: "space-between",
  padding: `${vars.space.md} ${vars.space.lg}`,
  background: vars.color.ink,
  color: vars.color.paper,
  fontFamily: vars.font.ui,
  selectors: { "&[data-waiting]": { display: "none" } },
  "@media": { print: { display: "none" } },
});

export const bannerLink = style({ color: vars.color.paper, fontWeight: 700 });

export const bannerClose = style({
  font: "inherit",
  color: vars.color.paper,
  background: "none",
  border: `1px solid ${vars.color.paper}`,
  borderRadius: vars.radius.sm,
  padding: `${vars.space.xs} ${vars.space.sm}`,
  cursor: "pointer",
});

/** With JS the message is a modal dialog, centred over a dimmed page. */
export const onboardingDialog = style({
  width: "min(34rem, calc(100vw - 2rem))",
  padding: vars.space.lg,
  border: 0,
  borderTop: `4px solid ${vars.color.accent}`,
  background: vars.color.paper,
  color: vars.color.ink,
  fontFamily: vars.font.ui,
  boxShadow: "0 1rem 3rem rgba(0, 0, 0, 0.35)",
  selectors: { "&::backdrop": { background: "rgba(0, 0, 0, 0.55)" } },
});

export const onboarding = style({
  margin: `${vars.space.md} 0`,
  padding: vars.space.lg,
  background: vars.color.wash,
  borderTop: `4px solid ${vars.color.accent}`,
  fontFamily: vars.font.ui,
});
