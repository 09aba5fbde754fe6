import { globalStyle, style } from "@vanilla-extract/css";
import { vars } from "~/app/styles/theme.css";

/** Something staff can do to the account, set on a wash below what it acts on. */
export const action = style({
  display: "grid",
  gap: vars.space.sm,
  maxWidth: "32rem",
  marginTop: vars.space.md,
  padding: vars.space.md,
  borderLeft: `3px solid ${vars.color.ink}`,
  background: vars.color.wash,
  fontFamily: vars.font.ui,
});

/** Why staff did it, for the audit log: a text box as the site's others are. */
export const reason = style({
  font: "inherit",
  fontSize: vars.size.md,
  padding: vars.space.sm,
  border: `${vars.control.border} solid ${vars.color.ink}`,
  borderRadius: 0,
  background: vars.color.paper,
  width: "100%",
  boxSizing: "border-box",
  resize: "vertical",
});

export const duration = style({ display: "flex", gap: vars.space.sm });

export const actions = style({ display: "grid", gap: vars.space.md, gridTemplateColumns: "repeat(auto-fill, minmax(18rem, 1fr))" });

export const facts = style({
  display: "grid",
  gridTemplateColumns: "max-content minmax(0, 1fr)",
  gap: `${vars.space.xs} ${vars.space.md}`,
  margin: 0,
});

globalStyle(`${facts} dt`, { fontWeight: 700, fontFamily: vars.font.ui });
globalStyle(`${facts} dd`, { margin: 0, overflowWrap: "anywhere" });
