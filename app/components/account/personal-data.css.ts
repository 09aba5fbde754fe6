import { style } from "@vanilla-extract/css";
import { vars } from "~/app/styles/theme.css";

/** A record: each label above its value on a phone, beside it from 40rem. */
export const record = style({
  display: "grid",
  gridTemplateColumns: "1fr",
  gap: `${vars.space.xs} ${vars.space.md}`,
  margin: 0,
  fontFamily: vars.font.ui,
  fontSize: vars.size.sm,
  "@media": { "(min-width: 40rem)": { gridTemplateColumns: "minmax(8rem, 14rem) 1fr" } },
});

export const term = style({ fontWeight: 700, overflowWrap: "anywhere" });

export const value = style({ margin: 0, overflowWrap: "anywhere" });

/** A list of records, each set apart by a rule. */
export const list = style({ margin: 0, paddingLeft: vars.space.lg });

export const item = style({ padding: `${vars.space.sm} 0`, borderBottom: `1px solid ${vars.color.rule}` });

export const none = style({ color: vars.color.muted });
