import { globalStyle, style } from "@vanilla-extract/css";
import { media, vars } from "~/app/styles/theme.css";
import { table } from "../desk.css";

// The reports page (ADR 090): its sections, and the desk's table (desk.css.ts) with figures set
// right from a tablet up and a totals row; on a phone each row is a card, its heading on top.

export const section = style({ display: "grid", gap: vars.space.md, minWidth: 0 });

globalStyle(`${section} h2, ${section} h3`, { margin: 0 });
globalStyle(`${section} p`, { margin: 0 });

/** A figure's cell: digits line up in columns. */
export const figure = style({ fontVariantNumeric: "tabular-nums" });

globalStyle(`${table} ${figure}`, { "@media": { [media.tablet]: { textAlign: "right" } } });

/** A row's heading cell (its day, product, tier or tag). */
export const rowHead = style({ fontWeight: 700 });

globalStyle(`${table} ${rowHead}`, { "@media": { [media.narrow]: { display: "block", border: 0, padding: `${vars.space.xs} 0` } } });

/** The totals under a table. */
export const totals = style({});

globalStyle(`${totals} th, ${totals} td`, { fontWeight: 700, "@media": { [media.tablet]: { borderTop: `2px solid ${vars.color.ink}` } } });
globalStyle(`${totals} tr`, { "@media": { [media.narrow]: { borderTop: `2px solid ${vars.color.ink}` } } });
