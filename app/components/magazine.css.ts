import { globalStyle, style } from "@vanilla-extract/css";
import { media, vars } from "~/app/styles/theme.css";

export const issueList = style({
  listStyle: "none",
  padding: 0,
  display: "grid",
  // minmax(0, …): a column is otherwise as wide as its longest word, wider than a 320 px phone.
  gridTemplateColumns: "minmax(0, 1fr)",
  gap: vars.space.xl,
  "@media": { [media.desktop]: { gridTemplateColumns: "repeat(2, minmax(0, 1fr))" } },
});

export const issueCard = style({ display: "grid", gridTemplateColumns: "150px minmax(0, 1fr)", gap: vars.space.md, alignItems: "start" });

export const issueTitle = style({ margin: 0, fontSize: vars.size.lg, lineHeight: 1.25 });

export const issueDate = style({ fontSize: vars.size.sm, color: vars.color.muted, margin: 0 });

export const issueSummary = style({ fontFamily: vars.font.body, fontSize: vars.size.sm });

export const featuringLabel = style({
  fontFamily: vars.font.ui,
  fontWeight: 700,
  fontSize: vars.size.xs,
  letterSpacing: "0.06em",
  textTransform: "uppercase",
  color: vars.color.accent,
  margin: 0,
});

/** The issue's features: a contents list in ink, ruled apart, underlined on hover. */
export const featuring = style({
  listStyle: "none",
  margin: `${vars.space.xs} 0 0`,
  padding: 0,
  fontFamily: vars.font.ui,
  fontSize: vars.size.sm,
});
globalStyle(`${featuring} li`, { padding: `${vars.space.xs} 0`, borderTop: `1px solid ${vars.color.rule}` });
// Each link a comfortable 24 px touch target (WCAG 2.2 target size), aligned by its top: an
// inline block's baseline is its last line's, which leaves a gap under a title that wraps.
globalStyle(`${featuring} a`, {
  display: "inline-block",
  minHeight: "24px",
  verticalAlign: "top",
  color: vars.color.ink,
  fontWeight: 600,
  textDecoration: "none",
});
globalStyle(`${featuring} a:hover`, { textDecoration: "underline" });

export const finder = style({
  display: "flex",
  flexWrap: "wrap",
  gap: vars.space.md,
  alignItems: "end",
  background: vars.color.wash,
  padding: vars.space.md,
  margin: `${vars.space.md} 0 ${vars.space.lg}`,
});

export const field = style({
  display: "grid",
  gridTemplateColumns: "minmax(0, 1fr)",
  gap: vars.space.xs,
  minWidth: 0,
  maxWidth: "100%",
  fontWeight: 600,
  fontSize: vars.size.sm,
});

export const select = style({
  maxWidth: "100%",
  minHeight: vars.control.target,
  padding: `0 ${vars.space.sm}`,
  border: `1px solid ${vars.color.ink}`,
  background: vars.color.paper,
});

export const years = style({
  display: "flex",
  flexWrap: "wrap",
  gap: vars.space.xs,
  listStyle: "none",
  padding: 0,
  fontSize: vars.size.sm,
});

export const yearLink = style({
  display: "inline-block",
  minWidth: "3.5rem",
  padding: `${vars.space.xs} ${vars.space.sm}`,
  textAlign: "center",
  border: `1px solid ${vars.color.rule}`,
  color: vars.color.ink,
  fontFamily: vars.font.ui,
  textDecoration: "none",
  selectors: {
    "&:hover": { borderColor: vars.color.ink },
    '&[aria-current="page"]': { background: vars.color.ink, borderColor: vars.color.ink, color: vars.color.paper },
  },
});

export const cover = style({ width: "100%", maxWidth: 360, height: "auto" });

/** An uploaded cover in a card: as wide as the card's column, whatever size it was uploaded at. */
export const uploadedCover = style({ display: "block", width: "100%", height: "auto" });

export const tocLayout = style({
  display: "grid",
  gap: vars.space.xl,
  "@media": { [media.tablet]: { gridTemplateColumns: "minmax(0, 360px) 1fr" } },
});
