import { style } from "@vanilla-extract/css";
import { vars } from "~/app/styles/theme.css";

// The desk's store pages (ADR 091): a product's cover beside its form, and the forms that sit
// side by side on a format's page (its price and its file).

/** A product's cover as a thumbnail, as the store's card shows it. */
export const cover = style({ display: "block", width: "9rem", height: "auto", border: `1px solid ${vars.color.rule}` });

/** A section of a page with its heading and form. */
export const section = style({ display: "grid", gap: vars.space.md, minWidth: 0 });

/** A small form that sits in a table cell or after a paragraph: its button inline. */
export const inlineForm = style({ display: "inline" });
