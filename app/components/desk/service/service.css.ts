import { globalStyle, style } from "@vanilla-extract/css";
import { vars } from "~/app/styles/theme.css";

export const action = style({
  display: "grid",
  gap: vars.space.sm,
  maxWidth: "32rem",
  padding: vars.space.md,
  border: `1px solid ${vars.color.rule}`,
  borderRadius: vars.radius.md,
});

export const reason = style({
  fontFamily: vars.font.ui,
  fontSize: vars.size.md,
  padding: vars.space.sm,
  border: `1px solid ${vars.color.rule}`,
  borderRadius: vars.radius.sm,
  width: "100%",
  resize: "vertical",
});

export const duration = style({ display: "flex", gap: vars.space.sm });

export const actions = style({ display: "grid", gap: vars.space.md, gridTemplateColumns: "repeat(auto-fill, minmax(18rem, 1fr))" });

export const facts = style({
  display: "grid",
  gridTemplateColumns: "max-content minmax(0, 1fr)",
  gap: `${vars.space.xs} ${vars.space.md}`,
  margin: 0,
});

globalStyle(`${facts} dt`, { fontWeight: 700, fontFamily: vars.font.ui });
globalStyle(`${facts} dd`, { margin: 0, overflowWrap: "anywhere" });
