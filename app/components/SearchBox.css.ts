import { style, type StyleRule } from "@vanilla-extract/css";
import { breakpoints, vars } from "~/app/styles/theme.css";
import { popover } from "./controls.css";

// Below 1200 px the field folds into an icon in the tools row, and opens over the header bar
// (its containing block) while it has focus or text, so the sticky header keeps its height; from
// 1200 px the row has room for the field beside a signed-in reader's links. The states are CSS
// only, so this works without JS too.
const FULL_FIELD_MIN_WIDTH = 1200;
/** The header shows the whole field in the tools row (layout.css.ts gives it the spare width). */
export const fullField = `screen and (min-width: ${FULL_FIELD_MIN_WIDTH}px)`;
const compact = `screen and (max-width: ${FULL_FIELD_MIN_WIDTH - 1}px)`;
const compactTablet = `screen and (min-width: ${breakpoints.tablet}px) and (max-width: ${FULL_FIELD_MIN_WIDTH - 1}px)`;
const compactDesktop = `screen and (min-width: ${breakpoints.desktop}px) and (max-width: ${FULL_FIELD_MIN_WIDTH - 1}px)`;

type Rules = NonNullable<StyleRule["selectors"]>[string];

// Two rules, not one list: a browser without :has() drops only that rule and still opens on focus.
const OPEN = [":focus-within", ":has(input:not(:placeholder-shown))"];
const openSelf = (rules: Rules) => Object.fromEntries(OPEN.map((state) => [`&${state}`, rules]));

/** Holds the field's place in the tools row. */
export const slot = style({
  // On desktop it takes what the row has to spare, between a usable width and a comfortable one.
  flex: "1 1 8rem",
  minWidth: "8rem",
  maxWidth: "16rem",
  "@media": {
    [compact]: { flex: "none", minWidth: 0, width: "2rem", height: "1.375rem", display: "flex", alignItems: "center" },
  },
});

export const form = style({
  position: "relative",
  margin: 0,
  "@media": {
    [compact]: {
      position: "static",
      selectors: openSelf({
        position: "absolute",
        inset: 0,
        zIndex: 2,
        display: "flex",
        alignItems: "center",
        paddingInline: vars.space.md,
        background: vars.color.paper,
      }),
    },
    [compactTablet]: { selectors: openSelf({ paddingInline: vars.space.lg }) },
    // Room for the logo beside the open field.
    [compactDesktop]: { selectors: openSelf({ left: "auto", width: "40rem" }) },
  },
});

const whenOpen = (rules: Rules) => Object.fromEntries(OPEN.map((state) => [`${form}${state} &`, rules]));

export const field = style({
  display: "flex",
  alignItems: "center",
  height: "2.25rem",
  background: vars.color.paper,
  border: `1px solid ${vars.color.rule}`,
  borderRadius: vars.radius.md,
  transition: "border-color 120ms ease, height 150ms ease",
  selectors: {
    "&:hover": { borderColor: vars.color.muted },
    // The site's focus ring (global.css.ts), drawn round the whole field.
    "&:focus-within": {
      borderColor: vars.color.ink,
      outline: `3px solid ${vars.color.focus}`,
      outlineOffset: "2px",
      boxShadow: `0 0 0 5px ${vars.color.ink}`,
    },
  },
  "@media": {
    // No taller than the small logo after scrolling, or the sticky header would grow.
    [fullField]: { selectors: { "[data-scrolled] &": { height: "1.875rem" } } },
    [compact]: {
      position: "relative",
      justifyContent: "center",
      width: "2rem",
      height: "2rem",
      border: 0,
      selectors: whenOpen({
        position: "static",
        justifyContent: "flex-start",
        flex: 1,
        width: "auto",
        height: "2.5rem",
        border: `1px solid ${vars.color.ink}`,
      }),
    },
  },
});

