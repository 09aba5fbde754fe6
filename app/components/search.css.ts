import { style } from "@vanilla-extract/css";
import { vars } from "../styles/theme.css";

export const form = style({ maxWidth: vars.measure.text, marginBottom: vars.space.xl });

export const label = style({ display: "block", fontWeight: 700, marginBottom: vars.space.xs });

export const row = style({ display: "flex", gap: vars.space.sm });

export const input = style({ flex: 1, minHeight: "2.75rem", padding: `0 ${vars.space.sm}`, border: `2px solid ${vars.color.ink}` });
