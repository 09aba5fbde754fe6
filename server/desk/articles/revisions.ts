import type { Database } from "~/server/db/connection";
import type { ArticleFields } from "~/shared/article-fields";
import type { AuditActor } from "../audit";
import type { RevisionSnapshot } from "./history";
import type { RestoreResult, Revision, RevisionSummary } from "./types";
import { writeFields } from "./write";

function revisions(db: Database) {
  return db
    .selectFrom("article_revision as r")
    .leftJoin("app_user as u", "u.id", "r.saved_by")
    .select([
      "r.id",
      "r.article_id",
      "r.version",
      "r.fields",
      "r.saved_by",
      "r.saved_by_name",
      "r.saved_at",
      "r.autosaved",
      "u.first_name",
      "u.last_name",
    ]);
}

type Row = Awaited<ReturnType<ReturnType<typeof revisions>["executeTakeFirstOrThrow"]>>;

function revisionOf(row: Row): Revision {
  const { status, ...fields } = JSON.parse(row.fields) as RevisionSnapshot;
  return {
    id: row.id,
    articleId: row.article_id,
    version: row.version,
    status,
    savedAt: row.saved_at,
    savedBy: { id: row.saved_by, name: [row.first_name, row.last_name].filter(Boolean).join(" ").trim() || row.saved_by_name },
    autosaved: row.autosaved === 1,
    fields: fields as ArticleFields,
  };
}

/** An article's revisions, newest first (an article never changed at the desk has none). */
export async function listRevisions(db: Database, articleId: number): Promise<RevisionSummary[]> {
  const rows = await revisions(db).where("r.article_id", "=", articleId).orderBy("r.version", "desc").execute();
  return rows.map((row) => {
    const { id, version, status, savedAt, savedBy, autosaved } = revisionOf(row);
    return { id, version, status, savedAt, savedBy, autosaved };
  });
}

/** One revision of an article; undefined when the article has no such revision. */
export async function getRevision(db: Database, articleId: number, revisionId: string): Promise<Revision | undefined> {
  const row = await revisions(db).where("r.article_id", "=", articleId).where("r.id", "=", revisionId).executeTakeFirst();
  return row && revisionOf(row);
}

/**
 * Makes an article's fields what they were at a revision, as a save of its own (a new revision;
 * the state is left as it is), if the article is still at `expectedVersion`.
 */
export async function restoreRevision(
  db: Database,
  actor: AuditActor,
  articleId: number,
  revisionId: string,
  expectedVersion: number,
  now: Date,
): Promise<RestoreResult> {
  const revision = await getRevision(db, articleId, revisionId);
  if (!revision) return { ok: false, reason: "no-revision" };
  return writeFields(db, actor, articleId, expectedVersion, revision.fields, now, "article.restore");
}
