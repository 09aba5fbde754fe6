import * as cheerio from "cheerio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type Database } from "~/server/db/connection";
import { createApiKey } from "~/server/desk/api-keys";
import { COMMAND_LINE } from "~/server/desk/audit";
import { ApiContract } from "~/tests/helpers/api-contract";
import { deskPeople, uploadPicture } from "~/tests/helpers/desk-staff";
import { gifOf, jpegOf } from "~/tests/helpers/images";
import { Reader } from "~/tests/helpers/reader";
import { startBuiltServer, type RunningServer } from "~/tests/helpers/server";
import { dialectName, isolatedConnection, type IsolatedConnection } from "~/tests/helpers/test-db";

// Magazine issues at the desk (issue 38) through the production build, two instances on one
// database: an editor adds an issue and edits its contents and cover with plain form posts (no
// JS), bad input gets its message and a 4xx, two editors cannot lose each other's work, readers
// on the other instance see the change within seconds; who may reach the pages; and the Admin
// API's issues against its document.

let connection: IsolatedConnection;
let db: Database;
let one: RunningServer;
let two: RunningServer;
let editor: Reader;
let editorEmail: string;
let colleague: Reader;
/** Published articles from early in the catalogue. */
let older: { id: number; slug: string; title: string; path: string }[];
/** The issue the desk's tests make. */
let issueId: number;

beforeAll(async () => {
  connection = await isolatedConnection("magazine");
  [one, two] = await Promise.all([
    startBuiltServer({ RATE_LIMIT_PER_ACCOUNT: "1000" }, "production", connection),
    startBuiltServer({ RATE_LIMIT_PER_ACCOUNT: "1000" }, "production", connection),
  ]);
  db = connect(connection);
  const people = deskPeople(one.url, db);
  ({ reader: editor, email: editorEmail } = await people.staffMember(["editor"], "Ada"));
  colleague = (await people.staffMember(["editor"], "Grace")).reader;
  const rows = await db.selectFrom("article").select(["id", "slug", "title", "year", "month"]).orderBy("published").limit(4).execute();
  older = rows.map((r) => ({ id: r.id, slug: r.slug, title: r.title, path: `/${r.year}/${String(r.month).padStart(2, "0")}/${r.slug}` }));
}, 180_000);

afterAll(async () => {
  await db?.destroy();
  await Promise.all([one?.stop(), two?.stop()]);
  await connection?.drop();
});

const issueVersion = async () =>
  (await db.selectFrom("magazine_issue").select("version").where("id", "=", issueId).executeTakeFirstOrThrow()).version;

/** The edit form's fields as the page holds them now, with the features as rows, and more to send. */
async function formOf(reader: Reader, more: [string, string][] = []): Promise<URLSearchParams> {
  const page = await reader.page(`/desk/magazine/${issueId}`);
  const entries: [string, string][] = [];
  page("form#issue input[name], form#issue textarea[name], form#issue select[name]").each((_, el) => {
    const field = page(el);
    const name = field.attr("name")!;
    if (name === "intent" || more.some(([m]) => m === name)) return;
    if (el.tagName === "select") entries.push([name, field.find("option[selected]").attr("value") ?? ""]);
    else if (el.tagName === "textarea") entries.push([name, field.text()]);
    else entries.push([name, field.attr("value") ?? ""]);
  });
  return new URLSearchParams([...entries, ...more]);
}

/** The contents of an issue's page as a guest sees it on a server: each feature's title and link. */
async function contentsOn(server: RunningServer, code: string) {
  const page = await new Reader(server.url).page(`/archive-toc/${code}`);
  return page("main ol li")
    .map((_, li) => `${page(li).text()}${page(li).find("a").length ? ` → ${page(li).find("a").attr("href")}` : ""}`)
    .get();
}

