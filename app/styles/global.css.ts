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
globalStyle("a", { color: vars.color.link, textUnderlineOffset: vars.link.underlineOffset });
globalStyle("a:hover", { color: vars.color.accent });
globalStyle(":focus-visible", { outline: `3px solid ${vars.color.focus}`, outlineOffset: "2px", boxShadow: `0 0 0 5px ${vars.color.ink}` });
// A headline word longer than a phone's line breaks rather than widen the page.
globalStyle("h1, h2, h3", { fontFamily: vars.font.body, lineHeight: 1.2, margin: `0 0 ${vars.space.sm}`, overflowWrap: "anywhere" });
globalStyle("h1", { fontSize: vars.size.xxl });
globalStyle("h2", { fontSize: vars.size.xl });
globalStyle("h3", { fontSize: vars.size.lg });
globalStyle("p", { margin: `0 0 ${vars.space.md}` });
globalStyle("button, input, select", { font: "inherit" });
// Check boxes, radio buttons and ranges stay the browser's own, ticked in the site's colour
// rather than the platform's blue.
globalStyle("input[type=checkbox], input[type=radio], input[type=range]", { accentColor: vars.color.accent });
// Every drop-down keeps the native element (its keyboard, its list, its name to a screen reader)
// and loses the platform's chrome for the site's: square, with a chevron drawn in the text's
// colour. The selector outweighs a single class, whose `background` would hide the chevron.
// Forced colours get the platform's own control back.
globalStyle("select:not([multiple])", {
  appearance: "none",
  backgroundImage: "linear-gradient(45deg, transparent 50%, currentColor 50%), linear-gradient(135deg, currentColor 50%, transparent 50%)",
  backgroundPosition: "right 1.15em center, right 0.8em center",
  backgroundSize: "0.35em 0.35em",
  backgroundRepeat: "no-repeat",
  paddingRight: "2.25em",
  borderRadius: 0,
  cursor: "pointer",
  "@media": { "(forced-colors: active)": { appearance: "auto", backgroundImage: "none" } },
});

globalStyle(".visually-hidden", visuallyHidden);

// Print: the article and its metadata only, links spelled out, no chrome.
globalStyle("header[data-site-header], footer[data-site-footer], nav, [data-no-print], form", {
  "@media": { print: { display: "none !important" } },
});
globalStyle("body", { "@media": { print: { fontFamily: vars.font.body, fontSize: "11pt", color: "#000" } } });
globalStyle("main a[href^='/']::after", { "@media": { print: { content: '" (" attr(href) ")"', fontSize: "90%" } } });
