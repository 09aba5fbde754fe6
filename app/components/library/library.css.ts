import { style } from "@vanilla-extract/css";
import { media, vars } from "~/app/styles/theme.css";
import { popover } from "~/app/components/controls.css";

export const library = style({
  display: "grid",
  gap: vars.space.xl,
  "@media": { [media.desktop]: { gridTemplateColumns: "16rem minmax(0, 1fr)" } },
});

export const folders = style({ fontFamily: vars.font.ui, fontSize: vars.size.sm });

export const folderList = style({ listStyle: "none", padding: 0, margin: `0 0 ${vars.space.md}`, display: "grid", gap: vars.space.xs });

export const folderLink = style({
  display: "flex",
  justifyContent: "space-between",
  gap: vars.space.sm,
  padding: `${vars.space.xs} ${vars.space.sm}`,
  color: vars.color.ink,
  textDecoration: "none",
  selectors: { "&:hover": { textDecoration: "underline" } },
});

export const activeFolder = style({ background: vars.color.wash, fontWeight: 700 });

export const count = style({ color: vars.color.muted });

export const notice = style({
  padding: `${vars.space.sm} ${vars.space.md}`,
  background: vars.color.notice,
  fontFamily: vars.font.ui,
  margin: `0 0 ${vars.space.md}`,
});

export const items = style({ listStyle: "none", padding: 0, margin: `0 0 ${vars.space.md}`, display: "grid", gap: vars.space.md });

/** An editor's list, read in order: each item beside a large numeral. */
export const numberedItem = style({ display: "grid", gridTemplateColumns: "2.5rem minmax(0, 1fr)", columnGap: vars.space.sm });

export const itemNumber = style({
  fontFamily: vars.font.body,
  fontSize: vars.size.xl,
  fontWeight: 700,
  lineHeight: 1,
  color: vars.color.accent,
});

export const item = style({
  display: "grid",
  gridTemplateColumns: "auto 8rem minmax(0, 1fr)",
  gap: vars.space.md,
  alignItems: "start",
  paddingBottom: vars.space.md,
  borderBottom: `1px solid ${vars.color.rule}`,
});

export const thumb = style({ width: "100%", height: "auto", aspectRatio: "16 / 9", display: "block" });

export const itemTitle = style({ fontSize: vars.size.md, margin: `0 0 ${vars.space.xs}` });

export const itemMeta = style({
  fontFamily: vars.font.ui,
  fontSize: vars.size.xs,
  color: vars.color.muted,
  margin: `0 0 ${vars.space.xs}`,
});

export const itemActions = style({
  display: "flex",
  flexWrap: "wrap",
  gap: vars.space.md,
  alignItems: "center",
  fontFamily: vars.font.ui,
  fontSize: vars.size.sm,
});

export const bulk = style({
  border: `1px solid ${vars.color.rule}`,
  padding: vars.space.md,
  margin: `0 0 ${vars.space.md}`,
  fontFamily: vars.font.ui,
  fontSize: vars.size.sm,
});

export const checks = style({
  display: "flex",
  flexWrap: "wrap",
  gap: `${vars.space.xs} ${vars.space.md}`,
  margin: `0 0 ${vars.space.sm}`,
});

export const buttons = style({ display: "flex", flexWrap: "wrap", gap: vars.space.sm, alignItems: "center" });

export const emptyState = style({ padding: vars.space.lg, background: vars.color.wash, fontFamily: vars.font.ui });

export const giftIcon = style({ marginRight: vars.space.xs });

export const saveControl = style({ position: "relative", display: "inline-block", fontFamily: vars.font.ui, fontSize: vars.size.sm });

export const flyout = style([popover, { left: 0, width: "min(22rem, 90vw)" }]);

export const flyoutTitle = style({ fontSize: vars.size.md, margin: 0 });

export const flyoutClose = style({
  justifySelf: "start",
  font: "inherit",
  color: vars.color.link,
  background: "none",
  border: 0,
  padding: 0,
  textDecoration: "underline",
  cursor: "pointer",
});
