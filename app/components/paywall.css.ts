import { style } from "@vanilla-extract/css";
import { vars } from "~/app/styles/theme.css";

export const wall = style({
  position: "relative",
  margin: `${vars.space.lg} 0 ${vars.space.xl}`,
  padding: vars.space.lg,
  border: `1px solid ${vars.color.rule}`,
  borderTop: `4px solid ${vars.color.accent}`,
  background: vars.color.paper,
  fontFamily: vars.font.ui,
  fontSize: vars.size.md,
  // The preview fades into the wall.
  boxShadow: `0 -3rem 3rem -1rem ${vars.color.paper}`,
});

export const greeting = style({ margin: 0, fontWeight: 700 });

export const title = style({ fontSize: vars.size.xl, margin: `${vars.space.xs} 0 ${vars.space.sm}` });

export const dek = style({ margin: `0 0 ${vars.space.xs}` });

export const subDek = style({ margin: `0 0 ${vars.space.md}`, color: vars.color.muted, fontSize: vars.size.sm });

export const tabs = style({
  display: "flex",
  flexWrap: "wrap",
  gap: vars.space.md,
  listStyle: "none",
  padding: 0,
  margin: `0 0 ${vars.space.md}`,
});

export const counter = style({
  display: "flex",
  flexWrap: "wrap",
  gap: vars.space.sm,
  alignItems: "baseline",
  justifyContent: "space-between",
  padding: `${vars.space.sm} ${vars.space.md}`,
  margin: `0 0 ${vars.space.md}`,
  background: vars.color.notice,
  fontFamily: vars.font.ui,
  fontSize: vars.size.sm,
});