describe(`the desk's magazine pages (${dialectName})`, () => {
  it("lists the issues newest first, a year's at a time, in pages with plain links", async () => {
    const page = await editor.page("/desk/magazine");
    expect(page("h1").text()).toBe("Magazine");
    expect(
      page("nav[aria-label=Desk] a")
        .map((_, a) => page(a).text())
        .get(),
    ).toContain("Magazine");
    expect(page("tbody tr").first().find("td[data-label=Issue]").text()).toBe("BR2511");
    expect(page("tbody tr")).toHaveLength(25);
    expect(page("[role=status]").text()).toMatch(/^\d+ issues, newest first\. Page 1 of \d+\.$/);
    expect(page("nav[aria-label='Pages of issues'] a[rel=next]").attr("href")).toBe("/desk/magazine?page=2");
    const second = await editor.page("/desk/magazine?page=2");
    expect(second("tbody tr").first().find("td[data-label=Issue]").text()).not.toBe("BR2511");

    const year = await editor.page("/desk/magazine?year=1974");
    expect(
      year("tbody td[data-label=Issue]")
        .map((_, td) => year(td).text())
        .get(),
    ).toEqual(["7411", "7409", "7407", "7405", "7401"]);
    expect(year("[role=status]").text()).toBe("5 issues in 1974, newest first. Page 1 of 1.");
    expect(year("select[name=year] option[selected]").attr("value")).toBe("1974");
    for (const bad of ["/desk/magazine?year=abc", "/desk/magazine?year=1800", "/desk/magazine?page=0"]) {
      const shown = await editor.page(bad);
      expect(shown("[role=alert]").text(), bad).toBe("The year or page could not be read and was left out.");
      expect(shown("tbody tr").first().find("td[data-label=Issue]").text(), bad).toBe("BR2511");
    }
  });

  it("adds an issue with a plain post, refusing bad input with messages; readers see it on the other instance within seconds", async () => {
    const blank = await editor.page("/desk/magazine/new");
    expect(blank("input[name=year]").attr("value")).toBe("2026");
    expect(blank("select[name=month] option[selected]").attr("value")).toBe("1");

    const bad = await editor.request("/desk/magazine/new", { form: { code: "XX1", year: "next", month: "13", title: "", summary: "" } });
    expect(bad.status).toBe(400);
    const badPage = cheerio.load(await bad.text());
    expect(badPage("title").text()).toMatch(/^Error: /);
    for (const message of [
      "Enter the issue's code: BR and four digits from 2010 on (BR2601), four digits before (9905).",
      "Enter the year, from 1956 to 2100.",
      "Choose the first month the issue covers.",
      "Enter the cover story's title, up to 200 characters.",
      "Enter a summary of up to 2,000 characters.",
    ])
      expect(badPage("main").text()).toContain(message);

    const taken = await editor.request("/desk/magazine/new", { form: { year: "2025", month: "11", title: "Again", summary: "Twice." } });
    expect(taken.status).toBe(400);
    expect(await taken.text()).toContain("The archive has an issue for November–December 2025 already (BR2511).");

    const made = await editor.request("/desk/magazine/new", {
      form: { code: "", year: "2026", month: "1", title: "The Quiet Quarter", summary: "How calm companies plan." },
    });
    expect(made.status).toBe(303);
    const location = made.headers.get("location")!;
    expect(location).toMatch(/^\/desk\/magazine\/\d+\?saved=created$/);
    issueId = Number(/\/(\d+)\?/.exec(location)![1]);
    const page = await editor.page(location);
    expect(page("[role=status]").first().text()).toBe("Issue added. Add its contents and cover below.");
    expect(page("h1").text()).toBe("January–February 2026: The Quiet Quarter");
    expect(page("input[name=code]").attr("value")).toBe("BR2601");

    await expect
      .poll(async () => (await new Reader(two.url).request("/archive-toc/BR2601")).status, { timeout: 5_000, interval: 250 })
      .toBe(200);
    // The other instance's page caches read the content generation once a second (ADR 076), so
    // a page it cached before the change may show the old issue for up to that second.
    await expect
      .poll(async () => (await new Reader(two.url).page("/magazine?year=2026"))("main h3").text(), { timeout: 5_000, interval: 250 })
      .toContain("The Quiet Quarter");
    await expect
      .poll(async () => (await new Reader(two.url).page("/"))("section[aria-labelledby=issue-heading] h3").text(), {
        timeout: 5_000,
        interval: 250,
      })
      .toBe("The Quiet Quarter");
  });

  it("adds, moves, edits and removes features with plain posts; the issue's page shows them in order, linking published articles", async () => {
    const [a, b] = older;
    const post = async (more: [string, string][]) => editor.request(`/desk/magazine/${issueId}`, { form: await formOf(editor, more) });

    for (const more of [
      [
        ["newArticle", `${one.url}${a!.path}`],
        ["intent", "add"],
      ],
      [
        ["newTitle", "Letters to the Editor"],
        ["intent", "add"],
      ],
      [
        ["newTitle", "The Long View"],
        ["newArticle", b!.slug],
        ["intent", "add"],
      ],
    ] as [string, string][][]) {
      const res = await post(more);
      expect(res.status, JSON.stringify(more)).toBe(303);
      expect(res.headers.get("location")).toBe(`/desk/magazine/${issueId}?saved=saved`);
    }
    let page = await editor.page(`/desk/magazine/${issueId}`);
    expect(page("input[name='features[0].title']").attr("value")).toBe(a!.title);
    expect(page("input[name='features[0].article']").attr("value")).toBe(a!.path);
    expect(page("input[name='features[1].article']").attr("value")).toBe("");
    expect(page("main ol li").first().text()).toContain(`Links “${a!.title}”`);

    expect((await post([["intent", "up-2"]])).status).toBe(303);
    expect((await post([["intent", "down-0"]])).status).toBe(303);
    expect((await post([["features[0].title", "The Long View, Reconsidered"]])).status).toBe(303);
    await expect
      .poll(() => contentsOn(two, "BR2601"), { timeout: 5_000, interval: 250 })
      .toEqual([`The Long View, Reconsidered → ${b!.path}`, `${a!.title} → ${a!.path}`, "Letters to the Editor"]);

    expect((await post([["intent", "remove-2"]])).status).toBe(303);
    page = await editor.page(`/desk/magazine/${issueId}?saved=saved`);
    expect(page("[role=status]").first().text()).toBe("Saved. Readers see the change within seconds.");
    expect(
      page("main ol li input[name$='.title']")
        .map((_, el) => page(el).attr("value"))
        .get(),
    ).toEqual(["The Long View, Reconsidered", a!.title]);
    // Saving the page as it is changes nothing, and says so.
    const same = await post([]);
    expect(same.headers.get("location")).toBe(`/desk/magazine/${issueId}?saved=unchanged`);

    const rows = await db
      .selectFrom("desk_audit")
      .select(["action", "actor", "subject", "after"])
      .where("subject", "=", "magazine-issue:BR2601")
      .orderBy("at")
      .orderBy("id")
      .execute();
    expect(rows.map((r) => r.action)).toEqual(["magazine-issue.create", ...Array(7).fill("magazine-issue.save")]);
    expect(rows.every((r) => r.actor === editorEmail)).toBe(true);
    expect(JSON.parse(rows.at(-1)!.after!)).toEqual({
      version: 8,
      features: [
        { title: "The Long View, Reconsidered", article: b!.slug },
        { title: a!.title, article: a!.slug },
      ],
    });
  });

  it("refuses bad contents with a message and a 4xx, changing nothing", async () => {
    const version = await issueVersion();
    for (const [more, status, message] of [
      [
        [
          ["newArticle", "/2001/01/no-such-article"],
          ["intent", "add"],
        ],
        400,
        "No article has the address or slug “/2001/01/no-such-article”.",
      ],
      [[["intent", "add"]], 400, "Give the feature a title of up to 300 characters, or link an article (its title is used)."],
      [[["features[1].article", "nothing-like-this"]], 400, "No article has the address or slug “nothing-like-this”."],
      [
        [
          ["features[0].title", ""],
          ["features[0].article", ""],
        ],
        400,
        "Give the feature a title of up to 300 characters",
      ],
      [[["intent", "sideways-1"]], 400, "That button is not one this page has: open the page again."],
      [[["version", "x"]], 400, "This form is out of date: open the page again."],
      [[["year", "1955"]], 400, "Enter the year, from 1956 to 2100."],
      [[["code", "BR2511"]], 400, "The November–December 2025 issue has the code BR2511: choose another."],
      [[["features[0].title", "x".repeat(301)]], 400, "Give the feature a title of up to 300 characters"],
    ] as [[string, string][], number, string][]) {
      const res = await editor.request(`/desk/magazine/${issueId}`, { form: await formOf(editor, more) });
      expect(res.status, message).toBe(status);
      const html = await res.text();
      expect(cheerio.load(html)("title").text(), message).toMatch(/^Error: /);
      expect(cheerio.load(html)("main").text(), message).toContain(message);
    }
    expect(await issueVersion()).toBe(version);
    expect((await editor.request("/desk/magazine/99999999")).status).toBe(404);
    expect((await editor.request("/desk/magazine/abc")).status).toBe(404);
    const missing = await editor.request("/desk/magazine/99999999", { form: await formOf(editor) });
    expect(missing.status).toBe(404);
  });

  it("never loses an update: a save from an older version shows both, keeps the editor's, and a second save replaces knowingly", async () => {
    const mine = await formOf(editor, [["title", "Ada's Quiet Quarter"]]);
    const theirs = await colleague.request(`/desk/magazine/${issueId}`, {
      form: await formOf(colleague, [["title", "Grace's Quiet Quarter"]]),
    });
    expect(theirs.status).toBe(303);
    const version = await issueVersion();

    const stale = await editor.request(`/desk/magazine/${issueId}`, { form: mine });
    expect(stale.status).toBe(409);
    const page = cheerio.load(await stale.text());
    expect(page("title").text()).toMatch(/^Error: /);
    const saved = await db.selectFrom("magazine_issue").select("updated_at").where("id", "=", issueId).executeTakeFirstOrThrow();
    const at = `${saved.updated_at!.slice(0, 10)} ${saved.updated_at!.slice(11, 16)} UTC`;
    expect(page("main [role=alert]").text()).toContain(`This issue was changed by Grace Desk at ${at} since you opened it`);
    // Both versions: the editor's in the form, the saved one beside it.
    expect(page("input[name=title]").attr("value")).toBe("Ada's Quiet Quarter");
    expect(page("input[name=version]").attr("value")).toBe(String(version));
    expect(page("aside h2").first().text()).toBe(`Saved since you opened it (version ${version})`);
    expect(page("aside").first().text()).toContain("Grace's Quiet Quarter");
    expect((await db.selectFrom("magazine_issue").select("title").where("id", "=", issueId).executeTakeFirstOrThrow()).title).toBe(
      "Grace's Quiet Quarter",
    );

    mine.set("version", String(version));
    const again = await editor.request(`/desk/magazine/${issueId}`, { form: mine });
    expect(again.status).toBe(303);
    expect((await db.selectFrom("magazine_issue").select("title").where("id", "=", issueId).executeTakeFirstOrThrow()).title).toBe(
      "Ada's Quiet Quarter",
    );
  });

  it("moves an issue to a new code: the old address answers 301 to the new page", async () => {
    const res = await editor.request(`/desk/magazine/${issueId}`, { form: await formOf(editor, [["code", "br2602"]]) });
    expect(res.status).toBe(303);
    const moved = await new Reader(one.url).request("/archive-toc/BR2601?from=mail");
    expect(moved.status).toBe(301);
    expect(moved.headers.get("location")).toBe("/archive-toc/BR2602?from=mail");
    const page = await new Reader(one.url).page("/archive-toc/BR2602");
    expect(page("h1").text()).toBe("Ada's Quiet Quarter");
    // The drawn cover is named by the new version: no cache holds the old title under it.
    const art = page("main img").first().attr("src")!;
    expect(art).toMatch(/^\/art\/issue\/BR2602-v\d+\.svg$/);
    const svg = await (await fetch(`${one.url}${art}`)).text();
    expect(svg).toContain("Quarter");
    expect(svg).toContain("January–February 2026");
    expect((await fetch(`${one.url}/art/issue/BR2699-v2.svg`)).status).toBe(404);
  });
});

