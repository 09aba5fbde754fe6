import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { databaseImageStorage } from "~/server/adapters/image-storage";
import { issueByCode, issueCodeNow, issuesOfYear, latestIssue } from "~/server/content/archive";
import { contentGeneration } from "~/server/content/content-generation";
import { homePage } from "~/server/content/home";
import { connect, type Database } from "~/server/db/connection";
import { unpublishArticle } from "~/server/desk/articles";
import { auditPage, type AuditAction, type AuditActor } from "~/server/desk/audit";
import type { Editor } from "~/server/desk/catalogue/common";
import { issuePicture, setIssueCover } from "~/server/desk/images";
import {
  createIssue,
  getDeskIssue,
  issueYears,
  listDeskIssues,
  resolveFeatures,
  saveIssue,
  type IssueChange,
} from "~/server/desk/magazine";
import { storeUpload, type UploadedImage } from "~/server/images/uploads";
import { searchContent } from "~/server/search";
import { jpegOf } from "~/tests/helpers/images";
import { dialectName, isolatedConnection, type IsolatedConnection } from "~/tests/helpers/test-db";

// Magazine issues at the desk (issue 38) on the database the run uses: made, changed and given a
// cover without lost updates, audited, and seen by readers (the archive, an issue's page, the
// home page, search) on this instance and on another reading the same database.

const ACTOR: AuditActor = { id: null, label: "editor@meridian.example" };
const EDITOR: Editor = { actor: ACTOR, name: "Ada Editor" };
const OTHER: Editor = { actor: { id: null, label: "other@meridian.example" }, name: "Otto Other" };
const NOW = new Date("2026-06-01T09:00:00Z");
const LATER = new Date("2026-06-01T09:05:00Z");

let connection: IsolatedConnection;
let db: Database;
/** Another instance of the site on the same database. */
let other: Database;
let cover: UploadedImage;
/** Published articles, by id and slug. */
let articles: { id: number; slug: string; title: string; path: string }[];

let offset = 0;
const realNow = performance.now.bind(performance);
vi.spyOn(performance, "now").mockImplementation(() => realNow() + offset);
/** Another instance trusts the generation it read for a second: its clock moves on by one. */
const aSecondPasses = () => (offset += 1_001);

beforeAll(async () => {
  connection = await isolatedConnection("magazine");
  db = connect(connection);
  other = connect(connection);
  const stored = await storeUpload(db, databaseImageStorage, ACTOR, await jpegOf(900, 1200), NOW, { alt: "A lighthouse in fog" });
  if (!stored.ok) throw new Error(stored.message);
  cover = stored.image;
  const rows = await db.selectFrom("article").select(["id", "slug", "title", "year", "month"]).orderBy("published").limit(3).execute();
  articles = rows.map((r) => ({ ...r, path: `/${r.year}/${String(r.month).padStart(2, "0")}/${r.slug}` }));
}, 60_000);

afterAll(async () => {
  vi.restoreAllMocks();
  await db?.destroy();
  await other?.destroy();
  await connection?.drop();
});

const auditRows = async (action: AuditAction) => (await auditPage(db, { action }, 1, 50)).rows;

const january: IssueChange = {
  code: "BR2601",
  year: 2026,
  month: 1,
  title: "Leading Through the Quiet Quarter",
  summary: "How calm companies plan for the storms they cannot see.",
  features: [],
};

async function searchTitles(database: Database, query: string) {
  const found = await searchContent(
    database,
    { query, kinds: ["issue"], topicId: null, from: null, to: null, sort: "relevance", paging: { page: 1, loaded: 1 } },
    { previewBlocks: 3 },
  );
  return found.entries.map((e) => ({ title: e.title, url: e.url, image: e.image }));
}

