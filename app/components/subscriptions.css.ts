import { style } from "@vanilla-extract/css";
import { media, vars } from "~/app/styles/theme.css";

export const plans = style({
  display: "grid",
  gap: vars.space.lg,
  listStyle: "none",
  padding: 0,
  margin: `${vars.space.lg} 0`,
  "@media": { [media.tablet]: { gridTemplateColumns: "repeat(auto-fill, minmax(16rem, 1fr))" } },
});

export const plan = style({
  display: "grid",
  gridTemplateRows: "auto auto auto 1fr auto auto",
  gap: vars.space.sm,
  padding: vars.space.lg,
  border: `1px solid ${vars.color.rule}`,
  borderTop: `4px solid ${vars.color.accent}`,
  fontFamily: vars.font.ui,
});

export const planName = style({ fontSize: vars.size.xl, margin: 0 });

export const price = style({ fontSize: vars.size.lg, fontWeight: 700, margin: 0 });

/** A price's tax for the reader's billing address, under the price. */
export const withTax = style({ fontSize: vars.size.sm, fontWeight: 400 });

export const terms = style({ fontSize: vars.size.xs, color: vars.color.muted, margin: 0 });

export const summary = style({
  padding: vars.space.md,
  background: vars.color.wash,
  fontFamily: vars.font.ui,
  margin: `${vars.space.md} 0`,
});

export const cardForm = style({ display: "grid", gap: vars.space.md, maxWidth: "24rem" });

export const sandboxNote = style({
  padding: vars.space.md,
  background: vars.color.notice,
  fontFamily: vars.font.ui,
  fontSize: vars.size.sm,
});

export const currentPlan = style({ fontWeight: 700, color: vars.color.accent, margin: 0 });