describe(`an issue's cover at the desk (${dialectName})`, () => {
  let coverId: string;

  it("uploads a cover that the issue's page shows with srcset and as og:image, the archive and the other instance too", async () => {
    const path = `/desk/magazine/${issueId}/cover`;
    const before = await editor.page(path);
    expect(before("h1").text()).toBe("Cover: January–February 2026");
    expect(before("main figure img").attr("src")).toMatch(/^\/art\/issue\/BR2602-v\d+\.svg$/);

    const refused = await uploadPicture(editor, path, { bytes: await gifOf(300, 400), name: "cover.jpg", type: "image/jpeg" }, "Kept");
    expect(refused.status).toBe(422);
    const refusedPage = cheerio.load(await refused.text());
    expect(refusedPage("[role=alert]").text()).toBe("Upload a JPEG, PNG or WebP image of up to 20 MB.");
    expect(refusedPage("#picture-alt").attr("value")).toBe("Kept");

    const res = await uploadPicture(
      editor,
      path,
      { bytes: await jpegOf(900, 1200), name: "cover.jpg", type: "image/jpeg" },
      "A lighthouse",
    );
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(path);
    const after = await editor.page(path);
    expect(after("[role=status]").text()).toBe("The cover is on the issue now.");
    coverId = /^\/images\/([0-9a-f-]{36})\//.exec(after("main figure picture img").attr("src") ?? "")![1]!;

    const srcset = (ext: string) => [320, 640, 900].map((w) => `/images/${coverId}/${w}.${ext} ${w}w`).join(", ");
    await expect
      .poll(async () => (await new Reader(two.url).page("/archive-toc/BR2602"))("main picture img").attr("src"), {
        timeout: 5_000,
        interval: 250,
      })
      .toBe(`/images/${coverId}/900.jpg`);
    const page = await new Reader(two.url).page("/archive-toc/BR2602");
    expect(page("main picture source[type='image/avif']").attr("srcset")).toBe(srcset("avif"));
    expect(page("main picture img").attr("srcset")).toBe(srcset("jpg"));
    expect(page("main picture img").attr("alt")).toBe("Cover of the January–February 2026 issue: Ada's Quiet Quarter. A lighthouse");
    expect(page("meta[property='og:image']").attr("content")).toBe(`${two.url}/images/${coverId}/900.jpg`);
    expect(page("script[type='application/ld+json']").text()).toContain(`/images/${coverId}/900.jpg`);
    const archive = await new Reader(two.url).page("/magazine?year=2026");
    expect(archive(`main article picture img[src='/images/${coverId}/900.jpg']`)).toHaveLength(1);
    expect((await fetch(`${two.url}/images/${coverId}/640.webp`)).headers.get("content-type")).toBe("image/webp");
    const desk = await editor.page(`/desk/magazine/${issueId}`);
    expect(desk("aside picture img").attr("src")).toBe(`/images/${coverId}/900.jpg`);
    expect(desk("aside a").text()).toContain("Change or remove the cover");
  });

  it("removes the cover: the drawn one is back; the audit log has both changes", async () => {
    const res = await editor.request(`/desk/magazine/${issueId}/cover`, { form: { intent: "remove" } });
    expect(res.status).toBe(303);
    const page = await new Reader(one.url).page("/archive-toc/BR2602");
    expect(page("main picture")).toHaveLength(0);
    expect(page("meta[property='og:image']").attr("content")).toMatch(/\/art\/card\/issue\/BR2602-v\d+\.png$/);
    const rows = await db
      .selectFrom("desk_audit")
      .select(["actor", "before", "after"])
      .where("action", "=", "magazine-issue.cover")
      .orderBy("at")
      .execute();
    expect(rows.map((r) => [r.actor, JSON.parse(r.before!), JSON.parse(r.after!)])).toEqual([
      [editorEmail, { imageId: null }, { imageId: coverId }],
      [editorEmail, { imageId: coverId }, { imageId: null }],
    ]);
  });
});

