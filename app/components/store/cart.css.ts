import { globalStyle, style } from "@vanilla-extract/css";
import { media, vars, visuallyHidden } from "~/app/styles/theme.css";
import { popover } from "~/app/components/controls.css";

export const section = style({ margin: `0 0 ${vars.space.xl}` });

export const table = style({ width: "100%", borderCollapse: "collapse", fontFamily: vars.font.ui, fontSize: vars.size.sm });

globalStyle(`${table} th, ${table} td`, {
  textAlign: "left",
  verticalAlign: "top",
  padding: `${vars.space.sm} ${vars.space.sm} ${vars.space.sm} 0`,
  borderBottom: `1px solid ${vars.color.rule}`,
});
globalStyle(`${table} thead th`, { fontSize: vars.size.xs, textTransform: "uppercase", letterSpacing: "0.06em", color: vars.color.muted });

/** On narrow screens each line becomes a block, every cell labelled by its column. */
globalStyle(`${table} td[data-label]::before`, {
  "@media": { [media.narrow]: { content: "attr(data-label) ': '", fontWeight: 700 } },
});
globalStyle(`${table} thead`, {
  "@media": { [media.narrow]: { position: "absolute", width: 1, height: 1, overflow: "hidden", clip: "rect(0 0 0 0)" } },
});
globalStyle(`${table} tr, ${table} td, ${table} th[scope=row]`, { "@media": { [media.narrow]: { display: "block", borderBottom: 0 } } });
/**
 * On a phone a line is four short rows, not one row a field: the item across, then format and
 * type, quantity and total, unit price and Remove, each pair side by side.
 */
globalStyle(`${table} tbody tr`, {
  "@media": {
    [media.narrow]: {
      display: "grid",
      gridTemplateColumns: "minmax(0, 1fr) auto",
      columnGap: vars.space.md,
      alignItems: "start",
      borderBottom: `1px solid ${vars.color.rule}`,
      paddingBlock: vars.space.sm,
    },
  },
});
globalStyle(`${table} tbody tr > *`, { "@media": { [media.narrow]: { padding: `${vars.space.xs} 0` } } });
const narrowPlace: [number, string, string][] = [
  [1, "1", "1 / -1"],
  [2, "2", "1"],
  [3, "2", "2"],
  [4, "3", "1"],
  [5, "4", "1"],
  [6, "3", "2"],
  [7, "4", "2"],
];
for (const [child, gridRow, gridColumn] of narrowPlace)
  globalStyle(`${table} tbody tr > :nth-child(${child})`, {
    "@media": { [media.narrow]: { gridRow, gridColumn, textAlign: gridColumn === "2" ? "right" : "left" } },
  });

export const amount = style({ textAlign: "right", whiteSpace: "nowrap" });

/** A cart line's thumbnail beside its title. */
export const lineItem = style({ display: "flex", alignItems: "flex-start", gap: vars.space.sm, textAlign: "left" });

export const thumbnail = style({
  flex: "none",
  width: "3rem",
  height: "4rem",
  boxShadow: "0 1px 3px rgba(0, 0, 0, 0.25)",
  background: vars.color.wash,
});

export const muted = style({ color: vars.color.muted, fontSize: vars.size.xs, display: "block", whiteSpace: "normal" });

export const stepper = style({
  display: "flex",
  flexWrap: "nowrap",
  alignItems: "center",
  gap: vars.space.xs,
  marginBottom: vars.space.xs,
});

export const inlineForm = style({ display: "inline", margin: 0 });

export const stepButton = style({
  minWidth: vars.control.target,
  minHeight: vars.control.target,
  border: `2px solid ${vars.color.ink}`,
  background: vars.color.paper,
  color: vars.color.ink,
  fontSize: vars.size.lg,
  cursor: "pointer",
  selectors: { "&:disabled": { borderColor: vars.color.rule, color: vars.color.muted, cursor: "not-allowed" } },
});

export const quantityInput = style({
  width: "3.5rem",
  minHeight: vars.control.target,
  padding: `0 ${vars.space.sm}`,
  border: `2px solid ${vars.color.ink}`,
  font: "inherit",
  textAlign: "center",
  selectors: { '&[aria-invalid="true"]': { borderColor: vars.color.error, borderWidth: "3px" } },
});

export const quantityValue = style({
  display: "inline-flex",
  alignItems: "center",
  justifyContent: "center",
  width: "3.5rem",
  minHeight: vars.control.target,
});

export const lineError = style({ color: vars.color.error, fontWeight: 700, margin: `${vars.space.xs} 0 0` });

