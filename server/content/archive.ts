import type { Database } from "~/server/db/connection";
import { imageSources, type ImageRef } from "~/shared/uploaded-images";
import { articlePath, issueArtKey, issueCoverPath, issuePath } from "~/shared/urls";

export interface IssueSummary {
  id: number;
  code: string;
  year: number;
  month: number;
  monthLabel: string;
  title: string;
  summary: string;
  url: string;
  /** The cover as one picture: the uploaded cover's JPEG, else the drawn cover. */
  cover: string;
  /** The uploaded cover (ADR 077), shown with its srcset; null when the issue shows the drawn one. */
  coverImage: ImageRef | null;
  /** What the drawn cover and the social card are named by (issueArtKey). */
  artKey: string;
}

export interface IssueDetail extends IssueSummary {
  featuring: { title: string; url: string | null }[];
  previous: IssueSummary | null;
  next: IssueSummary | null;
}

function issueQuery(db: Database) {
  return db
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
      "cover.id as cover_id",
      "cover.width as cover_width",
      "cover.height as cover_height",
      "cover.alt as cover_alt",
    ]);
}

type IssueRow = {
  id: number;
  code: string;
  year: number;
  month: number;
  month_label: string;
  title: string;
  summary: string;
  version: number;
  cover_id: string | null;
  cover_width: number | null;
  cover_height: number | null;
  cover_alt: string | null;
};

function toSummary(r: IssueRow): IssueSummary {
  const coverImage = r.cover_id === null ? null : { id: r.cover_id, width: r.cover_width!, height: r.cover_height!, alt: r.cover_alt };
  const artKey = issueArtKey(r);
  return {
    id: r.id,
    code: r.code,
    year: r.year,
    month: r.month,
    monthLabel: r.month_label,
    title: r.title,
    summary: r.summary,
    url: issuePath(r.code),
    cover: coverImage ? imageSources(coverImage).img.src : issueCoverPath(artKey),
    coverImage,
    artKey,
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
  // The view `article` holds only published articles: a feature whose article is not published is its title alone.
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
  const rows = await issueQuery(db).where("i.year", "=", year).orderBy("i.month").execute();
  const features = await featuresOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({ ...toSummary(r), featuring: features.get(r.id) ?? [] }));
}

export async function issueByCode(db: Database, code: string): Promise<IssueDetail | undefined> {
  const row = await issueQuery(db).where("i.code", "=", code).executeTakeFirst();
  if (!row) return undefined;
  // The issues before and after in the calendar, whatever order they were added in.
  const [features, previous, next] = await Promise.all([
    featuresOf(db, [row.id]),
    issueQuery(db)
      .where((eb) => eb.or([eb("i.year", "<", row.year), eb.and([eb("i.year", "=", row.year), eb("i.month", "<", row.month)])]))
      .orderBy("i.year", "desc")
      .orderBy("i.month", "desc")
      .limit(1)
      .executeTakeFirst(),
    issueQuery(db)
      .where((eb) => eb.or([eb("i.year", ">", row.year), eb.and([eb("i.year", "=", row.year), eb("i.month", ">", row.month)])]))
      .orderBy("i.year")
      .orderBy("i.month")
      .limit(1)
      .executeTakeFirst(),
  ]);
  return {
    ...toSummary(row),
    featuring: features.get(row.id) ?? [],
    previous: previous ? toSummary(previous) : null,
    next: next ? toSummary(next) : null,
  };
}

/** The code an issue now has that once had `code` (changed at the desk); undefined when none did. */
export async function issueCodeNow(db: Database, code: string): Promise<string | undefined> {
  const row = await db
    .selectFrom("issue_former_code as f")
    .innerJoin("magazine_issue as i", "i.id", "f.issue_id")
    .select("i.code")
    .where("f.code", "=", code)
    .executeTakeFirst();
  return row?.code;
}

/** The newest issue in the calendar. */
export async function latestIssue(db: Database): Promise<IssueSummary | undefined> {
  const row = await issueQuery(db).orderBy("i.year", "desc").orderBy("i.month", "desc").limit(1).executeTakeFirst();
  return row && toSummary(row);
}
