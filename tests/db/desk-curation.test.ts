import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { latestArticles } from "~/server/content/articles";
import { homePage, HOME_COUNTS } from "~/server/content/home";
import { readingListPage } from "~/server/content/reading-lists";
import type { Database } from "~/server/db/connection";
import { publishArticle, unpublishArticle } from "~/server/desk/articles";
import type { AuditActor } from "~/server/desk/audit";
import {
  chooseHomeStories,
  createReadingList,
  findArticle,
  getDeskReadingList,
  homeCuration,
  HOME_PICKS,
  saveReadingList,
} from "~/server/desk/curation";
import { seededTestDatabase } from "~/tests/helpers/test-db";

// The desk's curation (issue 38) on the database the run uses: the home page's chosen lead and
// pinned stories as readers get them, their fallback to the newest, and reading lists edited
// without lost updates. Every change is at a given moment.

const EDITOR: AuditActor = { id: null, label: "editor@example.org" };
const OTHER: AuditActor = { id: null, label: "other@example.org" };
const NOW = new Date("2026-06-01T10:00:00Z");
let db: Database;
let close: () => Promise<void>;
/** Published articles from the middle of the catalogue: never the newest, so a choice shows. */
let older: { id: number; slug: string; title: string; url: string }[];

beforeAll(async () => {
  ({ db, close } = await seededTestDatabase());
  const rows = await db.selectFrom("article").select(["id", "slug", "title", "year", "month"]).orderBy("published").limit(8).execute();
  older = rows.map((r) => ({ id: r.id, slug: r.slug, title: r.title, url: `/${r.year}/${String(r.month).padStart(2, "0")}/${r.slug}` }));
});
afterAll(() => close());

const auditRows = (action: string) => db.selectFrom("desk_audit").selectAll().where("action", "=", action).orderBy("id").execute();

describe("the home page's chosen stories", () => {
  it("leads with the newest articles while nothing is chosen", async () => {
    const newest = await latestArticles(db, 3);
    const home = await homePage(db, NOW);
    expect(home.lead?.id).toBe(newest[0]!.id);
    expect(home.secondary.map((a) => a.id)).toEqual(newest.slice(1).map((a) => a.id));
    expect((await homeCuration(db)).stories).toEqual([]);
  });

  it("shows the chosen lead and pinned stories in order, the rest newest first without repeats; a stale choice writes nothing", async () => {
    const [a, b, c] = older;
    const start = await homeCuration(db);
    const chosen = await chooseHomeStories(db, EDITOR, start.version, [a!.id, b!.id, c!.id], NOW);
    expect(chosen.ok).toBe(true);
    const home = await homePage(db, NOW);
    expect(home.lead?.id).toBe(a!.id);
    expect(home.secondary.map((s) => s.id)).toEqual([b!.id, c!.id]);
    expect(home.latest).toHaveLength(HOME_COUNTS.latest);
    expect(home.latest.map((s) => s.id)).not.toContain(a!.id);
    expect(home.latest[0]!.id).toBe((await latestArticles(db, 1))[0]!.id);

    // Another editor, from the page as it was before: refused, with who changed it and when.
    const stale = await chooseHomeStories(db, OTHER, start.version, [c!.id], new Date(NOW.getTime() + 1000));
    expect(stale).toMatchObject({ ok: false, reason: "conflict", by: EDITOR.label, at: NOW.toISOString() });
    expect((await homeCuration(db)).stories.map((s) => s.id)).toEqual([a!.id, b!.id, c!.id]);

    const [row] = await auditRows("home.curate");
    expect(row).toMatchObject({ actor: EDITOR.label, subject: "home-page" });
    expect(JSON.parse(row!.before!)).toEqual({ version: start.version, stories: [] });
    expect(JSON.parse(row!.after!)).toEqual({ version: start.version + 1, stories: [a!.slug, b!.slug, c!.slug] });
  });

  it("fills a slot whose chosen article was unpublished with the newest, and refuses to choose an unpublished one", async () => {
    const [a, b, c, d] = older;
    const newest = await latestArticles(db, 2);
    await unpublishArticle(db, EDITOR, b!.id, NOW);
    let home = await homePage(db, NOW);
    expect(home.lead?.id).toBe(a!.id);
    expect(home.secondary.map((s) => s.id)).toEqual([c!.id, newest[0]!.id]);

    await unpublishArticle(db, EDITOR, a!.id, NOW);
    home = await homePage(db, NOW);
    expect(home.lead?.id).toBe(newest[0]!.id);
    expect(home.secondary.map((s) => s.id)).toEqual([c!.id, newest[1]!.id]);

    // An unpublished choice may stay while the editor reorders; it cannot be chosen anew.
    const { version } = await homeCuration(db);
    expect((await chooseHomeStories(db, EDITOR, version, [c!.id, a!.id, b!.id], NOW)).ok).toBe(true);
    const kept = await chooseHomeStories(db, EDITOR, version + 1, [c!.id, d!.id, a!.id], NOW);
    expect(kept.ok).toBe(true);
    const again = await chooseHomeStories(db, EDITOR, version + 2, [c!.id, b!.id], NOW);
    expect(again).toMatchObject({ ok: false, reason: "invalid", message: expect.stringContaining("is not published") });
    expect(await chooseHomeStories(db, EDITOR, version + 2, [c!.id, c!.id], NOW)).toMatchObject({ reason: "invalid" });
    const tooMany = older.slice(0, HOME_PICKS + 1).map((x) => x.id);
    expect(await chooseHomeStories(db, EDITOR, version + 2, tooMany, NOW)).toMatchObject({ reason: "invalid" });

    // Published again, it is the lead again; an empty choice gives the page back to the newest.
    await publishArticle(db, EDITOR, a!.id, {}, NOW);
    home = await homePage(db, NOW);
    expect([home.lead?.id, ...home.secondary.map((s) => s.id)]).toEqual([c!.id, d!.id, a!.id]);
    expect((await chooseHomeStories(db, EDITOR, version + 2, [], NOW)).ok).toBe(true);
    home = await homePage(db, NOW);
    expect(home.lead?.id).toBe(newest[0]!.id);
    await publishArticle(db, EDITOR, b!.id, {}, NOW);
  });

  it("finds an article by its slug, its path or its full address", async () => {
    const [a] = older;
    for (const ref of [a!.slug, a!.url, `https://example.org${a!.url}?list=x`, `${a!.url}/`])
      expect((await findArticle(db, ref))?.id, ref).toBe(a!.id);
    for (const ref of ["/2020/01/no-such-article", "https://example.org/topic/x", "Not A Slug", ""])
      expect(await findArticle(db, ref), ref).toBeUndefined();
  });
});