describe(`magazine issues at the desk on ${dialectName}`, () => {
  let id: number;

  it("adds an issue that the archive, the home page and search show at once, audited, on every instance", async () => {
    expect(await latestIssue(db)).toMatchObject({ code: "BR2511" });
    expect((await homePage(other)).issue?.code).toBe("BR2511");
    const generation = await contentGeneration(db);

    const made = await createIssue(db, EDITOR, january, NOW);
    if (!made.ok) throw new Error(JSON.stringify(made));
    id = made.issue.id;
    expect(made.issue).toMatchObject({
      code: "BR2601",
      monthLabel: "January–February",
      version: 1,
      updatedBy: "Ada Editor",
      updatedAt: NOW.toISOString(),
      path: "/archive-toc/BR2601",
      cover: null,
      features: [],
    });
    expect(await contentGeneration(db)).toBe(generation + 1);
    expect(await latestIssue(db)).toMatchObject({ code: "BR2601", cover: "/art/issue/BR2601.svg", coverImage: null });
    expect((await issuesOfYear(db, 2026)).map((i) => i.code)).toEqual(["BR2601"]);
    expect((await issueYears(db))[0]).toBe(2026);
    expect((await issueByCode(db, "BR2601"))?.previous?.code).toBe("BR2511");
    expect((await issueByCode(db, "BR2511"))?.next?.code).toBe("BR2601");
    expect(await searchTitles(db, "quiet quarter")).toEqual([
      { title: "Leading Through the Quiet Quarter (January–February 2026)", url: "/archive-toc/BR2601", image: "/art/issue/BR2601.svg" },
    ]);
    // The other instance's home page follows once it reads the generation again.
    aSecondPasses();
    expect((await homePage(other)).issue?.code).toBe("BR2601");

    const [row] = await auditRows("magazine-issue.create");
    expect(row).toMatchObject({ actor: ACTOR.label, subject: "magazine-issue:BR2601" });
    expect(row!.after).toEqual({
      code: "BR2601",
      year: 2026,
      month: 1,
      title: january.title,
      summary: january.summary,
      features: [],
    });
  });

  it("refuses another issue's code or month, with the field and a message, writing nothing", async () => {
    const generation = await contentGeneration(db);
    expect(await createIssue(db, EDITOR, { ...january, year: 2026, month: 3, code: "BR2601" }, NOW)).toEqual({
      ok: false,
      reason: "invalid",
      fieldErrors: { code: ["The January–February 2026 issue has the code BR2601: choose another."] },
    });
    expect(await createIssue(db, EDITOR, { ...january, code: "BR2699" }, NOW)).toEqual({
      ok: false,
      reason: "invalid",
      fieldErrors: { month: ["The archive has an issue for January–February 2026 already (BR2601)."] },
    });
    expect(await saveIssue(db, EDITOR, id, 1, { ...january, code: "BR2511" }, NOW)).toMatchObject({
      ok: false,
      reason: "invalid",
      fieldErrors: { code: [expect.stringContaining("November–December 2025")] },
    });
    expect(await saveIssue(db, EDITOR, 99_999_999, 1, january, NOW)).toEqual({ ok: false, reason: "missing" });
    expect(await contentGeneration(db)).toBe(generation);
    expect(await auditRows("magazine-issue.create")).toHaveLength(1);
    expect(await auditRows("magazine-issue.save")).toEqual([]);
  });

  it("saves contents in order, each a title and perhaps an article; readers get a link while the article is published", async () => {
    const [a, b] = articles;
    const resolved = await resolveFeatures(db, [{ article: a!.path }, { title: "The Long View", article: b!.slug }, { title: "Letters" }]);
    if (!resolved.ok) throw new Error("unresolved");
    expect(resolved.features).toEqual([
      { title: a!.title, articleId: a!.id },
      { title: "The Long View", articleId: b!.id },
      { title: "Letters", articleId: null },
    ]);
    const unknown = await resolveFeatures(db, [{ title: "Fine" }, { article: "/2001/01/no-such-article" }]);
    expect(unknown).toEqual({ ok: false, problems: new Map([[1, "No article has the address or slug “/2001/01/no-such-article”."]]) });

    const saved = await saveIssue(db, EDITOR, id, 1, { ...january, features: resolved.features }, LATER);
    expect(saved).toMatchObject({ ok: true, changed: true, issue: { version: 2 } });
    expect((await issueByCode(db, "BR2601"))?.featuring).toEqual([
      { title: a!.title, url: a!.path },
      { title: "The Long View", url: b!.path },
      { title: "Letters", url: null },
    ]);

    await unpublishArticle(db, ACTOR, b!.id, LATER);
    expect((await issueByCode(db, "BR2601"))?.featuring[1]).toEqual({ title: "The Long View", url: null });
    expect((await getDeskIssue(db, id))?.features[1]?.article).toMatchObject({ id: b!.id, status: "unpublished" });

    const [row] = await auditRows("magazine-issue.save");
    expect(row).toMatchObject({ actor: ACTOR.label, subject: "magazine-issue:BR2601" });
    expect(row!.before).toEqual({ version: 1, features: [] });
    expect(row!.after).toEqual({
      version: 2,
      features: [
        { title: a!.title, article: a!.slug },
        { title: "The Long View", article: b!.slug },
        { title: "Letters", article: null },
      ],
    });
  });

  it("never loses an update: a save from version 1 writes nothing and answers who saved since, and when", async () => {
    const stale = await saveIssue(db, OTHER, id, 1, { ...january, title: "Stale" }, LATER);
    expect(stale).toMatchObject({ ok: false, reason: "conflict", by: "Ada Editor", at: LATER.toISOString(), current: { version: 2 } });
    expect((await getDeskIssue(db, id))?.title).toBe(january.title);

    // A save that changes nothing writes nothing: no version, no audit row, no new generation.
    const current = (await getDeskIssue(db, id))!;
    const same = current.features.map((f) => ({ title: f.title, articleId: f.article?.id ?? null }));
    const generation = await contentGeneration(db);
    expect(await saveIssue(db, OTHER, id, 2, { ...january, features: same }, LATER)).toMatchObject({ ok: true, changed: false });
    expect(await contentGeneration(db)).toBe(generation);
    expect(await auditRows("magazine-issue.save")).toHaveLength(1);
  });

  it("moves the issue to a new code and date: the old code's page leads to it, the drawn cover is named anew, search follows", async () => {
    const current = (await getDeskIssue(db, id))!;
    const features = current.features.map((f) => ({ title: f.title, articleId: f.article?.id ?? null })).reverse();
    const moved = await saveIssue(db, OTHER, id, 2, { ...january, code: "BR2603", month: 3, title: "The Spring Ledger", features }, LATER);
    expect(moved).toMatchObject({ ok: true, issue: { code: "BR2603", monthLabel: "March–April", version: 3, updatedBy: "Otto Other" } });
    expect(await issueByCode(db, "BR2601")).toBeUndefined();
    expect(await issueCodeNow(db, "BR2601")).toBe("BR2603");
    const page = (await issueByCode(db, "BR2603"))!;
    expect(page).toMatchObject({ title: "The Spring Ledger", artKey: "BR2603-v3", cover: "/art/issue/BR2603-v3.svg" });
    expect(page.featuring.map((f) => f.title)).toEqual(["Letters", "The Long View", articles[0]!.title]);
    expect(await searchTitles(db, "quiet quarter")).toEqual([]);
    expect((await searchTitles(db, "spring ledger"))[0]).toMatchObject({ url: "/archive-toc/BR2603", image: "/art/issue/BR2603-v3.svg" });

    const row = (await auditRows("magazine-issue.save"))[0]!;
    expect(row.subject).toBe("magazine-issue:BR2603");
    expect(row.before).toMatchObject({ version: 2, code: "BR2601", month: 1, title: january.title });
    expect(row.after).toMatchObject({ version: 3, code: "BR2603", month: 3, title: "The Spring Ledger" });

    // A new issue that takes the old code back takes its page back too.
    const again = await createIssue(db, EDITOR, january, LATER);
    expect(again.ok).toBe(true);
    expect(await issueCodeNow(db, "BR2601")).toBeUndefined();
    expect((await issueByCode(db, "BR2601"))?.title).toBe(january.title);
  });

  it("places an issue added late (a gap in the archive) in the calendar between its neighbours", async () => {
    const made = await createIssue(
      db,
      EDITOR,
      { code: "7403", year: 1974, month: 3, title: "The Oil Shock Issue", summary: "Printed at last.", features: [] },
      NOW,
    );
    expect(made).toMatchObject({ ok: true, issue: { monthLabel: "March–April" } });
    const page = (await issueByCode(db, "7403"))!;
    expect([page.previous?.code, page.next?.code]).toEqual(["7401", "7405"]);
    expect((await issuesOfYear(db, 1974)).map((i) => i.code)).toEqual(["7401", "7403", "7405", "7407", "7409", "7411"]);

    const listed = await listDeskIssues(db, { year: 1974, page: 1, pageSize: 4 });
    expect(listed.total).toBe(6);
    expect(listed.items.map((i) => i.code)).toEqual(["7411", "7409", "7407", "7405"]);
    const all = await listDeskIssues(db, { page: 1, pageSize: 3 });
    expect(all.items.map((i) => i.code)).toEqual(["BR2603", "BR2601", "BR2511"]);
    expect(all.items[0]).toMatchObject({ features: 3, hasCover: false, updatedBy: "Otto Other" });
  });
});

