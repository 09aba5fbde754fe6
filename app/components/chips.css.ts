import { style } from "@vanilla-extract/css";
import { vars } from "~/app/styles/theme.css";
import { pill } from "./controls.css";

// Apart from controls.css, which every page's scripts load: only the pages with chips or tabs load these.

/** A row of chips: a store's product types, search's topics and orders, an article's and a subject's topics. */
export const chipList = style({ display: "flex", flexWrap: "wrap", gap: vars.space.xs, listStyle: "none", padding: 0, margin: 0 });

/** A chip: a link to a shelf or a topic in a smaller pill, filled when it is the page the reader is on. */
export const chip = style([pill, { minHeight: "2rem", padding: `0 ${vars.space.sm}` }]);

/** A row of tabs: pages of one place (My Library's, a podcast's seasons, the share page's networks), on a rule. */
export const tabList = style({
  display: "flex",
  flexWrap: "wrap",
  columnGap: vars.space.md,
  listStyle: "none",
  padding: 0,
  margin: `0 0 ${vars.space.lg}`,
  borderBottom: `1px solid ${vars.color.rule}`,
  fontFamily: vars.font.ui,
  fontSize: vars.size.sm,
});

/** A tab: ink, marked under by the accent when it is the page the reader is on. */
export const tab = style({
  display: "inline-block",
  padding: `${vars.space.sm} 0`,
  borderBottom: "3px solid transparent",
  color: vars.color.ink,
  fontWeight: 600,
  textDecoration: "none",
  selectors: {
    "&:hover": { borderBottomColor: vars.color.rule, color: vars.color.ink },
    '&[aria-current="page"]': { borderBottomColor: vars.color.accent, fontWeight: 700 },
  },
});
