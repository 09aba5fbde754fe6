import { style } from "@vanilla-extract/css";
import { media, vars } from "~/app/styles/theme.css";

export const layout = style({
  display: "grid",
  gap: vars.space.xl,
  "@media": { [media.desktop]: { gridTemplateColumns: "minmax(0, 1fr) 20rem" } },
});

export const player = style({ margin: `0 0 ${vars.space.md}` });

/** A player that fills its page's height: the embed's, in a frame of any size. */
export const fillPlayer = style({ margin: 0, height: "100%", minHeight: 0, boxSizing: "border-box" });

// The spec's poster box: 16:9, so 56.25% of the width; all of the screen when full screen.
export const stage = style({
  position: "relative",
  aspectRatio: "16 / 9",
  background: "#000",
  selectors: { [`${player}:fullscreen &, ${fillPlayer} &`]: { aspectRatio: "auto", height: "100%" } },
});

export const video = style({ display: "block", width: "100%", height: "100%" });

export const poster = style({ display: "block", width: "100%", height: "100%", objectFit: "cover" });

export const overlay = style({
  position: "absolute",
  inset: 0,
  display: "grid",
  alignContent: "center",
  justifyItems: "start",
  gap: vars.space.sm,
  padding: vars.space.lg,
  background: "rgba(0, 0, 0, 0.82)",
  color: vars.color.paper,
  fontFamily: vars.font.ui,
});

export const overlayTitle = style({ fontSize: vars.size.xl, margin: 0, color: vars.color.paper });

export const overlayText = style({ margin: 0, fontSize: vars.size.md });

export const overlayActions = style({ display: "flex", flexWrap: "wrap", gap: vars.space.sm, alignItems: "center" });

export const overlayLink = style({ color: vars.color.paper });

export const secondaryButton = style({
  font: "inherit",
  padding: `${vars.space.sm} ${vars.space.md}`,
  border: `2px solid ${vars.color.paper}`,
  borderRadius: vars.radius.sm,
  background: "transparent",
  color: vars.color.paper,
  cursor: "pointer",
});

export const meta = style({ fontFamily: vars.font.ui, fontSize: vars.size.sm, color: vars.color.muted, margin: `0 0 ${vars.space.md}` });

export const tags = style({
  display: "flex",
  flexWrap: "wrap",
  gap: vars.space.sm,
  listStyle: "none",
  padding: 0,
  fontFamily: vars.font.ui,
  fontSize: vars.size.xs,
});

export const tag = style({ padding: `${vars.space.xs} ${vars.space.sm}`, background: vars.color.wash, borderRadius: vars.radius.sm });

export const tools = style({
  borderTop: `1px solid ${vars.color.rule}`,
  marginTop: vars.space.lg,
  paddingTop: vars.space.md,
  fontFamily: vars.font.ui,
});

export const toolHeading = style({ fontSize: vars.size.md, margin: `0 0 ${vars.space.sm}` });

/** The networks and e-mail as a row of tool buttons, spaced as a page's other tools. */
export const shareList = style({
  display: "flex",
  flexWrap: "wrap",
  gap: vars.space.sm,
  listStyle: "none",
  padding: 0,
  margin: `0 0 ${vars.space.md}`,
});

export const embedCode = style({
  display: "block",
  width: "100%",
  fontFamily: "ui-monospace, Menlo, Consolas, monospace",
  fontSize: vars.size.xs,
  marginTop: vars.space.xs,
});

export const playlist = style({ fontFamily: vars.font.ui, fontSize: vars.size.sm });

export const playlistItems = style({ listStyle: "none", padding: 0, margin: `0 0 ${vars.space.md}`, display: "grid", gap: vars.space.sm });

export const playlistItem = style({ display: "grid", gridTemplateColumns: "7rem minmax(0, 1fr)", gap: vars.space.sm, alignItems: "start" });

export const thumb = style({ width: "100%", height: "auto", aspectRatio: "16 / 9", display: "block" });

export const itemTitle = style({ fontWeight: 600 });

export const current = style({ fontWeight: 700 });

/** A listed video's length, under its title. */
export const itemMeta = style({ display: "block", color: vars.color.muted, fontSize: vars.size.xs, marginTop: "0.125rem" });

export const embedPage = style({
  display: "grid",
  gridTemplateRows: "minmax(0, 1fr) auto",
  height: "100vh",
  margin: 0,
  background: "#000",
  fontFamily: vars.font.ui,
});

export const embedCaption = style({
  margin: 0,
  padding: vars.space.sm,
  background: vars.color.ink,
  color: vars.color.paper,
  fontSize: vars.size.sm,
});
