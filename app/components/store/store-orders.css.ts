import { style } from "@vanilla-extract/css";
import { vars } from "~/app/styles/theme.css";

export const entries = style({ listStyle: "none", padding: 0, margin: `0 0 ${vars.space.md}`, display: "grid", gap: vars.space.md });

export const entry = style({ paddingBottom: vars.space.md, borderBottom: `1px solid ${vars.color.rule}` });

export const entryTitle = style({ fontSize: vars.size.md, margin: `0 0 ${vars.space.xs}` });

export const meta = style({ fontFamily: vars.font.ui, fontSize: vars.size.sm, color: vars.color.muted, margin: `0 0 ${vars.space.xs}` });

export const status = style({ fontWeight: 700, color: vars.color.ink });

export const lines = style({ margin: `${vars.space.xs} 0`, paddingLeft: vars.space.lg, fontFamily: vars.font.ui, fontSize: vars.size.sm });

export const available = style({
  display: "inline-block",
  marginLeft: vars.space.xs,
  padding: `0 ${vars.space.xs}`,
  background: vars.color.notice,
});

export const downloads = style({ fontFamily: vars.font.ui, fontSize: vars.size.sm, margin: `${vars.space.md} 0` });

export const downloadList = style({ listStyle: "none", padding: 0, margin: 0, display: "grid", gap: vars.space.sm });

export const progress = style({ fontFamily: vars.font.ui, fontSize: vars.size.sm, color: vars.color.ink, margin: `0 0 ${vars.space.xs}` });

export const shipments = style({
  listStyle: "none",
  padding: 0,
  margin: `0 0 ${vars.space.xs}`,
  fontFamily: vars.font.ui,
  fontSize: vars.size.sm,
});
