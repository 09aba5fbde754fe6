import { style } from "@vanilla-extract/css";
import { media, vars } from "~/app/styles/theme.css";

export const loadMore = style({
  display: "inline-block",
  marginTop: vars.space.lg,
  padding: `${vars.space.sm} ${vars.space.lg}`,
  border: `2px solid ${vars.color.ink}`,
  color: vars.color.ink,
  fontWeight: 700,
  textDecoration: "none",
  selectors: { "&:hover": { background: vars.color.ink, color: vars.color.paper } },
});

export const pagination = style({ marginTop: vars.space.xl });

export const pages = style({ display: "flex", flexWrap: "wrap", gap: vars.space.xs, listStyle: "none", padding: 0, margin: 0 });

export const pageLink = style({
  display: "inline-block",
  minWidth: vars.control.target,
  minHeight: vars.control.target,
  lineHeight: vars.control.target,
  textAlign: "center",
  padding: `0 ${vars.space.sm}`,
  border: `1px solid ${vars.color.rule}`,
  textDecoration: "none",
  selectors: { '&[aria-current="page"]': { background: vars.color.ink, color: vars.color.paper, borderColor: vars.color.ink } },
});

export const gap = style([pageLink, { border: "none" }]);

export const wideOnly = style({ "@media": { [media.narrow]: { display: "none" } } });

export const count = style({ color: vars.color.muted, fontSize: vars.size.sm });
