import { globalStyle, style } from "@vanilla-extract/css";
import { media, vars, visuallyHidden } from "~/app/styles/theme.css";

export const layout = style({
  display: "grid",
  gap: vars.space.xl,
  alignItems: "start",
  gridTemplateColumns: "minmax(0, 1fr)",
  "@media": { [media.desktop]: { gridTemplateColumns: "minmax(0, 3fr) minmax(22rem, 2fr)" } },
});

/** The order summary comes first, above the form on a phone, and stands beside it on a desktop. */
export const summaryFirst = style({ "@media": { [media.desktop]: { gridColumn: 2, gridRow: 1 } } });

export const panel = style({ padding: vars.space.md, background: vars.color.wash, fontFamily: vars.font.ui });

export const fieldset = style({ border: 0, padding: 0, margin: 0, display: "grid", gap: vars.space.md });

export const legend = style({
  fontFamily: vars.font.body,
  fontSize: vars.size.xl,
  fontWeight: 700,
  padding: 0,
  marginBottom: vars.space.sm,
});

export const choices = style({ display: "grid", gap: vars.space.sm, listStyle: "none", padding: 0, margin: 0, fontFamily: vars.font.ui });

export const choice = style({ display: "flex", gap: vars.space.sm, alignItems: "flex-start" });

export const inline = style({ display: "flex", flexWrap: "wrap", gap: vars.space.sm, alignItems: "flex-end" });

export const grow = style({ flex: "1 1 12rem" });

export const lines = style({ width: "100%", borderCollapse: "collapse", fontFamily: vars.font.ui });
globalStyle(`${lines} th, ${lines} td`, {
  textAlign: "left",
  padding: `${vars.space.xs} ${vars.space.sm}`,
  borderBottom: `1px solid ${vars.color.rule}`,
  verticalAlign: "top",
});
globalStyle(`${lines} .amount`, { textAlign: "right", whiteSpace: "nowrap" });

/** On narrow screens a line is its item, then its quantity, price and total in a row, each labelled. */
globalStyle(`${lines} thead`, { "@media": { [media.narrow]: visuallyHidden } });
globalStyle(`${lines} tr`, {
  "@media": {
    [media.narrow]: {
      display: "flex",
      flexWrap: "wrap",
      columnGap: vars.space.md,
      padding: `${vars.space.xs} 0`,
      borderBottom: `1px solid ${vars.color.rule}`,
    },
  },
});
globalStyle(`${lines} td`, { "@media": { [media.narrow]: { display: "block", padding: 0, border: 0 } } });
globalStyle(`${lines} td:first-child`, { "@media": { [media.narrow]: { flexBasis: "100%" } } });
globalStyle(`${lines} td[data-label]::before`, { "@media": { [media.narrow]: { content: "attr(data-label) ': '" } } });

export const totals = style({
  display: "grid",
  gridTemplateColumns: "1fr auto",
  gap: `${vars.space.xs} ${vars.space.md}`,
  fontFamily: vars.font.ui,
  margin: `${vars.space.md} 0`,
});
globalStyle(`${totals} dd`, { margin: 0, textAlign: "right" });
globalStyle(`${totals} .grand`, { fontWeight: 700, fontSize: vars.size.lg });

/** Text holding an e-mail address, which may be wider than a phone and has nowhere to wrap. */
export const withAddress = style({ overflowWrap: "anywhere" });

export const muted = style({ color: vars.color.muted, fontSize: vars.size.sm });

export const good = style({ fontFamily: vars.font.ui, fontWeight: 700, color: vars.color.success });

export const bad = style({ fontFamily: vars.font.ui, fontWeight: 700, color: vars.color.error });

export const address = style({ fontStyle: "normal", fontFamily: vars.font.ui });

/** The receipt prints without the site around it. */
export const receipt = style({
  "@media": {
    print: { fontSize: "11pt", color: "#000" },
  },
});
export const noPrint = style({ "@media": { print: { display: "none" } } });
globalStyle(`body:has(${receipt}) > :not(main)`, { "@media": { print: { display: "none" } } });

/** A line's cover beside its title. */
export const lineItem = style({ display: "flex", alignItems: "flex-start", gap: vars.space.sm });
