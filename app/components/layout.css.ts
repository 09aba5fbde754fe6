import { globalStyle, style } from "@vanilla-extract/css";
import { media, vars, visuallyHidden } from "~/app/styles/theme.css";
import { linkButton, popover } from "./controls.css";
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

/**
 * The header and the section nav. From a tablet's width both stay on screen as the page scrolls;
 * on a phone only the header's logo row does (the wrapper gives up its box, so the header sticks
 * within the whole page), which keeps what the page loses to it under 64 px.
 */
export const masthead = style({
  "@media": {
    [media.narrow]: { display: "contents" },
    [media.tablet]: { position: "sticky", top: 0, zIndex: 10, background: vars.color.paper },
    print: { position: "static" },
  },
});

export const header = style({
  background: vars.color.paper,
  borderBottom: `1px solid ${vars.color.rule}`,
  "@media": { [media.narrow]: { position: "sticky", top: 0, zIndex: 10 } },
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

/**
 * The wordmark (public/brand/wordmark.svg: the meridian disc and the name, drawn as outlines).
 * The link keeps the name as its text, for screen readers and for a page read without styles; it
 * is moved out of the box, and shown again where the system's own colours replace images.
 */
export const logo = style({
  display: "block",
  flexShrink: 0,
  height: "2rem",
  aspectRatio: "390.6 / 45.8",
  minWidth: 0,
  overflow: "hidden",
  whiteSpace: "nowrap",
  textIndent: "110%",
  background: "url(/brand/wordmark.svg) left center / contain no-repeat",
  fontFamily: vars.font.body,
  fontWeight: 700,
  color: vars.color.ink,
  textDecoration: "none",
  transition: "height 150ms ease",
  "@media": {
    // Room for the search, cart and menu buttons beside it at 320 px; small enough not to shrink.
    [media.narrow]: { height: "clamp(1.25rem, 5.4vw, 1.875rem)" },
    [media.tablet]: { selectors: { "[data-scrolled] &": { height: "1.5rem" } } },
    [media.desktop]: { height: "2.5rem" },
    "(forced-colors: active)": { background: "none", textIndent: 0, aspectRatio: "auto", height: "auto", fontSize: vars.size.xl },
  },
});

export const headerTools = style({
  display: "flex",
  flexWrap: "wrap",
  alignItems: "center",
  gap: vars.space.md,
  fontSize: vars.size.sm,
  "@media": {
    [media.narrow]: { flexWrap: "nowrap", gap: vars.space.sm },
    // The row's spare width goes to the search field.
    [fullField]: { flex: "1 1 auto", justifyContent: "flex-end" },
  },
});

/** The reader's links in the header row; on a phone they are in the menu instead. */
export const userLinks = style({
  display: "contents",
  "@media": { [media.narrow]: { display: "none" } },
});

/** "Subscribe", the header's call to action: the site's primary button, a size smaller. */
export const subscribeLink = style({
  display: "inline-flex",
  alignItems: "center",
  minHeight: "2.25rem",
  padding: `0 ${vars.space.md}`,
  borderRadius: vars.radius.md,
  background: vars.color.accent,
  color: vars.color.accentInk,
  fontWeight: 700,
  textDecoration: "none",
  whiteSpace: "nowrap",
  selectors: { "&:hover": { textDecoration: "underline" } },
});

/** The reader's links beside it (cart, sign-in, library): ink, not link blue, underlined on hover as the section nav is. */
globalStyle(`${headerTools} a:not(${subscribeLink})`, {
  color: vars.color.ink,
  fontFamily: vars.font.ui,
  fontWeight: 600,
  textDecoration: "none",
});
globalStyle(`${headerTools} a:not(${subscribeLink}):hover`, { textDecoration: "underline" });

export const menuHolder = style({ display: "contents" });

export const menuToggle = style({
  display: "none",
  "@media": {
    [media.narrow]: {
      display: "inline-flex",
      alignItems: "center",
      gap: vars.space.xs,
      padding: `${vars.space.xs} ${vars.space.sm}`,
      font: "inherit",
      fontWeight: 600,
      color: vars.color.ink,
      textDecoration: "none",
      background: "none",
      border: `1px solid ${vars.color.rule}`,
      borderRadius: vars.radius.md,
      cursor: "pointer",
      selectors: { '&[aria-expanded="true"]': { background: vars.color.ink, color: vars.color.paper } },
    },
  },
});

export const menuWord = style({ "@media": { [media.smallPhone]: visuallyHidden } });

export const menuIcon = style({ width: "1rem", height: "1rem", flex: "none" });

/** The open menu: a panel across the screen under the sticky header, scrolling on its own. */
export const menuPanel = style({
  position: "absolute",
  top: "100%",
  left: 0,
  right: 0,
  zIndex: 20,
  maxHeight: "calc(100vh - 4rem)",
  overflowY: "auto",
  padding: vars.space.md,
  background: vars.color.paper,
  borderBottom: `1px solid ${vars.color.rule}`,
  boxShadow: "0 0.75rem 1.5rem rgba(0, 0, 0, 0.18)",
  fontSize: vars.size.md,
  selectors: { "&[hidden]": { display: "none" } },
});

export const menuAccount = style({
  display: "flex",
  flexWrap: "wrap",
  alignItems: "center",
  gap: `${vars.space.sm} ${vars.space.lg}`,
  paddingBottom: vars.space.md,
  marginBottom: vars.space.md,
  borderBottom: `1px solid ${vars.color.rule}`,
});

export const menuSections = style({
  display: "grid",
  gridTemplateColumns: "repeat(auto-fill, minmax(9rem, 1fr))",
  gap: `${vars.space.xs} ${vars.space.lg}`,
  listStyle: "none",
  margin: 0,
  padding: 0,
});

export const menuSection = style({
  display: "block",
  paddingBlock: vars.space.sm,
  color: vars.color.ink,
  fontWeight: 600,
  textDecoration: "none",
  selectors: { "&[aria-current]": { color: vars.color.accent, textDecoration: "underline" } },
});

export const inlineForm = style({ display: "inline", margin: 0 });

/** "Log out" in the header reads as the reader's links beside it. */
globalStyle(`${headerTools} ${linkButton}`, { color: vars.color.ink, fontFamily: vars.font.ui, fontWeight: 600, textDecoration: "none" });
globalStyle(`${headerTools} ${linkButton}:hover`, { textDecoration: "underline" });

export const nav = style({ borderBottom: `1px solid ${vars.color.rule}`, background: vars.color.paper });

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
  // A shadow at an edge with more sections beyond it, so that the row shows that it scrolls. The
  // paper-coloured covers scroll with the list and hide each shadow once its end is reached.
  background: [
    `linear-gradient(to right, ${vars.color.paper} 40%, transparent) left / 2.5rem 100% no-repeat local`,
    `linear-gradient(to left, ${vars.color.paper} 40%, transparent) right / 2.5rem 100% no-repeat local`,
    "radial-gradient(farthest-side at 0 50%, rgba(0, 0, 0, 0.28), transparent) left / 0.875rem 100% no-repeat scroll",
    "radial-gradient(farthest-side at 100% 50%, rgba(0, 0, 0, 0.28), transparent) right / 0.875rem 100% no-repeat scroll",
    vars.color.paper,
  ].join(", "),
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
  // Two columns on a 320 px phone.
  gridTemplateColumns: "repeat(auto-fill, minmax(8.5rem, 1fr))",
  gap: `${vars.space.sm} ${vars.space.md}`,
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

/** The footer's index of pages reads as the section nav: underlined only under the pointer. */
globalStyle(`${footerLinks} a:not(:hover)`, { textDecoration: "none" });

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

/** A signed-in reader's menu in the header row (with JS): the name, then a flyout of links. */
export const accountHolder = style({ position: "relative", display: "inline-block" });

export const accountToggle = style([
  linkButton,
  { display: "inline-flex", alignItems: "center", gap: vars.space.xs, textDecoration: "none", whiteSpace: "nowrap" },
]);

export const chevron = style({
  width: "0.75rem",
  height: "0.75rem",
  transition: "transform 120ms ease",
  selectors: { '[aria-expanded="true"] > &': { transform: "rotate(180deg)" } },
});

export const accountPanel = style([
  popover,
  { right: 0, minWidth: "13rem", fontFamily: vars.font.ui, selectors: { "&[hidden]": { display: "none" } } },
]);

export const accountLinks = style({ display: "grid", gap: vars.space.sm, listStyle: "none", margin: 0, padding: 0 });
