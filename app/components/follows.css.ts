import { globalStyle, style } from "@vanilla-extract/css";
import { vars } from "~/app/styles/theme.css";

export const followRow = style({
  display: "flex",
  flexWrap: "wrap",
  alignItems: "center",
  gap: vars.space.md,
  fontFamily: vars.font.ui,
  marginBlock: vars.space.md,
});

/** Not yet following: the accent button; following: an outlined one, so the state shows at a glance. */
export const followButton = style({
  minHeight: vars.control.target,
  padding: `0 ${vars.space.lg}`,
  border: `2px solid ${vars.color.accent}`,
  background: vars.color.accent,
  color: vars.color.accentInk,
  fontFamily: vars.font.ui,
  fontWeight: 700,
  cursor: "pointer",
  selectors: {
    '&[data-following="true"]': { background: vars.color.paper, color: vars.color.accent },
    "&:disabled": { cursor: "progress", opacity: 0.75 },
  },
});

export const message = style({ margin: 0, fontFamily: vars.font.ui });

export const layout = style({
  display: "grid",
  gap: vars.space.xl,
  "@media": { "screen and (min-width: 768px)": { gridTemplateColumns: "16rem 1fr" } },
});

export const topicMenu = style({ listStyle: "none", padding: 0, margin: 0, fontFamily: vars.font.ui, display: "grid", gap: vars.space.xs });

export const topicMenuItem = style({
  display: "flex",
  justifyContent: "space-between",
  alignItems: "center",
  gap: vars.space.sm,
  minHeight: vars.control.target,
});

globalStyle(`${topicMenuItem} a[aria-current="page"]`, { fontWeight: 700, color: vars.color.ink });

export const removeLink = style({ fontSize: vars.size.sm, color: vars.color.accent, whiteSpace: "nowrap" });

export const confirm = style({
  border: `2px solid ${vars.color.ink}`,
  padding: vars.space.md,
  marginBottom: vars.space.lg,
  fontFamily: vars.font.ui,
  selectors: { "&:focus": { outline: `3px solid ${vars.color.focus}` } },
});

export const confirmQuestion = style({ fontSize: vars.size.lg, fontWeight: 700, marginTop: 0 });

export const list = style({ listStyle: "none", padding: 0, margin: 0, display: "grid", gap: vars.space.lg });

export const item = style({ borderTop: `3px solid ${vars.color.ink}`, paddingTop: vars.space.sm });

export const itemName = style({ fontSize: vars.size.lg, margin: 0 });

export const frequency = style({ fontFamily: vars.font.ui, fontSize: vars.size.sm, color: vars.color.muted, margin: `${vars.space.xs} 0` });
