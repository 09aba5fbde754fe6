import { sql } from "kysely";
import type { Database } from "~/server/db/connection";
import { CURATED_STREAMS, TIERS } from "~/shared/article-vocabulary";
import { SUGGESTIONS_SHOWN, type ListSuggestion, type SuggestedList } from "~/shared/list-suggestions";
import { likePattern } from "./articles/read";

// What the desk's article form offers to pick from: the authors by slug, the topics by name
// (subjects first, as the primary topic must be one) and the content types articles have; and
// the authors or topics matching what an editor types, for the form's combobox (ADR 085).

export interface ArticleChoices {
  authors: { slug: string; name: string }[];
  topics: { name: string; subject: boolean }[];
  contentTypes: string[];
  tiers: { value: (typeof TIERS)[number]; label: string }[];
  streams: { value: (typeof CURATED_STREAMS)[number]; label: string }[];
}

// Sent with the page rather than bundled: the editor's scripts are at the edge of their budget.
const TIER_NAMES: Record<(typeof TIERS)[number], string> = {
  article: "Article",
  top50: "Top 50",
  cases: "Cases",
  "visual-library": "Visual library",
};

const STREAM_NAMES: Record<(typeof CURATED_STREAMS)[number], string> = {
  "big-ideas": "Big Ideas",
  ascend: "Ascend",
  "hbr-analytic-services": "Analytic Services",
  webinars: "Webinars",
  "visual-library": "Visual Library",
};

export async function articleChoices(db: Database): Promise<ArticleChoices> {
  const [authors, topics, types] = await Promise.all([
    db.selectFrom("author").select(["slug", "name"]).orderBy("name").execute(),
    db.selectFrom("topic").select(["name", "subject_id"]).orderBy("name").execute(),
    db.selectFrom("article_record").select("content_type").distinct().orderBy("content_type").execute(),
  ]);
  const subjects = topics.filter((t) => t.subject_id === null);
  const within = topics.filter((t) => t.subject_id !== null);
  return {
    authors,
    topics: [...subjects, ...within].map((t) => ({ name: t.name, subject: t.subject_id === null })),
    contentTypes: types.map((t) => t.content_type),
    tiers: TIERS.map((value) => ({ value, label: TIER_NAMES[value] })),
    streams: CURATED_STREAMS.map((value) => ({ value, label: STREAM_NAMES[value] })),
  };
}

/**
 * Authors (by name or slug) or topics (by name) containing `term`, any case: those starting
 * with it first, then (topics) subjects before the topics within them, then by name.
 */
export async function suggestChoices(db: Database, list: SuggestedList, term: string): Promise<ListSuggestion[]> {
  const wanted = term.trim().toLowerCase();
  if (wanted === "") return [];
  const contains = likePattern(wanted);
  const starts = contains.slice(1);
  if (list === "authors") {
    const rows = await db
      .selectFrom("author")
      .select(["slug", "name"])
      .where((eb) => eb.or([sql<boolean>`lower(name) like ${contains} escape '\\'`, sql<boolean>`slug like ${contains} escape '\\'`]))
      .orderBy(sql`case when lower(name) like ${starts} escape '\\' then 0 else 1 end`)
      .orderBy("name")
      .limit(SUGGESTIONS_SHOWN)
      .execute();
    return rows.map((row) => ({ value: row.slug, label: row.name, hint: row.slug }));
  }
  const rows = await db
    .selectFrom("topic")
    .select(["name", "subject_id"])
    .where(sql<boolean>`lower(name) like ${contains} escape '\\'`)
    .orderBy(sql`case when lower(name) like ${starts} escape '\\' then 0 else 1 end`)
    .orderBy(sql`case when subject_id is null then 0 else 1 end`)
    .orderBy("name")
    .limit(SUGGESTIONS_SHOWN)
    .execute();
  return rows.map((row) => ({ value: row.name, label: row.name, hint: row.subject_id === null ? "Subject" : "Topic" }));
}