describe(`who reaches the magazine pages (${dialectName})`, () => {
  it("gives guests and readers 404, the store role 403, and refuses another site's post", async () => {
    const pages = ["/desk/magazine", "/desk/magazine/new", `/desk/magazine/${issueId}`, `/desk/magazine/${issueId}/cover`];
    const { reader } = await deskPeople(one.url, db).signedInReader("plain");
    const store = (await deskPeople(one.url, db).staffMember(["store"])).reader;
    for (const path of pages) {
      for (const asker of [new Reader(one.url), reader]) {
        expect((await asker.request(path)).status, path).toBe(404);
        expect((await asker.request(path, { form: { intent: "save", version: "1" } })).status, path).toBe(404);
      }
      expect((await store.request(path)).status, path).toBe(403);
      expect((await store.request(path, { form: { intent: "remove", version: "1" } })).status, path).toBe(403);
    }
    const version = await issueVersion();
    const foreign = await editor.request(`/desk/magazine/${issueId}`, {
      form: await formOf(editor, [["title", "From elsewhere"]]),
      headers: { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
    });
    expect(foreign.status).toBe(403);
    const foreignNew = await editor.request("/desk/magazine/new", {
      form: { year: "2026", month: "3", title: "Elsewhere", summary: "No." },
      headers: { Origin: "https://evil.example" },
    });
    expect(foreignNew.status).toBe(403);
    const jpeg = { bytes: await jpegOf(300, 400), name: "a.jpg", type: "image/jpeg" };
    const foreignCover = await uploadPicture(editor, `/desk/magazine/${issueId}/cover`, jpeg, "", { Origin: "https://evil.example" });
    expect(foreignCover.status).toBe(403);
    expect(await issueVersion()).toBe(version);
    expect(
      await db.selectFrom("magazine_issue").select("id").where("year", "=", 2026).where("month", "=", 3).executeTakeFirst(),
    ).toBeUndefined();
  });
});

describe(`the Admin API's issues (${dialectName})`, () => {
  const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
  const json = (key: string, method: string, body: unknown): RequestInit => ({
    method,
    headers: { ...bearer(key), "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });

  it("lists, adds, reads, changes and covers issues, with 400, 401, 403, 404 and 409 as documented, every call audited", async () => {
    const [a, b] = older;
    const contract = await ApiContract.load(one.url);
    const tag = contract.document.paths["/desk/api/issues/{id}"]!.patch as unknown as { tags: string[] };
    expect(tag.tags).toEqual(["Admin API"]);
    const { key, apiKey } = await createApiKey(db, COMMAND_LINE, "Issue sync", ["editor"], new Date());
    const { key: storeKey } = await createApiKey(db, COMMAND_LINE, "Shop", ["store"], new Date());
    const url = `${one.url}/desk/api/issues`;

    expect((await fetch(url)).status).toBe(401);
    expect((await fetch(url, { headers: bearer("mrk_nonsense") })).status).toBe(401);
    expect((await fetch(url, { headers: bearer(storeKey) })).status).toBe(403);
    expect((await fetch(url, json(storeKey, "POST", { year: 2026, month: 5, title: "x", summary: "y" }))).status).toBe(403);

    const all = (await contract.check("/desk/api/issues", "get", await fetch(`${url}?year=1974`, { headers: bearer(key) }))) as {
      total: number;
      items: { code: string }[];
    };
    expect(all.total).toBe(5);
    expect(all.items.map((i) => i.code)).toEqual(["7411", "7409", "7407", "7405", "7401"]);
    const badQuery = await fetch(`${url}?year=soon`, { headers: bearer(key) });
    expect(badQuery.status).toBe(400);
    expect(((await contract.check("/desk/api/issues", "get", badQuery)) as { code: string }).code).toBe("invalid_input");

    const created = await fetch(
      url,
      json(key, "POST", {
        year: 1974,
        month: 3,
        title: "The Oil Shock",
        summary: "The issue that never went to press.",
        features: [{ article: a!.slug }, { title: "Notes", article: null }],
      }),
    );
    expect(created.status).toBe(201);
    const issue = (await contract.check("/desk/api/issues", "post", created)) as {
      id: number;
      code: string;
      version: number;
      monthLabel: string;
      features: { title: string; article: { slug: string; url: string } | null }[];
    };
    expect(created.headers.get("location")).toBe(`/desk/api/issues/${issue.id}`);
    expect(issue).toMatchObject({ code: "7403", version: 1, monthLabel: "March–April" });
    expect(issue.features).toEqual([
      { title: a!.title, article: expect.objectContaining({ slug: a!.slug, url: `${one.url}${a!.path}` }) },
      { title: "Notes", article: null },
    ]);
    const guest = await new Reader(one.url).page("/archive-toc/7403");
    expect(guest("nav[aria-label='Other issues'] a[rel=prev]").attr("href")).toBe("/archive-toc/7401");

    for (const [body, field] of [
      [{ year: "1974", month: 5, title: "x", summary: "y" }, "year"],
      [{ year: 1974, month: 5, title: "x", summary: "y", features: "none" }, "features"],
      [{ year: 1974, month: 5, title: "x", summary: "y", cover: "x" }, "form"],
      [{ year: 1974, month: 5, title: "x", summary: "y", features: [{ title: "a", page: 3 }] }, "features.0"],
      [{ year: 1974, month: 3, title: "x", summary: "y" }, "month"],
      [{ year: 1974, month: 6, code: "7403", title: "x", summary: "y" }, "code"],
      [
        { year: 1974, month: 6, title: "x", summary: "y", features: [{ title: "ok" }, { article: "no-such-article" }] },
        "features.1.article",
      ],
    ] as [unknown, string][]) {
      const res = await fetch(url, json(key, "POST", body));
      expect(res.status, JSON.stringify(body)).toBe(400);
      const error = (await contract.check("/desk/api/issues", "post", res)) as { code: string; fields: Record<string, string[]> };
      expect(error.code).toBe("invalid_input");
      expect(Object.keys(error.fields), JSON.stringify(body)).toContain(field);
    }

    const itsUrl = `${url}/${issue.id}`;
    const read = (await contract.check("/desk/api/issues/{id}", "get", await fetch(itsUrl, { headers: bearer(key) }))) as { title: string };
    expect(read.title).toBe("The Oil Shock");
    expect((await fetch(`${url}/99999999`, { headers: bearer(key) })).status).toBe(404);
    expect((await fetch(`${url}/abc`, { headers: bearer(key) })).status).toBe(400);

    const patched = await fetch(
      itsUrl,
      json(key, "PATCH", { version: 1, title: "The Oil Shock, 1974", features: [{ title: "Notes" }, { article: b!.path }] }),
    );
    expect(patched.status).toBe(200);
    const saved = (await contract.check("/desk/api/issues/{id}", "patch", patched)) as {
      version: number;
      updatedBy: string;
      features: { title: string }[];
    };
    expect(saved).toMatchObject({ version: 2, updatedBy: "API key Issue sync (" + apiKey.prefix + ")" });
    expect(saved.features.map((f) => f.title)).toEqual(["Notes", b!.title]);
    const stale = await fetch(itsUrl, json(key, "PATCH", { version: 1, title: "Stale" }));
    expect(stale.status).toBe(409);
    const conflict = (await contract.check("/desk/api/issues/{id}", "patch", stale)) as {
      code: string;
      by: string;
      at: string;
      current: { version: number; title: string };
    };
    expect(conflict).toMatchObject({ code: "conflict", by: saved.updatedBy, current: { version: 2, title: "The Oil Shock, 1974" } });
    expect(Date.parse(conflict.at)).not.toBeNaN();
    expect((await fetch(`${url}/99999999`, json(key, "PATCH", { version: 1 }))).status).toBe(404);
    expect((await fetch(itsUrl, json(key, "PATCH", { title: "No version" }))).status).toBe(400);
    expect((await fetch(itsUrl, json(key, "PATCH", { version: 2, year: 1974.5 }))).status).toBe(400);
    expect((await fetch(itsUrl, json(storeKey, "PATCH", { version: 2 }))).status).toBe(403);

    // The cover: uploaded first, then set; an unknown image or issue is refused.
    const form = new FormData();
    form.set("file", new Blob([new Uint8Array(await jpegOf(600, 800))], { type: "image/jpeg" }), "cover.jpg");
    const uploaded = await fetch(`${one.url}/desk/api/images`, { method: "POST", headers: bearer(key), body: form });
    expect(uploaded.status).toBe(201);
    const image = (await uploaded.json()) as { id: string };
    const coverUrl = `${itsUrl}/cover`;
    const set = await fetch(coverUrl, json(key, "PUT", { imageId: image.id }));
    expect(set.status).toBe(200);
    const covered = (await contract.check("/desk/api/issues/{id}/cover", "put", set)) as { cover: { id: string; urls: { jpeg: string } } };
    expect(covered.cover.id).toBe(image.id);
    expect(
      (await contract.check("/desk/api/issues/{id}", "get", await fetch(itsUrl, { headers: bearer(key) }))) as { version: number },
    ).toMatchObject({
      version: 2,
      cover: { id: image.id },
    });
    const unknownImage = await fetch(coverUrl, json(key, "PUT", { imageId: "no-such-image" }));
    expect(unknownImage.status).toBe(400);
    expect(((await contract.check("/desk/api/issues/{id}/cover", "put", unknownImage)) as { fields: object }).fields).toHaveProperty(
      "imageId",
    );
    expect((await fetch(`${url}/99999999/cover`, json(key, "PUT", { imageId: null }))).status).toBe(404);
    expect((await fetch(coverUrl, json(key, "PUT", { imageId: 7 }))).status).toBe(400);
    expect((await fetch(coverUrl, json(storeKey, "PUT", { imageId: null }))).status).toBe(403);
    await expect
      .poll(async () => (await new Reader(two.url).page("/archive-toc/7403"))("main picture img").attr("src"), {
        timeout: 5_000,
        interval: 250,
      })
      .toBe(`/images/${image.id}/600.jpg`);

    const rows = await db.selectFrom("desk_audit").select(["action", "after"]).where("actor_id", "=", apiKey.id).execute();
    expect(rows.filter((r) => r.action === "magazine-issue.create")).toHaveLength(1);
    expect(rows.filter((r) => r.action === "magazine-issue.save")).toHaveLength(1);
    expect(rows.filter((r) => r.action === "magazine-issue.cover")).toHaveLength(1);
    const statuses = rows.filter((r) => r.action === "api.call").map((r) => (JSON.parse(r.after!) as { status: number }).status);
    expect(statuses.filter((s) => s === 409)).toHaveLength(1);
    expect(statuses.filter((s) => s === 201)).toHaveLength(2);
    expect(statuses.filter((s) => s === 400)).toHaveLength(13);
    expect(statuses.filter((s) => s === 404)).toHaveLength(3);
  });
});
