import { style } from "@vanilla-extract/css";
import { vars } from "~/app/styles/theme.css";

/** The plan's facts: a label above its value on a phone, beside it from 40rem. */
export const facts = style({
  display: "grid",
  gridTemplateColumns: "1fr",
  gap: `${vars.space.xs} ${vars.space.lg}`,
  margin: `0 0 ${vars.space.lg}`,
  fontFamily: vars.font.ui,
  "@media": { "(min-width: 40rem)": { gridTemplateColumns: "12rem 1fr" } },
});

export const term = style({ fontWeight: 700, marginTop: vars.space.sm, "@media": { "(min-width: 40rem)": { marginTop: 0 } } });

export const value = style({ margin: 0 });

export const invoices = style({ listStyle: "none", padding: 0, margin: 0, fontFamily: vars.font.ui });

export const invoice = style({
  display: "flex",
  flexWrap: "wrap",
  justifyContent: "space-between",
  gap: vars.space.sm,
  padding: `${vars.space.sm} 0`,
  borderBottom: `1px solid ${vars.color.rule}`,
});

export const invoiceMeta = style({ color: vars.color.muted });

export const links = style({ display: "flex", flexWrap: "wrap", gap: `${vars.space.sm} ${vars.space.lg}` });
