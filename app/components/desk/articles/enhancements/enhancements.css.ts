import { globalStyle, style } from "@vanilla-extract/css";
import { popover } from "~/app/components/controls.css";
import { vars } from "~/app/styles/theme.css";

// The article form's enhancements (ADR 085): the preview pane, the lists the comboboxes build
// and their suggestions.

/** The body as readers will see it, beside the text (its own scroll, as long as the text box). */
export const preview = style({
  border: `1px solid ${vars.color.rule}`,
  borderTop: `3px solid ${vars.color.ink}`,
  padding: `${vars.space.sm} ${vars.space.md}`,
  background: vars.color.paper,
  maxHeight: "40rem",
  overflowY: "auto",
});

export const previewHeading = style({
  fontFamily: vars.font.ui,
  fontSize: vars.size.sm,
  textTransform: "uppercase",
  letterSpacing: "0.06em",
  margin: 0,
});

export const previewNote = style({
  fontFamily: vars.font.ui,
  fontSize: vars.size.xs,
  color: vars.color.muted,
  margin: `${vars.space.xs} 0 0`,
});

/** The suggestions, under the field, over what follows it. */
export const popup = style([
  popover,
  {
    top: 0,
    left: 0,
    right: 0,
    maxHeight: "20rem",
    overflowY: "auto",
    padding: `${vars.space.xs} 0`,
    gap: 0,
    fontFamily: vars.font.ui,
    fontSize: vars.size.sm,
    selectors: { "&[hidden]": { display: "none" } },
  },
]);

export const option = style({
  display: "flex",
  flexWrap: "wrap",
  justifyContent: "space-between",
  gap: vars.space.sm,
  padding: `${vars.space.sm} ${vars.space.md}`,
  cursor: "pointer",
  selectors: {
    "&:hover": { background: vars.color.wash },
    '&[aria-selected="true"]': { background: vars.color.wash, boxShadow: `inset 3px 0 0 ${vars.color.accent}` },
  },
});

export const optionLabel = style({ fontWeight: 700 });

export const hint = style({ color: vars.color.muted, fontSize: vars.size.xs, overflowWrap: "anywhere" });

/** What the combobox has chosen, in order, each with its moves. */
export const picked = style({
  listStyle: "none",
  margin: `${vars.space.sm} 0 0`,
  padding: 0,
  display: "grid",
  gap: vars.space.xs,
  fontFamily: vars.font.ui,
  fontSize: vars.size.sm,
  counterReset: "picked",
});

export const chip = style({
  display: "flex",
  flexWrap: "wrap",
  alignItems: "center",
  justifyContent: "space-between",
  gap: vars.space.sm,
  padding: `${vars.space.xs} ${vars.space.xs} ${vars.space.xs} ${vars.space.sm}`,
  border: `1px solid ${vars.color.rule}`,
  background: vars.color.wash,
  counterIncrement: "picked",
  "::before": { content: "counter(picked) '.'", fontWeight: 700, minWidth: "1.5em" },
});

export const chipText = style({ flex: "1 1 10rem", display: "grid", minWidth: 0 });

export const chipButtons = style({ display: "flex", gap: vars.space.xs });

export const chipButton = style({
  minHeight: vars.control.target,
  minWidth: vars.control.target,
  padding: `0 ${vars.space.sm}`,
  border: `1px solid ${vars.color.ink}`,
  background: vars.color.paper,
  color: vars.color.ink,
  font: "inherit",
  cursor: "pointer",
  selectors: { '&[aria-disabled="true"]': { opacity: 0.45, cursor: "default" } },
});

export const primary = style({ fontWeight: 700, color: vars.color.ink });

globalStyle(`${preview} > h2 + p`, { marginBottom: vars.space.sm });
