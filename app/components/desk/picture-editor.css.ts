import { style } from "@vanilla-extract/css";
import { vars } from "~/app/styles/theme.css";

export const figure = style({ margin: 0, maxWidth: "42rem", display: "grid", gap: vars.space.xs });

export const picture = style({ display: "block", width: "100%", height: "auto", background: vars.color.wash });

export const caption = style({ fontFamily: vars.font.ui, fontSize: vars.size.sm, color: vars.color.muted });

export const narrowFigure = style([figure, { maxWidth: "16rem" }]);

/** A file input is as wide as its button and file name together unless told otherwise: too wide at 320 px. */
export const fileInput = style({ width: "100%", minWidth: 0, fontFamily: vars.font.ui });
