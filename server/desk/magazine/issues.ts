import { sql } from "kysely";
import type { Database } from "~/server/db/connection";
import { isPostgres } from "~/server/db/dialect";
import { bumpContentGeneration } from "~/server/content/content-generation";
import { issueMonthLabel } from "~/server/content/archive-calendar";
import { reindexIssue } from "~/server/search/documents";
import { ISSUE_MAX_FEATURES, ISSUE_MESSAGES } from "~/shared/issue-fields";
import type { ImageRef } from "~/shared/uploaded-images";
import { issuePath } from "~/shared/urls";
import { isUniqueViolation } from "../articles/fields";
import { Outcome, inTransaction } from "../articles/write";
import { recordAudit } from "../audit";
import type { Editor, LastSave } from "../catalogue/common";
import { articlesInOrder, type CuratedArticle } from "../curation/articles";

// Magazine issues at the desk and through the Admin API (issue 38): an issue's code, year and
// month, its cover story's title and summary, and its contents, features in order, each a title
// and perhaps the article it is on the site. Every change names the version it read and writes
// nothing when the issue moved on since; each is audited, reindexed for search and counts the
// content generation up in its own transaction, since readers see issues at once.

export interface DeskIssueFeature {
  title: string;
  /** The article the feature is on the site, in any state: readers get a link while it is published. */
  article: CuratedArticle | null;
}

export interface DeskIssueSummary extends LastSave {
  id: number;
  code: string;
  year: number;
  month: number;
  monthLabel: string;
  title: string;
  /** How many features its contents list. */
  features: number;
  hasCover: boolean;
}

export interface DeskIssue extends Omit<DeskIssueSummary, "features" | "hasCover"> {
  summary: string;
  /** Its page on the site. */
  path: string;
  cover: ImageRef | null;
  features: DeskIssueFeature[];
}

/** What a change sets: every field, and the features in order (an article by its id). */
export interface IssueChange {
  code: string;
  year: number;
  month: number;
  title: string;
  summary: string;
  features: { title: string; articleId: number | null }[];
}

export type IssueResult =
  | { ok: true; issue: DeskIssue; changed: boolean }
  | { ok: false; reason: "invalid"; fieldErrors: Record<string, string[]> }
  | { ok: false; reason: "missing" }
  /** The issue moved on since the version read: nothing was written; this is it now, who saved it and when. */
  | { ok: false; reason: "conflict"; current: DeskIssue; by: string; at: string };

const codeTaken = (code: string, other: { monthLabel: string; year: number }) =>
  `The ${other.monthLabel} ${other.year} issue has the code ${code}: choose another.`;
const monthTaken = (other: { monthLabel: string; year: number; code: string }) =>
  `The archive has an issue for ${other.monthLabel} ${other.year} already (${other.code}).`;
const ARTICLE_GONE = "One of the linked articles no longer exists: link it again.";

/** Every year that has an issue, newest first. */
export async function issueYears(db: Database): Promise<number[]> {
  const rows = await db.selectFrom("magazine_issue").select("year").distinct().orderBy("year", "desc").execute();
  return rows.map((row) => row.year);
}

