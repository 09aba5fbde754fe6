import { globalStyle, style } from "@vanilla-extract/css";
import { vars } from "~/app/styles/theme.css";

/** The compose buttons in the newsletters' table. */
export const inlineForm = style({ margin: 0 });

/** The mail's HTML as it arrives, in a frame of its own (its own styles, no scripts). */
export const frame = style({
  width: "100%",
  height: "40rem",
  border: `1px solid ${vars.color.rule}`,
  background: "#fff",
});

/** The mail's plain text, as a mail program shows it. */
export const text = style({
  fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace",
  fontSize: vars.size.sm,
  whiteSpace: "pre-wrap",
  overflowWrap: "anywhere",
  border: `1px solid ${vars.color.rule}`,
  background: vars.color.wash,
  padding: vars.space.md,
  margin: 0,
});

/** An issue's text as it will go, when it can no longer be changed. */
export const sent = style({ display: "grid", gap: vars.space.md, maxWidth: "52rem" });
globalStyle(`${sent} h2`, { fontSize: vars.size.lg, margin: 0 });

export const sendOptions = style({ display: "grid", gap: vars.space.lg, maxWidth: "36rem" });

/** The issue page's main column, beside its panel: it narrows with the screen. */
export const column = style({ display: "grid", gap: vars.space.lg, minWidth: 0 });

/** An address or other long word that may break anywhere rather than widen the page. */
export const breakable = style({ overflowWrap: "anywhere" });
