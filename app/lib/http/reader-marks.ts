/** How a mark for a signed-in reader's own value begins (reader-parts.server.ts, ADR 096): a private-use character. */
export const MARK_START = "\uE000";

/** True for a mark, which a component passes on as it is instead of reading it as data. Never true in the browser. */
export const isMark = (value: string) => value.startsWith(MARK_START);
