import { style } from "@vanilla-extract/css";
import { media, vars } from "../styles/theme.css";
import { fullField } from "./SearchBox.css";

export const skipLink = style({
  position: "absolute",
  left: vars.space.sm,
  top: "-3rem",
  padding: vars.space.sm,
  background: vars.color.paper,
  zIndex: 20,
  selectors: { "&:focus": { top: vars.space.sm } },
});

export const page = style({
  maxWidth: vars.measure.page,
  margin: "0 auto",
  paddingInline: vars.space.md,
  "@media": { [media.tablet]: { paddingInline: vars.space.lg } },
});

export const header = style({
  position: "sticky",
  top: 0,
  zIndex: 10,
  background: vars.color.paper,
  borderBottom: `1px solid ${vars.color.rule}`,
  "@media": { print: { position: "static" } },
});

export const headerBar = style({
  // The compact search field opens over this row (SearchBox.css.ts).
  position: "relative",
  display: "flex",
  alignItems: "center",
  justifyContent: "space-between",
  gap: vars.space.md,
  paddingBlock: vars.space.sm,
});

export const logo = style({
  fontFamily: vars.font.body,
  fontWeight: 700,
  fontSize: vars.size.xl,
  color: vars.color.ink,
  textDecoration: "none",
  transition: "font-size 150ms ease",
  selectors: { "[data-scrolled] &": { fontSize: vars.size.lg } },
  "@media": {
    [media.desktop]: { fontSize: vars.size.xxl },
    // The search field gives up its width before the logo wraps.
    [fullField]: { flexShrink: 0 },
  },
});

export const headerTools = style({
  display: "flex",
  flexWrap: "wrap",
  alignItems: "center",
  gap: vars.space.md,
  fontSize: vars.size.sm,
  // The row's spare width goes to the search field.
  "@media": { [fullField]: { flex: "1 1 auto", justifyContent: "flex-end" } },
});

export const inlineForm = style({ display: "inline", margin: 0 });

/** A form's submit button that reads like the links beside it. */
export const linkButton = style({
  font: "inherit",
  color: vars.color.link,
  background: "none",
  border: 0,
  padding: 0,
  textDecoration: "underline",
  cursor: "pointer",
});

export const nav = style({ borderTop: `1px solid ${vars.color.rule}` });

export const navList = style({
  display: "flex",
  gap: vars.space.lg,
  listStyle: "none",
  marginBlock: 0,
  paddingBlock: vars.space.sm,
  overflowX: "auto",
  whiteSpace: "nowrap",
  fontSize: vars.size.sm,
  fontWeight: 600,
});

export const navLink = style({
  color: vars.color.ink,
  textDecoration: "none",
  selectors: { "&[aria-current]": { color: vars.color.accent, textDecoration: "underline" } },
});

export const main = style({ paddingBlock: vars.space.lg, minHeight: "60vh" });

export const footer = style({
  marginTop: vars.space.xxl,
  background: vars.color.ink,
  color: vars.color.paper,
  paddingBlock: vars.space.xl,
  fontSize: vars.size.sm,
});

export const footerLinks = style({
  display: "grid",
  gridTemplateColumns: "repeat(auto-fill, minmax(11rem, 1fr))",
  gap: vars.space.sm,
  listStyle: "none",
  padding: 0,
  margin: `0 0 ${vars.space.lg}`,
});

export const footerLink = style({
  color: vars.color.paper,
  // The service address is one long word: on a 320 px screen it breaks rather than widen the page.
  overflowWrap: "anywhere",
  selectors: { "&:hover": { color: vars.color.focus } },
});

export const banner = style({
  background: vars.color.notice,
  borderBottom: `1px solid ${vars.color.rule}`,
  padding: `${vars.space.sm} ${vars.space.md}`,
  fontSize: vars.size.sm,
  textAlign: "center",
});

/** The subscription level beside the reader's name in the user menu. */
export const caption = style({
  marginLeft: vars.space.xs,
  padding: `0 ${vars.space.xs}`,
  border: `1px solid ${vars.color.accent}`,
  borderRadius: vars.radius.sm,
  color: vars.color.accent,
  fontSize: vars.size.xs,
  textDecoration: "none",
  display: "inline-block",
});
