import { createGlobalTheme } from "@vanilla-extract/css";

// The one theme of design tokens. Text colours are checked against their backgrounds
// for WCAG AA: ink #1a1a1a on paper #fff is 17.4:1, muted #595959 on #fff is 7:1,
// accent #a1191f on #fff is 7.4:1, white on accent 7.4:1, link #0b4f8a on #fff 8.6:1.
export const breakpoints = { tablet: 768, desktop: 1025 } as const;

export const media = {
  tablet: `screen and (min-width: ${breakpoints.tablet}px)`,
  desktop: `screen and (min-width: ${breakpoints.desktop}px)`,
  narrow: `screen and (max-width: ${breakpoints.tablet - 1}px)`,
  /** The smallest phones, where the header's buttons keep only their icons. */
  smallPhone: "screen and (max-width: 374px)",
} as const;

/** Off screen, yet read by screen readers: for text that an icon stands for on narrow screens. */
export const visuallyHidden = {
  position: "absolute",
  width: 1,
  height: 1,
  padding: 0,
  margin: -1,
  overflow: "hidden",
  clip: "rect(0 0 0 0)",
  whiteSpace: "nowrap",
  border: 0,
} as const;

export const vars = createGlobalTheme(":root", {
  color: {
    ink: "#1a1a1a",
    muted: "#595959",
    paper: "#ffffff",
    wash: "#f4f1ec",
    rule: "#d6d2cb",
    accent: "#a1191f",
    accentInk: "#ffffff",
    link: "#0b4f8a",
    focus: "#ffbf47",
    notice: "#fff4d6",
    /** 6.4:1 on white. */
    error: "#b3261e",
    success: "#1d6b2f",
  },
  font: {
    body: 'Georgia, "Times New Roman", Times, serif',
    ui: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  },
  size: {
    xs: "0.8125rem",
    sm: "0.9375rem",
    md: "1.0625rem",
    lg: "1.25rem",
    xl: "1.625rem",
    xxl: "2.25rem",
    display: "2.875rem",
  },
  space: {
    xs: "0.25rem",
    sm: "0.5rem",
    md: "1rem",
    lg: "1.5rem",
    xl: "2.5rem",
    xxl: "4rem",
  },
  measure: { text: "42rem", page: "75rem" },
  /** Every control (button, field, drop-down, page link) is at least this tall: a 44 px target. */
  control: { target: "2.75rem", border: "2px" },
  /** Links (and buttons styled as links): color.link, turning color.accent on hover. */
  link: { underlineOffset: "0.15em" },
  radius: { sm: "3px", md: "6px" },
});
