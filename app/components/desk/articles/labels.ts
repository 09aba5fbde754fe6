import type { FieldDiff } from "~/server/desk/articles";

/** The article's fields as the desk's form and its diffs name them. */
export const FIELD_LABELS: Record<FieldDiff["field"], string> = {
  status: "State",
  title: "Title",
  dek: "Dek",
  subDek: "Sub-dek",
  summary: "Summary",
  body: "Body",
  slug: "Slug",
  authors: "Authors",
  topics: "Topics",
  contentType: "Content type",
  tier: "Tier",
  series: "Series slug",
  seriesTitle: "Series title",
  seriesPart: "Part",
  streams: "Streams",
  published: "Publication date",
};
