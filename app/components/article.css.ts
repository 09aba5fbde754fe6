import { globalStyle, style } from "@vanilla-extract/css";
import { media, vars } from "~/app/styles/theme.css";

export const layout = style({
  display: "grid",
  gap: vars.space.xl,
  "@media": { [media.desktop]: { gridTemplateColumns: `minmax(0, ${vars.measure.text}) 18rem`, justifyContent: "space-between" } },
});

export const header = style({ marginBottom: vars.space.lg });

export const title = style({ fontSize: vars.size.xxl, "@media": { [media.desktop]: { fontSize: vars.size.display } } });

export const dek = style({ fontFamily: vars.font.body, fontSize: vars.size.lg, color: vars.color.ink, margin: `0 0 ${vars.space.xs}` });

export const subDek = style({ color: vars.color.muted, margin: `0 0 ${vars.space.md}` });

export const meta = style({ fontSize: vars.size.sm, color: vars.color.muted });

/**
 * The drawn hero: 16:9, and on a desktop a wider 21:9 band, cut from the middle of the same
 * drawing (its figure keeps to the middle), so the text begins nearer the first screen.
 */
export const hero = style({
  display: "block",
  width: "100%",
  height: "auto",
  aspectRatio: "16 / 9",
  objectFit: "cover",
  margin: `${vars.space.md} 0`,
  "@media": { [media.desktop]: { aspectRatio: "21 / 9" } },
});

/** An uploaded hero keeps its own proportions: its width and height attributes hold its place. */
export const uploadedHero = style({ display: "block", width: "100%", height: "auto", margin: `${vars.space.md} 0` });

export const author = style({ display: "flex", gap: vars.space.md, alignItems: "flex-start" });

// The photo's <picture> is the flex item: it keeps the photo's width beside a long bio.
globalStyle(`${author} > picture`, { flex: "none" });

export const authorPhoto = style({
  display: "block",
  flex: "none",
  width: "4rem",
  height: "4rem",
  objectFit: "cover",
  borderRadius: "50%",
  background: vars.color.wash,
  marginTop: "1em",
});

export const summaryBox = style({
  background: vars.color.wash,
  padding: vars.space.md,
  borderRadius: vars.radius.md,
  margin: `${vars.space.md} 0`,
});

export const summaryToggle = style({ cursor: "pointer", fontWeight: 700 });

export const body = style({
  fontFamily: vars.font.body,
  fontSize: "1.1875rem",
  lineHeight: 1.65,
  selectors: { 'html[data-text-size="large"] &': { fontSize: "1.4375rem" } },
});

globalStyle(`${body} h2`, { fontSize: vars.size.xl, marginTop: vars.space.xl });
globalStyle(`${body} li`, { marginBottom: vars.space.xs });

export const pullQuote = style({
  margin: `${vars.space.lg} 0`,
  padding: `0 0 0 ${vars.space.md}`,
  borderLeft: `4px solid ${vars.color.accent}`,
  fontSize: "1.3em",
  fontStyle: "italic",
});

export const promo = style({
  display: "grid",
  gap: vars.space.xs,
  margin: `${vars.space.xl} 0`,
  padding: vars.space.md,
  border: `1px solid ${vars.color.rule}`,
  fontFamily: vars.font.ui,
  fontSize: vars.size.sm,
});

/**
 * On a desktop tall enough to show it whole, the aside stays beside the text as the reader
 * scrolls, so its column is not empty below it. It stops under the sticky header (about 7 rem
 * at that width), never beneath it: links under the header's would overlap them as targets.
 */
export const aside = style({
  display: "grid",
  gap: vars.space.lg,
  alignContent: "start",
  "@media": { [`${media.desktop} and (min-height: 50rem)`]: { position: "sticky", top: "8.5rem", alignSelf: "start" } },
});

export const asideBlock = style({ borderTop: `3px solid ${vars.color.ink}`, paddingTop: vars.space.sm, fontSize: vars.size.sm });

export const asideList = style({ listStyle: "none", padding: 0, margin: 0, display: "grid", gap: vars.space.sm });

/** The aside's lists read as the home page's headline lists: ink serif titles, ruled apart, underlined on hover. */
globalStyle(`${asideList} a`, {
  color: vars.color.ink,
  fontFamily: vars.font.body,
  fontWeight: 700,
  fontSize: vars.size.md,
  lineHeight: 1.3,
  textDecoration: "none",
});
globalStyle(`${asideList} a:hover`, { textDecoration: "underline" });
globalStyle(`${asideList} > li + li`, { borderTop: `1px solid ${vars.color.rule}`, paddingTop: vars.space.sm });

export const seriesNav = style({
  background: vars.color.wash,
  padding: vars.space.md,
  margin: `${vars.space.lg} 0`,
  fontSize: vars.size.sm,
});

export const titleBar = style({
  position: "fixed",
  top: 0,
  left: 0,
  right: 0,
  zIndex: 15,
  background: vars.color.ink,
  color: vars.color.paper,
  padding: `${vars.space.sm} ${vars.space.md}`,
  fontWeight: 700,
  transform: "translateY(-110%)",
  transition: "transform 200ms ease",
  selectors: { "&[data-visible]": { transform: "none" } },
  "@media": { print: { display: "none" } },
});

/** Wraps a run of the body's HTML without a box of its own, so its blocks lay out as the body's children. */
export const bodyPart = style({ display: "contents" });

export const share = style({
  borderTop: `1px solid ${vars.color.rule}`,
  margin: `${vars.space.lg} 0`,
  paddingTop: vars.space.md,
  fontFamily: vars.font.ui,
});

export const giftExpired = style({
  padding: vars.space.md,
  background: vars.color.wash,
  borderLeft: `4px solid ${vars.color.accent}`,
  fontFamily: vars.font.ui,
});