/** One page of issues, newest first (by year and month), of one year or all; and how many there are. */
export async function listDeskIssues(
  db: Database,
  query: { year?: number; page: number; pageSize: number },
): Promise<{ total: number; items: DeskIssueSummary[] }> {
  const filtered = () => {
    const select = db.selectFrom("magazine_issue as i");
    return query.year === undefined ? select : select.where("i.year", "=", query.year);
  };
  const [rows, count] = await Promise.all([
    filtered()
      .select([
        "i.id",
        "i.code",
        "i.year",
        "i.month",
        "i.month_label",
        "i.title",
        "i.cover_image_id",
        "i.version",
        "i.updated_at",
        "i.updated_by_name",
      ])
      .select((eb) =>
        eb
          .selectFrom("issue_feature as f")
          .whereRef("f.issue_id", "=", "i.id")
          .select((e) => e.fn.countAll<number>().as("n"))
          .as("features"),
      )
      .orderBy("i.year", "desc")
      .orderBy("i.month", "desc")
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize)
      .execute(),
    filtered()
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  return {
    total: Number(count.n),
    items: rows.map((r) => ({
      id: r.id,
      code: r.code,
      year: r.year,
      month: r.month,
      monthLabel: r.month_label,
      title: r.title,
      features: Number(r.features ?? 0),
      hasCover: Boolean(r.cover_image_id),
      version: r.version,
      updatedAt: r.updated_at,
      updatedBy: r.updated_by_name,
    })),
  };
}

/** One issue with its contents in order, or undefined. */
export async function getDeskIssue(db: Database, id: number): Promise<DeskIssue | undefined> {
  const row = await db
    .selectFrom("magazine_issue as i")
    .leftJoin("image as cover", "cover.id", "i.cover_image_id")
    .select([
      "i.id",
      "i.code",
      "i.year",
      "i.month",
      "i.month_label",
      "i.title",
      "i.summary",
      "i.version",
      "i.updated_at",
      "i.updated_by_name",
    ])
    .select(["cover.id as cover_id", "cover.width as cover_width", "cover.height as cover_height", "cover.alt as cover_alt"])
    .where("i.id", "=", id)
    .executeTakeFirst();
  if (!row) return undefined;
  const features = await db
    .selectFrom("issue_feature")
    .select(["title", "article_id"])
    .where("issue_id", "=", id)
    .orderBy("position")
    .execute();
  const articles = await articlesInOrder(
    db,
    features.flatMap((f) => (f.article_id === null ? [] : [f.article_id])),
  );
  const byId = new Map(articles.map((article) => [article.id, article]));
  return {
    id: row.id,
    code: row.code,
    year: row.year,
    month: row.month,
    monthLabel: row.month_label,
    title: row.title,
    summary: row.summary,
    version: row.version,
    updatedAt: row.updated_at,
    updatedBy: row.updated_by_name,
    path: issuePath(row.code),
    cover: row.cover_id === null ? null : { id: row.cover_id, width: row.cover_width!, height: row.cover_height!, alt: row.cover_alt },
    features: features.map((f) => ({ title: f.title, article: (f.article_id !== null && byId.get(f.article_id)) || null })),
  };
}

/** What the audit log keeps of an issue: its fields, and its features with their articles' slugs. */
const snapshot = (issue: DeskIssue) => ({
  code: issue.code,
  year: issue.year,
  month: issue.month,
  title: issue.title,
  summary: issue.summary,
  features: issue.features.map((f) => ({ title: f.title, article: f.article?.slug ?? null })),
});

/** Only what changed, with the version before and after. */
function changed(before: DeskIssue, after: DeskIssue) {
  const [b, a] = [snapshot(before), snapshot(after)];
  const keys = (Object.keys(a) as (keyof typeof a)[]).filter((key) => JSON.stringify(b[key]) !== JSON.stringify(a[key]));
  return {
    before: { version: before.version, ...Object.fromEntries(keys.map((key) => [key, b[key]])) },
    after: { version: after.version, ...Object.fromEntries(keys.map((key) => [key, a[key]])) },
  };
}

/** Whether a change would leave the issue as it is. */
function sameAs(issue: DeskIssue, change: IssueChange): boolean {
  const now = { ...change, features: change.features.map((f) => ({ title: f.title, articleId: f.articleId })) };
  const was = {
    code: issue.code,
    year: issue.year,
    month: issue.month,
    title: issue.title,
    summary: issue.summary,
    features: issue.features.map((f) => ({ title: f.title, articleId: f.article?.id ?? null })),
  };
  return JSON.stringify(was) === JSON.stringify(now);
}

const invalid = (field: string, message: string): IssueResult => ({ ok: false, reason: "invalid", fieldErrors: { [field]: [message] } });

/** Why a change cannot be kept (another issue's code or month, too many features, an article gone), or null. */
async function problem(db: Database, change: IssueChange, exceptId: number | null): Promise<IssueResult | null> {
  const others = () => {
    const query = db.selectFrom("magazine_issue").select(["code", "year", "month_label"]);
    return exceptId === null ? query : query.where("id", "!=", exceptId);
  };
  const sameMonth = await others().where("year", "=", change.year).where("month", "=", change.month).executeTakeFirst();
  if (sameMonth) return invalid("month", monthTaken({ monthLabel: sameMonth.month_label, year: sameMonth.year, code: sameMonth.code }));
  const sameCode = await others().where("code", "=", change.code).executeTakeFirst();
  if (sameCode) return invalid("code", codeTaken(change.code, { monthLabel: sameCode.month_label, year: sameCode.year }));
  if (change.features.length > ISSUE_MAX_FEATURES || change.features.some((f) => !f.title))
    return invalid("features", ISSUE_MESSAGES.features);
  const ids = [...new Set(change.features.flatMap((f) => (f.articleId === null ? [] : [f.articleId])))];
  if ((await articlesInOrder(db, ids)).length !== ids.length) return invalid("features", ARTICLE_GONE);
  return null;
}

async function writeFeatures(tx: Database, issueId: number, features: IssueChange["features"]): Promise<void> {
  await tx.deleteFrom("issue_feature").where("issue_id", "=", issueId).execute();
  if (features.length > 0)
    await tx
      .insertInto("issue_feature")
      .values(features.map((f, position) => ({ issue_id: issueId, position, title: f.title, article_id: f.articleId })))
      .execute();
}

/** A live issue takes its code back from any issue that once had it: that old address now names it. */
const takeCode = (tx: Database, code: string) => tx.deleteFrom("issue_former_code").where("code", "=", code).execute();

const conflict = (current: DeskIssue): IssueResult => ({
  ok: false,
  reason: "conflict",
  current,
  by: current.updatedBy ?? "someone else",
  at: current.updatedAt ?? "",
});

/** Readers see the change: the issue's search entry follows, and every instance's caches. */
async function published(tx: Database, id: number, now: Date): Promise<number> {
  await reindexIssue(tx, id);
  return bumpContentGeneration(tx, now);
}

/** Two changes at once that take one code or month: the one that lost is told which. */
async function guarded(db: Database, change: IssueChange, exceptId: number | null, work: () => Promise<IssueResult>): Promise<IssueResult> {
  try {
    return await work();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const found = await problem(db, change, exceptId);
    if (found) return found;
    throw error;
  }
}

/** A new issue, at version 1, with these features in order. */
export function createIssue(db: Database, editor: Editor, change: IssueChange, now: Date): Promise<IssueResult> {
  return guarded(db, change, null, () =>
    inTransaction(db, async (tx) => {
      // Ids are max(id) + 1, as the seed gives them: two new issues at once take turns.
      if (isPostgres(tx)) await sql`select pg_advisory_xact_lock(hashtextextended('magazine_issue:ids', 0))`.execute(tx);
      const refused = await problem(tx, change, null);
      if (refused) throw new Outcome(refused);
      const max = await tx
        .selectFrom("magazine_issue")
        .select((eb) => eb.fn.max("id").as("id"))
        .executeTakeFirstOrThrow();
      const id = Number(max.id ?? 0) + 1;
      await tx
        .insertInto("magazine_issue")
        .values({
          id,
          code: change.code,
          year: change.year,
          month: change.month,
          month_label: issueMonthLabel(change.year, change.month),
          title: change.title,
          summary: change.summary,
          version: 1,
          updated_at: now.toISOString(),
          updated_by_name: editor.name,
        })
        .execute();
      await writeFeatures(tx, id, change.features);
      await takeCode(tx, change.code);
      const issue = (await getDeskIssue(tx, id))!;
      await recordAudit(
        tx,
        { actor: editor.actor, action: "magazine-issue.create", subject: `magazine-issue:${issue.code}`, after: snapshot(issue) },
        now,
      );
      return { result: { ok: true, issue, changed: true }, generation: await published(tx, id, now) };
    }),
  );
}

/**
 * Saves an issue's fields and features, if it is still at `expectedVersion`: a stale save writes
 * nothing and answers with the issue as it is now, and who changed it when. A save that changes
 * nothing writes nothing (no new version, no audit row). A new code leaves the old one's page
 * answering 301.
 */
export function saveIssue(
  db: Database,
  editor: Editor,
  id: number,
  expectedVersion: number,
  change: IssueChange,
  now: Date,
): Promise<IssueResult> {
  return guarded(db, change, id, () =>
    inTransaction(db, async (tx) => {
      const before = await getDeskIssue(tx, id);
      if (!before) throw new Outcome<IssueResult>({ ok: false, reason: "missing" });
      if (before.version !== expectedVersion) throw new Outcome(conflict(before));
      if (sameAs(before, change)) throw new Outcome<IssueResult>({ ok: true, issue: before, changed: false });
      const refused = await problem(tx, change, id);
      if (refused) throw new Outcome(refused);
      const updated = await tx
        .updateTable("magazine_issue")
        .set((eb) => ({
          code: change.code,
          year: change.year,
          month: change.month,
          month_label: issueMonthLabel(change.year, change.month),
          title: change.title,
          summary: change.summary,
          version: eb("version", "+", 1),
          updated_at: now.toISOString(),
          updated_by_name: editor.name,
        }))
        .where("id", "=", id)
        .where("version", "=", expectedVersion)
        .executeTakeFirst();
      // Another save got in between our reading and our writing (PostgreSQL waits for it): it wins.
      if (Number(updated.numUpdatedRows) === 0) throw new Outcome(conflict((await getDeskIssue(tx, id))!));
      if (change.code !== before.code) {
        await takeCode(tx, change.code);
        await tx
          .insertInto("issue_former_code")
          .values({ code: before.code, issue_id: id, created_at: now.toISOString() })
          .onConflict((oc) => oc.column("code").doUpdateSet({ issue_id: id, created_at: now.toISOString() }))
          .execute();
      }
      await writeFeatures(tx, id, change.features);
      const after = (await getDeskIssue(tx, id))!;
      await recordAudit(
        tx,
        { actor: editor.actor, action: "magazine-issue.save", subject: `magazine-issue:${after.code}`, ...changed(before, after) },
        now,
      );
      return { result: { ok: true, issue: after, changed: true }, generation: await published(tx, id, now) };
    }),
  );
}
