import { globalStyle, style } from "@vanilla-extract/css";
import { media, vars } from "~/app/styles/theme.css";

/** On <html> while the modal is open: the page behind it does not scroll. */
export const scrollLocked = style({ overflow: "hidden" });

/** The native <dialog>: centred on wide screens, a sheet along the bottom edge on narrow ones. */
export const dialog = style({
  width: "min(34rem, calc(100% - 2rem))",
  maxWidth: "none",
  maxHeight: "calc(100dvh - 2rem)",
  padding: 0,
  border: `1px solid ${vars.color.rule}`,
  borderTop: `4px solid ${vars.color.accent}`,
  background: vars.color.paper,
  color: vars.color.ink,
  fontFamily: vars.font.ui,
  overflowY: "auto",
  overscrollBehavior: "contain",
  selectors: {
    "&::backdrop": { background: "rgba(26, 26, 26, 0.6)" },
  },
  "@media": {
    [media.narrow]: { width: "100%", maxHeight: "92dvh", margin: "auto 0 0" },
  },
});

/**
 * Added (on narrow screens) while an input in the dialog has focus: the on-screen keyboard
 * takes the lower half, so the dialog moves to the top and takes the full height, keeping the
 * field being typed in visible.
 */
export const inputFocused = style({
  "@media": {
    [media.narrow]: { margin: "0 0 auto", height: "100dvh", maxHeight: "100dvh", borderTopWidth: 0 },
  },
});

export const header = style({
  position: "sticky",
  top: 0,
  zIndex: 1,
  display: "flex",
  alignItems: "flex-start",
  justifyContent: "space-between",
  gap: vars.space.md,
  padding: `${vars.space.md} ${vars.space.lg}`,
  borderBottom: `1px solid ${vars.color.rule}`,
  background: vars.color.paper,
});

/** The dialog's title; it takes focus (programmatically) when a screen opens. */
export const title = style({
  margin: 0,
  fontSize: vars.size.xl,
  selectors: { "&:focus, &:focus-visible": { outline: "none", boxShadow: "none" } },
});

/** A 44 px target, ink on paper (17.4:1). */
export const closeButton = style({
  flex: "none",
  minHeight: vars.control.target,
  minWidth: vars.control.target,
  padding: `0 ${vars.space.md}`,
  border: `2px solid ${vars.color.ink}`,
  borderRadius: vars.radius.sm,
  background: vars.color.paper,
  color: vars.color.ink,
  fontFamily: vars.font.ui,
  fontWeight: 700,
  cursor: "pointer",
  selectors: { "&:hover": { background: vars.color.wash } },
});

export const body = style({
  padding: vars.space.lg,
  "@media": { [media.narrow]: { padding: vars.space.md } },
});

globalStyle(`${body} > :last-child`, { marginBottom: 0 });

export const loading = style({ color: vars.color.muted, fontFamily: vars.font.ui });
