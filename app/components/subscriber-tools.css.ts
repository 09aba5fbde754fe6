import { globalStyle, style } from "@vanilla-extract/css";
import { vars } from "~/app/styles/theme.css";

export const section = style({
  borderTop: `3px solid ${vars.color.ink}`,
  marginTop: vars.space.xl,
  paddingTop: vars.space.sm,
  fontFamily: vars.font.ui,
});

export const heading = style({ fontSize: vars.size.lg, marginTop: 0 });

export const linkRow = style({ display: "flex", gap: vars.space.sm });

export const linkList = style({ listStyle: "none", padding: 0, margin: 0, display: "grid", gap: vars.space.sm });

export const notes = style({ listStyle: "none", padding: 0, margin: `0 0 ${vars.space.lg}`, display: "grid", gap: vars.space.md });

export const note = style({ borderLeft: `4px solid ${vars.color.rule}`, paddingLeft: vars.space.md });

globalStyle(`${note} > *`, { margin: `0 0 ${vars.space.sm}` });

export const noteMeta = style({ fontSize: vars.size.sm, color: vars.color.muted });

export const noteQuote = style({ fontFamily: vars.font.body, fontStyle: "italic" });

/** A reader's own words: the line breaks they typed are kept. */
export const noteText = style({ whiteSpace: "pre-line" });

export const textarea = style({ minHeight: "7rem", padding: vars.space.sm, resize: "vertical" });
