// The desk's editorial domain (issue 38, ADR 076): articles in every state, saved as revisions
// without lost updates, published now or on schedule, unpublished. Every change takes the
// database, the actor (server/desk/audit.ts) and the moment, and writes its audit row and its
// revision in its own transaction; a change readers can see reaches every instance's caches
// and the search index at once.
export { getDeskArticle, listDeskArticles } from "./read";
export { autosaveArticle, createArticle, holdArticle, saveArticle } from "./write";
export { publishArticle, unpublishArticle, publishDueArticles } from "./publishing";
export { listRevisions, getRevision, restoreRevision } from "./revisions";
export { diffRevision, lineDiff } from "./diff";
export type * from "./types";
