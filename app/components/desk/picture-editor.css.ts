import { style } from "@vanilla-extract/css";
import { vars } from "~/app/styles/theme.css";

export const figure = style({ margin: 0, maxWidth: "42rem", display: "grid", gap: vars.space.xs });

export const picture = style({ display: "block", width: "100%", height: "auto", background: vars.color.wash });

export const caption = style({ fontFamily: vars.font.ui, fontSize: vars.size.sm, color: vars.color.muted });

export const narrowFigure = style([figure, { maxWidth: "16rem" }]);

/**
 * A file input, still the browser's own control: a box that holds its button, drawn as the site's
 * secondary button, and the chosen file's name. As wide as its column (a file input is as wide
 * as its button and file name together unless told otherwise: too wide at 320 px).
 */
export const fileInput = style({
  width: "100%",
  minWidth: 0,
  boxSizing: "border-box",
  padding: vars.space.sm,
  border: `1px dashed ${vars.color.muted}`,
  background: vars.color.wash,
  fontFamily: vars.font.ui,
  fontSize: vars.size.sm,
  cursor: "pointer",
  selectors: {
    "&::file-selector-button": {
      minHeight: vars.control.target,
      marginRight: vars.space.md,
      padding: `0 ${vars.space.md}`,
      border: `${vars.control.border} solid ${vars.color.ink}`,
      background: vars.color.paper,
      color: vars.color.ink,
      font: "inherit",
      fontWeight: 700,
      cursor: "pointer",
    },
    "&:hover::file-selector-button": { borderColor: vars.color.accent, color: vars.color.accent },
  },
});
