import type { Database } from "~/server/db/connection";

// What the desk's article form offers to pick from: the authors by slug, the topics by name
// (subjects first, as the primary topic must be one) and the content types articles have.

export interface ArticleChoices {
  authors: { slug: string; name: string }[];
  topics: { name: string; subject: boolean }[];
  contentTypes: string[];
}

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
  };
}