export const icon = style({
  flex: "none",
  width: "1.125rem",
  marginLeft: vars.space.sm,
  color: vars.color.muted,
  pointerEvents: "none",
  "@media": {
    [compact]: {
      width: "1.25rem",
      marginLeft: 0,
      color: vars.color.ink,
      selectors: whenOpen({ marginLeft: vars.space.sm, color: vars.color.muted }),
    },
  },
});

export const input = style({
  flex: 1,
  minWidth: 0,
  height: "100%",
  padding: `0 ${vars.space.sm}`,
  border: 0,
  background: "transparent",
  color: vars.color.ink,
  fontSize: vars.size.sm,
  appearance: "none",
  selectors: {
    "&:focus-visible": { outline: "none", boxShadow: "none" },
    "&::placeholder": { color: vars.color.muted, opacity: 1 },
    "&::-webkit-search-decoration": { appearance: "none" },
  },
  "@media": {
    [compact]: {
      position: "absolute",
      inset: 0,
      width: "100%",
      padding: 0,
      color: "transparent",
      cursor: "pointer",
      // At least 16 px, or phones zoom the page in when the field takes focus.
      fontSize: "1rem",
      selectors: {
        "&::placeholder": { color: "transparent" },
        "&::-webkit-search-cancel-button": { display: "none" },
        ...whenOpen({ position: "static", width: "auto", padding: `0 ${vars.space.sm}`, color: vars.color.ink, cursor: "text" }),
        [`${form}:focus-within &::placeholder`]: { color: vars.color.muted },
        [`${form}:focus-within &::-webkit-search-cancel-button`]: { display: "block" },
      },
    },
  },
});

export const submit = style({
  flex: "none",
  display: "flex",
  alignItems: "center",
  justifyContent: "center",
  width: "2.25rem",
  height: "100%",
  padding: 0,
  border: 0,
  borderRadius: `0 ${vars.radius.md} ${vars.radius.md} 0`,
  background: "none",
  color: vars.color.ink,
  cursor: "pointer",
  selectors: {
    "&:hover": { color: vars.color.accent },
    "&:focus-visible": { outline: "none", boxShadow: "none", background: vars.color.wash, color: vars.color.accent },
  },
  "@media": { [compact]: { display: "none", selectors: whenOpen({ display: "flex" }) } },
});

export const popup = style([
  popover,
  {
    right: 0,
    width: "min(30rem, calc(100vw - 2rem))",
    maxHeight: "min(32rem, 70vh)",
    overflowY: "auto",
    padding: `${vars.space.xs} 0`,
    gap: 0,
    fontSize: vars.size.sm,
    selectors: { "&[hidden]": { display: "none" } },
    "@media": {
      [compact]: { left: vars.space.md, right: vars.space.md, width: "auto" },
      [compactTablet]: { left: vars.space.lg, right: vars.space.lg },
    },
  },
]);

export const group = style({
  paddingBlock: vars.space.xs,
  selectors: { "& + &": { borderTop: `1px solid ${vars.color.rule}` } },
});

export const groupLabel = style({
  padding: `${vars.space.xs} ${vars.space.md}`,
  color: vars.color.muted,
  fontSize: vars.size.xs,
  fontWeight: 700,
  letterSpacing: "0.06em",
  textTransform: "uppercase",
});

export const option = style({
  display: "grid",
  gap: "0.125rem",
  padding: `${vars.space.sm} ${vars.space.md}`,
  color: vars.color.ink,
  textDecoration: "none",
  selectors: {
    "&:hover": { color: vars.color.ink, background: vars.color.wash },
    '&[aria-selected="true"]': { background: vars.color.wash, boxShadow: `inset 3px 0 0 ${vars.color.accent}` },
  },
});

export const optionLabel = style({ fontFamily: vars.font.body, fontWeight: 700, lineHeight: 1.3 });

export const optionType = style({ color: vars.color.muted, fontSize: vars.size.xs, letterSpacing: "0.04em", textTransform: "uppercase" });