describe("reading lists at the desk", () => {
  it("creates a list, then adds, reorders and removes its articles as readers see them, without lost updates", async () => {
    const [a, b, c] = older;
    const made = await createReadingList(
      db,
      EDITOR,
      { name: "Desk picks", slug: "desk-picks", description: "Chosen at the desk.", articleIds: [] },
      NOW,
    );
    if (!made.ok) throw new Error(JSON.stringify(made));
    expect(made.list).toMatchObject({ version: 1, items: [], path: "/reading-lists/desk-picks" });
    const taken = await createReadingList(db, EDITOR, { name: "Again", slug: "desk-picks", description: "", articleIds: [] }, NOW);
    expect(taken).toEqual({ ok: false, reason: "invalid", fieldErrors: { slug: ["Another reading list has the slug desk-picks."] } });

    const id = made.list.id;
    const fields = { name: "Desk picks", slug: "desk-picks", description: "Chosen at the desk." };
    const added = await saveReadingList(db, EDITOR, id, 1, { ...fields, articleIds: [a!.id, b!.id, c!.id] }, NOW);
    expect(added.ok && added.list.version).toBe(2);
    const reordered = await saveReadingList(db, EDITOR, id, 2, { ...fields, name: "Desk's picks", articleIds: [c!.id, a!.id] }, NOW);
    expect(reordered.ok).toBe(true);
    const page = await readingListPage(db, "desk-picks", { complete: true });
    expect(page?.name).toBe("Desk's picks");
    expect(page?.items.map((i) => i.title)).toEqual([c!.title, a!.title]);

    const stale = await saveReadingList(db, OTHER, id, 2, { ...fields, articleIds: [b!.id] }, NOW);
    expect(stale).toMatchObject({ ok: false, reason: "conflict", by: EDITOR.label, current: { version: 3, name: "Desk's picks" } });
    expect((await getDeskReadingList(db, id))?.items.map((i) => i.id)).toEqual([c!.id, a!.id]);
    expect(await saveReadingList(db, EDITOR, 99_999, 1, { ...fields, articleIds: [] }, NOW)).toEqual({ ok: false, reason: "missing" });

    const rows = (await auditRows("reading-list.save")).filter((r) => r.subject === "reading-list:desk-picks");
    expect(rows.map((r) => [JSON.parse(r.before!), JSON.parse(r.after!)])).toEqual([
      [
        { version: 1, items: [] },
        { version: 2, items: [a!.slug, b!.slug, c!.slug] },
      ],
      [
        { version: 2, name: "Desk picks", items: [a!.slug, b!.slug, c!.slug] },
        { version: 3, name: "Desk's picks", items: [c!.slug, a!.slug] },
      ],
    ]);
    expect((await auditRows("reading-list.create")).map((r) => r.subject)).toEqual(["reading-list:desk-picks"]);
  });

  it("refuses an unpublished article added to a list, and a slug another list has, as field errors", async () => {
    const [a, b] = older;
    const other = await db.selectFrom("reading_list").select("slug").where("slug", "!=", "desk-picks").executeTakeFirstOrThrow();
    const list = await db.selectFrom("reading_list").select(["id", "version"]).where("slug", "=", "desk-picks").executeTakeFirstOrThrow();
    const fields = { name: "Desk picks", slug: "desk-picks", description: "" };
    await unpublishArticle(db, EDITOR, b!.id, NOW);
    const unpublished = await saveReadingList(db, EDITOR, list.id, list.version, { ...fields, articleIds: [a!.id, b!.id] }, NOW);
    expect(unpublished).toMatchObject({
      ok: false,
      reason: "invalid",
      fieldErrors: { items: [expect.stringContaining("is not published")] },
    });
    const slug = await saveReadingList(db, EDITOR, list.id, list.version, { ...fields, slug: other.slug, articleIds: [] }, NOW);
    expect(slug).toEqual({ ok: false, reason: "invalid", fieldErrors: { slug: [`Another reading list has the slug ${other.slug}.`] } });
    expect((await getDeskReadingList(db, list.id))?.version).toBe(list.version);
    await publishArticle(db, EDITOR, b!.id, {}, NOW);
  });
});
