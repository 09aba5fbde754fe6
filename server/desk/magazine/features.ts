import type { Database } from "~/server/db/connection";
import type { IssueFeatureFields } from "~/shared/issue-fields";
import { findArticle } from "../curation/articles";
import type { IssueChange } from "./issues";

// An issue's features as the desk's form and the Admin API name them (a title, and an article by
// its address or slug), made into what a change stores: the article's id, and its title when the
// feature gives none.

const noSuchArticle = (ref: string) => `No article has the address or slug “${ref}”.`;

/** The features with their articles found, or each one's problem by its place in the list. */
export async function resolveFeatures(
  db: Database,
  features: readonly IssueFeatureFields[],
): Promise<{ ok: true; features: IssueChange["features"] } | { ok: false; problems: Map<number, string> }> {
  const resolved: IssueChange["features"] = [];
  const problems = new Map<number, string>();
  for (const [index, feature] of features.entries()) {
    const ref = feature.article?.trim() || null;
    const article = ref ? await findArticle(db, ref) : undefined;
    if (ref && !article) problems.set(index, noSuchArticle(ref));
    resolved.push({ title: feature.title || article?.title || "", articleId: article?.id ?? null });
  }
  return problems.size > 0 ? { ok: false, problems } : { ok: true, features: resolved };
}
