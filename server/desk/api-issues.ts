import type { Database } from "~/server/db/connection";
import { issueCode } from "~/server/content/archive-calendar";
import type { IssueFeatureFields, IssueFields } from "~/shared/issue-fields";
import { articlePath, issueArtKey, issueCoverPath } from "~/shared/urls";
import type { Editor } from "./catalogue/common";
import { apiImage } from "./images";
import {
  createIssue,
  getDeskIssue,
  listDeskIssues,
  resolveFeatures,
  saveIssue,
  type DeskIssue,
  type DeskIssueSummary,
  type IssueResult,
} from "./magazine";

// Magazine issues as the Admin API answers with them and takes them (issue 38): features name
// their articles by slug or address, addresses are made absolute, the cover is the uploaded
// image's srcsets (or null, and the drawn cover's address).

const ISSUE_PAGE_SIZE = 20;

const absolute = (path: string, siteUrl: string) => new URL(path, siteUrl).href;

function apiIssueSummary(issue: DeskIssueSummary, siteUrl: string) {
  return {
    id: issue.id,
    code: issue.code,
    year: issue.year,
    month: issue.month,
    monthLabel: issue.monthLabel,
    title: issue.title,
    features: issue.features,
    hasCover: issue.hasCover,
    version: issue.version,
    updatedAt: issue.updatedAt,
    updatedBy: issue.updatedBy,
    url: absolute(`/archive-toc/${issue.code}`, siteUrl),
  };
}

export function apiIssue(issue: DeskIssue, siteUrl: string) {
  return {
    id: issue.id,
    code: issue.code,
    year: issue.year,
    month: issue.month,
    monthLabel: issue.monthLabel,
    title: issue.title,
    summary: issue.summary,
    version: issue.version,
    updatedAt: issue.updatedAt,
    updatedBy: issue.updatedBy,
    url: absolute(issue.path, siteUrl),
    cover: issue.cover ? apiImage(issue.cover, siteUrl) : null,
    drawnCover: absolute(issueCoverPath(issueArtKey(issue)), siteUrl),
    features: issue.features.map((f) => ({
      title: f.title,
      article: f.article && {
        id: f.article.id,
        slug: f.article.slug,
        title: f.article.title,
        status: f.article.status,
        url:
          f.article.status === "published"
            ? absolute(articlePath({ ...yearMonth(f.article.published), slug: f.article.slug }), siteUrl)
            : null,
      },
    })),
  };
}

type ApiIssue = ReturnType<typeof apiIssue>;

const yearMonth = (published: string) => ({ year: Number(published.slice(0, 4)), month: Number(published.slice(5, 7)) });

export type ApiIssueResult =
  | { ok: true; issue: ApiIssue; changed: boolean }
  | { ok: false; reason: "invalid"; fieldErrors: Record<string, string[]> }
  | { ok: false; reason: "missing" }
  | { ok: false; reason: "conflict"; current: ApiIssue; by: string; at: string };

function answer(result: IssueResult, siteUrl: string): ApiIssueResult {
  if (result.ok) return { ok: true, issue: apiIssue(result.issue, siteUrl), changed: result.changed };
  if (result.reason === "conflict") return { ...result, current: apiIssue(result.current, siteUrl) };
  return result;
}

/** The features' articles found, or the field errors naming each that is none (`features.2.article`). */
async function features(db: Database, given: readonly IssueFeatureFields[]) {
  const found = await resolveFeatures(db, given);
  if (found.ok) return found;
  const fieldErrors = Object.fromEntries([...found.problems].map(([index, message]) => [`features.${index}.article`, [message]]));
  return { ok: false as const, result: { ok: false as const, reason: "invalid" as const, fieldErrors } };
}

export async function listApiIssues(db: Database, query: { year?: number; page: number }, siteUrl: string) {
  const { total, items } = await listDeskIssues(db, { ...query, pageSize: ISSUE_PAGE_SIZE });
  return { page: query.page, pageSize: ISSUE_PAGE_SIZE, total, items: items.map((issue) => apiIssueSummary(issue, siteUrl)) };
}

export async function getApiIssue(db: Database, id: number, siteUrl: string): Promise<ApiIssue | undefined> {
  const issue = await getDeskIssue(db, id);
  return issue && apiIssue(issue, siteUrl);
}

export async function createApiIssue(
  db: Database,
  editor: Editor,
  input: IssueFields & { features: IssueFeatureFields[] },
  siteUrl: string,
  now: Date,
): Promise<ApiIssueResult> {
  const found = await features(db, input.features);
  if (!found.ok) return found.result;
  const { code, ...fields } = input;
  const change = { ...fields, code: code ?? issueCode(input.year, input.month), features: found.features };
  return answer(await createIssue(db, editor, change, now), siteUrl);
}

/** Saves the fields sent over the issue's own (`features` replaces the whole list), if it is still at `version`. */
export async function updateApiIssue(
  db: Database,
  editor: Editor,
  id: number,
  input: Partial<IssueFields> & { version: number; features?: IssueFeatureFields[] },
  siteUrl: string,
  now: Date,
): Promise<ApiIssueResult> {
  const current = await getDeskIssue(db, id);
  if (!current) return { ok: false, reason: "missing" };
  let list = current.features.map((f) => ({ title: f.title, articleId: f.article?.id ?? null }));
  if (input.features) {
    const found = await features(db, input.features);
    if (!found.ok) return found.result;
    list = found.features;
  }
  const change = {
    code: input.code ?? current.code,
    year: input.year ?? current.year,
    month: input.month ?? current.month,
    title: input.title ?? current.title,
    summary: input.summary ?? current.summary,
    features: list,
  };
  return answer(await saveIssue(db, editor, id, input.version, change, now), siteUrl);
}
