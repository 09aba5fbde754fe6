// The header search's auto-suggest (spec 5 and 9), shared by the field and its tests.

/** Suggestions start once the trimmed text is longer than 2 characters. */
export const SUGGEST_MIN_CHARS = 3;

/** Spec: "auto-suggest throttle 350 ms": at most one request in any 350 ms. */
export const SUGGEST_THROTTLE_MS = 350;
