import { globalStyle, style } from "@vanilla-extract/css";
import { media, vars } from "~/app/styles/theme.css";

/** /topics: the subjects as in-page links. */
export const jumpList = style({ fontFamily: vars.font.ui, marginBottom: vars.space.lg });

export const jumpHeading = style({ fontSize: vars.size.sm, margin: `0 0 ${vars.space.sm}` });

/** A grid of equal cells: two columns on a phone, keeping fourteen subjects within a screen. */
globalStyle(`${jumpList} ul`, {
  listStyle: "none",
  padding: 0,
  margin: 0,
  display: "grid",
  gridTemplateColumns: "repeat(auto-fill, minmax(10.5rem, 1fr))",
  gap: vars.space.sm,
});

globalStyle(`${jumpList} a`, {
  display: "flex",
  alignItems: "center",
  height: "100%",
  minHeight: vars.control.target,
  padding: `${vars.space.xs} ${vars.space.sm}`,
  border: `1px solid ${vars.color.rule}`,
  borderRadius: vars.radius.md,
  color: vars.color.ink,
  fontSize: vars.size.sm,
  fontWeight: 600,
  lineHeight: 1.25,
  textDecoration: "none",
});

globalStyle(`${jumpList} a:hover`, { borderColor: vars.color.ink });

/** A subject and its topics. */
export const subject = style({ marginTop: vars.space.xl });

export const subjectHeader = style({ borderTop: `3px solid ${vars.color.ink}`, paddingTop: vars.space.sm, marginBottom: vars.space.lg });

globalStyle(`${subjectHeader} p`, { maxWidth: vars.measure.text });

export const subjectName = style({ fontSize: vars.size.xl, margin: `0 0 ${vars.space.xs}` });

export const topicGrid = style({
  listStyle: "none",
  padding: 0,
  margin: 0,
  display: "grid",
  gap: vars.space.lg,
  "@media": { [media.tablet]: { gridTemplateColumns: "repeat(2, 1fr)" }, [media.desktop]: { gridTemplateColumns: "repeat(3, 1fr)" } },
});

export const topicItem = style({ borderTop: `1px solid ${vars.color.rule}`, paddingTop: vars.space.sm });

export const topicName = style({ fontSize: vars.size.md, margin: `0 0 ${vars.space.xs}` });

export const topicDescription = style({ fontFamily: vars.font.body, margin: `0 0 ${vars.space.xs}` });

export const topicMeta = style({ fontSize: vars.size.xs, color: vars.color.muted, margin: 0, fontFamily: vars.font.ui });

export const backLink = style({ fontFamily: vars.font.ui, fontSize: vars.size.sm, marginTop: vars.space.md });

/** A subject's page: its topics, as a wrapping row of links under the follow button. */
export const subjectTopics = style({ fontFamily: vars.font.ui, fontSize: vars.size.sm });

export const subjectTopicsHeading = style({ fontSize: vars.size.sm, margin: `${vars.space.md} 0 ${vars.space.xs}` });
