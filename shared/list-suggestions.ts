// The desk's suggestions for an article's authors and topics (ADR 085): what the staff-only
// suggest endpoint answers and the article form's combobox offers.

export const SUGGESTED_LISTS = ["authors", "topics"] as const;
export type SuggestedList = (typeof SUGGESTED_LISTS)[number];

/** Longer than any author's name or topic's: a longer term matches nothing. */
export const SUGGEST_TERM_MAX = 120;

/** How many suggestions one answer holds. */
export const SUGGESTIONS_SHOWN = 8;

export interface ListSuggestion {
  /** What the list holds: an author's slug, a topic's name. */
  value: string;
  /** What the editor reads: an author's name, a topic's name. */
  label: string;
  /** Beside the label: an author's slug; "Subject" or "Topic". */
  hint: string;
}