describe(`an issue's cover on ${dialectName}`, () => {
  it("is an uploaded image, set and removed as an audited action of its own: the version stays, readers see it everywhere", async () => {
    const issue = (await issueByCode(db, "BR2603"))!;
    expect(await setIssueCover(db, ACTOR, 99_999_999, cover.id, NOW)).toEqual({ ok: false, reason: "missing-issue" });
    expect(await setIssueCover(db, ACTOR, issue.id, "no-such-image", NOW)).toEqual({ ok: false, reason: "missing-image" });
    expect(await auditRows("magazine-issue.cover")).toEqual([]);
    const before = (await getDeskIssue(db, issue.id))!;
    aSecondPasses();
    expect((await homePage(other)).issue?.code).toBe("BR2603");
    const generation = await contentGeneration(db);

    expect(await setIssueCover(db, ACTOR, issue.id, cover.id, NOW)).toEqual({ ok: true, imageId: cover.id, changed: true });
    expect(await contentGeneration(db)).toBe(generation + 1);
    const ref = { id: cover.id, width: 900, height: 1200, alt: "A lighthouse in fog" };
    const shown = (await issueByCode(db, "BR2603"))!;
    expect(shown.coverImage).toEqual(ref);
    expect(shown.cover).toBe(`/images/${cover.id}/900.jpg`);
    expect((await issuePicture(db, issue.id))?.cover).toEqual(ref);
    expect((await getDeskIssue(db, issue.id))?.version).toBe(before.version);
    expect((await searchTitles(db, "spring ledger"))[0]?.image).toBe(`/images/${cover.id}/900.jpg`);
    // The other instance's home page shows it once it reads the generation again.
    expect((await homePage(other)).issue?.coverImage).toBeNull();
    aSecondPasses();
    expect((await homePage(other)).issue?.coverImage).toEqual(ref);

    expect(await setIssueCover(db, ACTOR, issue.id, cover.id, NOW)).toEqual({ ok: true, imageId: cover.id, changed: false });
    expect(await setIssueCover(db, ACTOR, issue.id, null, LATER)).toEqual({ ok: true, imageId: null, changed: true });
    expect((await issueByCode(db, "BR2603"))?.cover).toBe("/art/issue/BR2603-v3.svg");
    const rows = await auditRows("magazine-issue.cover");
    expect(rows.map((r) => [r.subject, r.before, r.after])).toEqual([
      ["magazine-issue:BR2603", { imageId: cover.id }, { imageId: null }],
      ["magazine-issue:BR2603", { imageId: null }, { imageId: cover.id }],
    ]);
  });
});
