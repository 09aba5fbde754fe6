// An article's states, tiers and curated streams: the words pages show without loading zod
// (shared/article-fields.ts builds the schema from them).

export const ARTICLE_STATUSES = ["draft", "scheduled", "published", "unpublished"] as const;
export type ArticleStatus = (typeof ARTICLE_STATUSES)[number];

export const ARTICLE_STATUS_NAMES: Record<ArticleStatus, string> = {
  draft: "Draft",
  scheduled: "Scheduled",
  published: "Published",
  unpublished: "Unpublished",
};

export const TIERS = ["article", "top50", "cases", "visual-library"] as const;
export const CURATED_STREAMS = ["big-ideas", "ascend", "hbr-analytic-services", "webinars", "visual-library"] as const;

/** The states autosave writes in (ADR 085): those readers can neither see nor get without an editor acting again. */
export const AUTOSAVED_STATES: readonly ArticleStatus[] = ["draft", "unpublished"];

export const AUTOSAVE_OFF = "Autosave is off while the article is published or scheduled: press Save to change it.";

/** Once the editor has been shown someone else's save: their version gives way to the editor's only when the editor says so. */
export const AUTOSAVE_AFTER_CONFLICT = "Autosave is off until you press Save: your version replaces theirs only then.";
