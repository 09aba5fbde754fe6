import { globalStyle } from "@vanilla-extract/css";
import { media, vars, visuallyHidden } from "./theme.css";

globalStyle("*, *::before, *::after", { boxSizing: "border-box" });
// In-page links land below the sticky header: the logo row on a phone, the header and section nav from a tablet up.
globalStyle("html", {
  WebkitTextSizeAdjust: "100%",
  scrollPaddingTop: "4rem",
  "@media": { [media.tablet]: { scrollPaddingTop: "7.5rem" } },
});
globalStyle("body", {
  overflowWrap: "break-word",
  margin: 0,
  fontFamily: vars.font.ui,
  fontSize: vars.size.md,
  lineHeight: 1.5,
  color: vars.color.ink,
  background: vars.color.paper,
});
globalStyle("img, svg", { maxWidth: "100%", height: "auto", display: "block" });
globalStyle("a", { color: vars.color.link, textUnderlineOffset: "0.15em" });
globalStyle("a:hover", { color: vars.color.accent });
globalStyle(":focus-visible", { outline: `3px solid ${vars.color.focus}`, outlineOffset: "2px", boxShadow: `0 0 0 5px ${vars.color.ink}` });
// A headline word longer than a phone's line breaks rather than widen the page.
globalStyle("h1, h2, h3", { fontFamily: vars.font.body, lineHeight: 1.2, margin: `0 0 ${vars.space.sm}`, overflowWrap: "anywhere" });
globalStyle("h1", { fontSize: vars.size.xxl });
globalStyle("h2", { fontSize: vars.size.xl });
globalStyle("h3", { fontSize: vars.size.lg });
globalStyle("p", { margin: `0 0 ${vars.space.md}` });
globalStyle("button, input, select", { font: "inherit" });

globalStyle(".visually-hidden", visuallyHidden);

// Print: the article and its metadata only, links spelled out, no chrome.
globalStyle("header[data-site-header], footer[data-site-footer], nav, [data-no-print], form", {
  "@media": { print: { display: "none !important" } },
});
globalStyle("body", { "@media": { print: { fontFamily: vars.font.body, fontSize: "11pt", color: "#000" } } });
globalStyle("main a[href^='/']::after", { "@media": { print: { content: '" (" attr(href) ")"', fontSize: "90%" } } });
