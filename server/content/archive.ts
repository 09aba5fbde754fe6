import type { Database } from "~/server/db/connection";
import { articlePath, issueCoverPath, issuePath } from "~/shared/urls";

export interface IssueSummary {
  id: number;
  code: string;
  year: number;
  month: number;
  monthLabel: string;
  title: string;
  summary: string;
  url: string;
  cover: string;
}

export interface IssueDetail extends IssueSummary {
  featuring: { title: string; url: string | null }[];
  previous: IssueSummary | null;
  next: IssueSummary | null;
}

type IssueRow = { id: number; code: string; year: number; month: number; month_label: string; title: string; summary: string };

function toSummary(r: IssueRow): IssueSummary {
  return {
    id: r.id,
    code: r.code,
    year: r.year,
    month: r.month,
    monthLabel: r.month_label,
    title: r.title,
    summary: r.summary,
    url: issuePath(r.code),
    cover: issueCoverPath(r.code),
  };
}

/** Archive years, newest first, each with its issues (the spec's archive: years with issueMonth and issueURL). */
export async function archiveYears(db: Database): Promise<{ yearId: number; issues: { issueMonth: string; issueURL: string }[] }[]> {
  const rows = await db
    .selectFrom("magazine_issue")
    .select(["year", "month_label", "code"])
    .orderBy("year", "desc")
    .orderBy("month")
    .execute();
  const years = new Map<number, { issueMonth: string; issueURL: string }[]>();
  for (const r of rows) years.set(r.year, [...(years.get(r.year) ?? []), { issueMonth: r.month_label, issueURL: issuePath(r.code) }]);
  return [...years].map(([yearId, issues]) => ({ yearId, issues }));
}

async function featuresOf(db: Database, issueIds: number[]) {
  if (issueIds.length === 0) return new Map<number, { title: string; url: string | null }[]>();
  const rows = await db
    .selectFrom("issue_feature")
    .leftJoin("article", "article.id", "issue_feature.article_id")
    .select(["issue_feature.issue_id", "issue_feature.title", "article.slug", "article.year", "article.month"])
    .where("issue_feature.issue_id", "in", issueIds)
    .orderBy("issue_feature.issue_id")
    .orderBy("issue_feature.position")
    .execute();
  const map = new Map<number, { title: string; url: string | null }[]>();
  for (const r of rows) {
    const url = r.slug && r.year && r.month ? articlePath({ slug: r.slug, year: r.year, month: r.month }) : null;
    map.set(r.issue_id, [...(map.get(r.issue_id) ?? []), { title: r.title, url }]);
  }
  return map;
}

export async function issuesOfYear(
  db: Database,
  year: number,
): Promise<(IssueSummary & { featuring: { title: string; url: string | null }[] })[]> {
  const rows = await db.selectFrom("magazine_issue").selectAll().where("year", "=", year).orderBy("month").execute();
  const features = await featuresOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({ ...toSummary(r), featuring: features.get(r.id) ?? [] }));
}

export async function issueByCode(db: Database, code: string): Promise<IssueDetail | undefined> {
  const row = await db.selectFrom("magazine_issue").selectAll().where("code", "=", code).executeTakeFirst();
  if (!row) return undefined;
  const [features, previous, next] = await Promise.all([
    featuresOf(db, [row.id]),
    db.selectFrom("magazine_issue").selectAll().where("id", "<", row.id).orderBy("id", "desc").limit(1).executeTakeFirst(),
    db.selectFrom("magazine_issue").selectAll().where("id", ">", row.id).orderBy("id").limit(1).executeTakeFirst(),
  ]);
  return {
    ...toSummary(row),
    featuring: features.get(row.id) ?? [],
    previous: previous ? toSummary(previous) : null,
    next: next ? toSummary(next) : null,
  };
}

export async function latestIssue(db: Database): Promise<IssueSummary | undefined> {
  const row = await db.selectFrom("magazine_issue").selectAll().orderBy("id", "desc").limit(1).executeTakeFirst();
  return row && toSummary(row);
}