export const totals = style({
  display: "grid",
  gridTemplateColumns: "auto auto",
  justifyContent: "end",
  gap: `${vars.space.xs} ${vars.space.lg}`,
  fontFamily: vars.font.ui,
  margin: `0 0 ${vars.space.lg}`,
});

globalStyle(`${totals} dd`, { margin: 0, textAlign: "right" });

export const grandTotal = style({ fontWeight: 700, fontSize: vars.size.lg });

export const actions = style({
  display: "flex",
  flexWrap: "wrap",
  gap: vars.space.md,
  alignItems: "center",
  fontFamily: vars.font.ui,
  margin: `0 0 ${vars.space.lg}`,
});

export const layout = style({
  display: "grid",
  gap: vars.space.xl,
  "@media": { [media.desktop]: { gridTemplateColumns: "minmax(0, 1fr) 20rem" } },
});

export const estimate = style({ border: `1px solid ${vars.color.rule}`, padding: vars.space.md, fontFamily: vars.font.ui });

export const details = style({
  display: "grid",
  gridTemplateColumns: "auto 1fr",
  gap: `${vars.space.xs} ${vars.space.md}`,
  fontFamily: vars.font.ui,
  fontSize: vars.size.sm,
  margin: `0 0 ${vars.space.md}`,
});

globalStyle(`${details} dt`, { fontWeight: 700 });
globalStyle(`${details} dd`, { margin: 0 });

export const notice = style({
  padding: `${vars.space.sm} ${vars.space.md}`,
  background: vars.color.notice,
  fontFamily: vars.font.ui,
  fontWeight: 700,
  margin: `0 0 ${vars.space.md}`,
});

export const recommendations = style({
  listStyle: "none",
  padding: 0,
  margin: 0,
  display: "grid",
  gap: vars.space.md,
  gridTemplateColumns: "repeat(auto-fill, minmax(12rem, 1fr))",
});

export const recommendation = style({
  borderTop: `3px solid ${vars.color.ink}`,
  paddingTop: vars.space.sm,
  fontFamily: vars.font.ui,
  fontSize: vars.size.sm,
});

export const failure = style({
  borderLeft: `6px solid ${vars.color.error}`,
  padding: vars.space.md,
  background: vars.color.wash,
  fontFamily: vars.font.ui,
  margin: `0 0 ${vars.space.lg}`,
  maxWidth: "40rem",
});

globalStyle(`${failure} h2, ${failure} h1`, { marginTop: 0 });

export const dialog = style({
  width: "min(40rem, 94vw)",
  maxHeight: "90vh",
  overflow: "auto",
  padding: vars.space.lg,
  border: `1px solid ${vars.color.rule}`,
  boxShadow: "0 0.5rem 2rem rgba(0, 0, 0, 0.25)",
  selectors: { "&::backdrop": { background: "rgba(0, 0, 0, 0.4)" } },
});

export const addForm = style({ display: "grid", gap: vars.space.md, maxWidth: "20rem" });

/** The header's cart menu and its flyout. */
export const miniCart = style({ position: "relative", display: "inline-block" });

export const miniCartLink = style({
  whiteSpace: "nowrap",
  "@media": { [media.narrow]: { position: "relative", display: "inline-flex", alignItems: "center", padding: vars.space.xs } },
});

export const miniCartIcon = style({
  display: "none",
  "@media": { [media.narrow]: { display: "block", flex: "none", width: "1.5rem", height: "1.5rem", color: vars.color.ink } },
});

export const miniCartWord = style({ "@media": { [media.narrow]: visuallyHidden } });

/** On a phone, a badge on the cart icon. */
export const miniCartCount = style({
  "@media": {
    [media.narrow]: {
      position: "absolute",
      top: 0,
      right: 0,
      minWidth: "1.125rem",
      height: "1.125rem",
      paddingInline: "0.25rem",
      borderRadius: "0.5625rem",
      background: vars.color.accent,
      color: vars.color.paper,
      fontSize: vars.size.xs,
      fontWeight: 700,
      lineHeight: "1.125rem",
      textAlign: "center",
    },
  },
});

export const miniCartFlyout = style([
  popover,
  {
    right: 0,
    width: "min(20rem, 90vw)",
    fontFamily: vars.font.ui,
    "@media": { [media.narrow]: { position: "fixed", top: "3rem", left: vars.space.sm, right: vars.space.sm, width: "auto" } },
  },
]);

export const miniCartLines = style({ listStyle: "none", padding: 0, margin: 0, display: "grid", gap: vars.space.xs });

export const miniCartLine = style({ display: "flex", justifyContent: "space-between", gap: vars.space.sm });

export const miniCartAmount = style({ whiteSpace: "nowrap", textAlign: "right" });

export const block = style({ display: "block" });
