import * as cheerio from "cheerio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type Database } from "~/server/db/connection";
import { ARTICLE_FIELD_MESSAGES } from "~/shared/article-fields";
import { deskTime } from "~/app/lib/desk/format";
import { SCHEDULE_MESSAGE } from "~/app/lib/desk/article-form";
import { deskPeople } from "~/tests/helpers/desk-staff";
import { Reader } from "~/tests/helpers/reader";
import { startBuiltServer, type RunningServer } from "~/tests/helpers/server";
import { isolatedConnection, type IsolatedConnection } from "~/tests/helpers/test-db";

// The desk's article pages (issue 38) through the production build, as a browser without JS
// uses them: plain form posts, redirects after each change, the page's own messages.

let server: RunningServer;
let connection: IsolatedConnection;
let db: Database;
let authors: string[];
let subject: string;
let topic: string;

beforeAll(async () => {
  connection = await isolatedConnection("dart");
  server = await startBuiltServer({ RATE_LIMIT_PER_ACCOUNT: "1000" }, "production", connection);
  db = connect(connection);
  authors = (await db.selectFrom("author").select("slug").orderBy("slug").limit(2).execute()).map((a) => a.slug);
  subject = (await db.selectFrom("topic").select("name").where("subject_id", "is", null).orderBy("name").executeTakeFirstOrThrow()).name;
  topic = (await db.selectFrom("topic").select("name").where("subject_id", "is not", null).orderBy("name").executeTakeFirstOrThrow()).name;
}, 120_000);

afterAll(async () => {
  await db?.destroy();
  await server?.stop();
  await connection?.drop();
});

let slugs = 0;

/** The article form as a browser sends it: every control, the streams ticked one by one. */
function articleForm(overrides: Record<string, string | string[]> = {}, extra: Record<string, string> = {}): URLSearchParams {
  const values: Record<string, string | string[]> = {
    title: "The Quiet Ledger of Small Decisions",
    dek: "Most strategy happens in choices too small to put on an agenda.",
    subDek: "",
    summary: "Small decisions add up.\r\nThis piece shows how to see them.",
    body: "First paragraph.\r\n\r\n## A heading\r\n\r\nSecond paragraph.",
    slug: `quiet-ledger-${process.pid}-${++slugs}`,
    authors: authors.join(", "),
    topics: `${subject}, ${topic}`,
    contentType: "Article",
    tier: "article",
    series: "",
    seriesTitle: "",
    seriesPart: "",
    streams: ["big-ideas"],
    published: "2026-03-04",
    ...overrides,
  };
  const form = new URLSearchParams(extra);
  for (const [name, value] of Object.entries(values)) for (const one of [value].flat()) form.append(name, one);
  return form;
}

const text = (html: string) => cheerio.load(html)("main").text().replace(/\s+/g, " ");

async function created(reader: Reader, overrides: Record<string, string | string[]> = {}): Promise<number> {
  const res = await reader.request("/desk/articles/new", { form: articleForm(overrides, { intent: "create" }) });
  expect(res.status).toBe(303);
  const id = Number(/^\/desk\/articles\/(\d+)$/.exec(res.headers.get("location") ?? "")?.[1]);
  expect(id).toBeGreaterThan(0);
  return id;
}

const stored = (id: number) => db.selectFrom("article_record").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

/** The version the edit page's form carries. */
async function versionOnPage(reader: Reader, id: number): Promise<string> {
  const page = await reader.page(`/desk/articles/${id}`);
  return page("form input[name=version]").val() as string;
}

describe("an article's life at the desk", () => {
  it("is created as a draft, edited by two editors without a lost update, published, scheduled, unpublished and restored", async () => {
    const ada = await deskPeople(server.url, db).staffMember(["editor"], "Ada");
    const ben = await deskPeople(server.url, db).staffMember(["admin"], "Ben");

    // The list and the new article's form.
    const list = await ada.reader.page("/desk/articles");
    expect(list("nav[aria-label=Desk] a").first().text()).toBe("Articles");
    expect(list("tbody tr").length).toBe(25);
    const blank = await ada.reader.page("/desk/articles/new");
    for (const name of Object.keys(Object.fromEntries(articleForm()))) expect(blank(`form [name=${name}]`).length, name).toBeGreaterThan(0);
    expect(blank("datalist#article-authors option").length).toBeGreaterThan(1);

    const id = await created(ada.reader);
    const draft = await ada.reader.page(`/desk/articles/${id}`);
    expect(draft("main [role=status]").text()).toBe("Saved as a draft.");
    expect(draft("aside").text()).toContain("Draft");
    // The draft's preview links open for someone with no cookie at all, at the wall too.
    const previews = draft("a[href^='/preview/']")
      .map((_, a) => draft(a).attr("href"))
      .get();
    expect(previews).toHaveLength(3);
    const wall = await new Reader(server.url).page(previews[1]!);
    expect(wall("h1").first().text()).toBe(draft("h1").first().text());
    // Its hero image is changed on a page of its own, which the edit page links to.
    const imagePage = draft(`a[href='/desk/articles/${id}/image']`).attr("href");
    expect(imagePage).toBeDefined();
    expect((await ada.reader.request(imagePage!)).status).toBe(200);
    expect((await stored(id)).summary).toBe("Small decisions add up.\nThis piece shows how to see them.");
    const filtered = await ada.reader.page(`/desk/articles?status=draft&author=${authors[0]}&q=QUIET+LEDGER`);
    expect(filtered("tbody tr a").first().attr("href")).toBe(`/desk/articles/${id}`);

    // Both open it at version 1; Ada saves first, so Ben's save is stale.
    expect(await versionOnPage(ada.reader, id)).toBe("1");
    expect(await versionOnPage(ben.reader, id)).toBe("1");
    const adaSaves = await ada.reader.request(`/desk/articles/${id}`, {
      form: articleForm({ title: "Ada's Better Title", slug: (await stored(id)).slug }, { intent: "save", version: "1" }),
    });
    expect(adaSaves.status).toBe(303);
    expect((await ada.reader.page(`/desk/articles/${id}`))("main [role=status]").text()).toBe("Saved.");
    const benWrote = "Ben's own paragraph, typed while Ada was saving.";
    const slug = (await stored(id)).slug;
    const stale = await ben.reader.request(`/desk/articles/${id}`, {
      form: articleForm({ body: benWrote, slug }, { intent: "save", version: "1" }),
    });
    expect(stale.status).toBe(409);
    const conflictPage = cheerio.load(await stale.text());
    const adaSavedAt = deskTime((await stored(id)).updated_at!);
    expect(conflictPage("main").text()).toContain(`changed by Ada Desk at ${adaSavedAt} since you opened it`);
    expect(conflictPage("title").text()).toMatch(/^Error: /);
    const theirs = conflictPage("section[aria-labelledby=conflict-heading]");
    expect(theirs.find("section[aria-label=Title] ins").text()).toContain("Ada's Better Title");
    expect(theirs.find("section[aria-label=Body] del").text()).toContain(benWrote);
    expect(conflictPage("form textarea[name=body]").text()).toBe(benWrote);
    expect(conflictPage("form input[name=version]").val()).toBe("2");
    // The stale save wrote nothing: the article is Ada's.
    const afterConflict = await stored(id);
    expect([afterConflict.title, afterConflict.body, afterConflict.version]).toEqual([
      "Ada's Better Title",
      "First paragraph.\n\n## A heading\n\nSecond paragraph.",
      2,
    ]);
    // Having read it, Ben saves again with the version the page now carries: it goes through.
    const second = await ben.reader.request(`/desk/articles/${id}`, {
      form: articleForm({ title: "Ada's Better Title", body: benWrote, slug }, { intent: "save", version: "2" }),
    });
    expect(second.status).toBe(303);
    expect((await stored(id)).body).toBe(benWrote);

    // Publish now: the article is on the site.
    const published = await ada.reader.request(`/desk/articles/${id}`, { form: { intent: "publish" } });
    expect(published.status).toBe(303);
    const live = await ada.reader.page(`/desk/articles/${id}`);
    expect(live("main [role=status]").text()).toBe("Published.");
    const url = live("aside a[href^='/2026/03/']").attr("href")!;
    expect(url).toBe(`/2026/03/${slug}`);
    const onSite = await new Reader(server.url).page(url);
    expect(onSite("h1").text()).toBe("Ada's Better Title");
    const again = await ada.reader.request(`/desk/articles/${id}`, { form: { intent: "publish" } });
    expect(again.status).toBe(409);
    expect(text(await again.text())).toContain("The article is published already.");

    // Unpublish: 410 on the site.
    expect((await ada.reader.request(`/desk/articles/${id}`, { form: { intent: "unpublish" } })).status).toBe(303);
    expect((await new Reader(server.url).request(url)).status).toBe(410);
    const twice = await ada.reader.request(`/desk/articles/${id}`, { form: { intent: "unpublish" } });
    expect(twice.status).toBe(409);
    expect(text(await twice.text())).toContain("there is nothing to unpublish");

    // Schedule: a time in the past or not a time is refused with the message; a future one schedules.
    for (const publishAt of ["2020-01-01T09:00", "tomorrow", "2026-02-30T09:00", ""]) {
      const refused = await ada.reader.request(`/desk/articles/${id}`, { form: { intent: "schedule", publishAt } });
      expect(refused.status, publishAt).toBe(400);
      expect(text(await refused.text()), publishAt).toContain(SCHEDULE_MESSAGE);
    }
    const at = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 16);
    expect((await ada.reader.request(`/desk/articles/${id}`, { form: { intent: "schedule", publishAt: at } })).status).toBe(303);
    const scheduled = await ada.reader.page(`/desk/articles/${id}`);
    expect(scheduled("main [role=status]").text()).toBe(`Scheduled for ${at.replace("T", " ")} UTC.`);
    expect(scheduled("aside").text()).toContain("Scheduled");
    expect((await stored(id)).publish_at).toBe(`${at}:00.000Z`);
    expect((await ada.reader.request(`/desk/articles/${id}`, { form: { intent: "unpublish" } })).status).toBe(303);
    expect((await stored(id)).status).toBe("draft");

    // Revisions: every change, newest first; the diff of Ada's save marks the title's lines.
    const revisions = await ada.reader.page(`/desk/articles/${id}/revisions`);
    const rows = revisions("tbody tr")
      .map((_, row) =>
        revisions(row)
          .find("td")
          .slice(0, 4)
          .map((__, cell) => revisions(cell).text())
          .get()
          .join(" | "),
      )
      .get();
    expect(rows.map((r) => r.split(" | ")[0])).toEqual(["7Current", "6", "5", "4", "3", "2", "1"]);
    expect(rows.map((r) => r.split(" | ")[3])).toEqual(["Draft", "Scheduled", "Unpublished", "Published", "Draft", "Draft", "Draft"]);
    const version2 = revisions("tbody tr")
      .filter((_, row) => revisions(row).find("td").first().text() === "2")
      .find("a")
      .attr("href")!;
    const diff = await ada.reader.page(version2);
    expect(diff("section[aria-label=Title] del").text()).toBe("Removed in version 2: The Quiet Ledger of Small Decisions");
    expect(diff("section[aria-label=Title] ins").text()).toBe("Added in version 2: Ada's Better Title");
    expect(diff("section[aria-label=Body]").length).toBe(0);

    // Restore version 2 (Ada's body): a stale version is a conflict; the current one restores.
    const staleRestore = await ada.reader.request(version2, { form: { intent: "restore", version: "6" } });
    expect(staleRestore.status).toBe(409);
    const staleRestorePage = cheerio.load(await staleRestore.text());
    expect(staleRestorePage("main").text()).toContain("since you opened it");
    expect(staleRestorePage("form input[name=version]").val()).toBe("7");
    expect((await stored(id)).body).toBe(benWrote);
    const restored = await ada.reader.request(version2, { form: { intent: "restore", version: "7" } });
    expect(restored.status).toBe(303);
    expect(restored.headers.get("location")).toBe(`/desk/articles/${id}`);
    expect((await stored(id)).body).toBe("First paragraph.\n\n## A heading\n\nSecond paragraph.");
    expect((await stored(id)).version).toBe(8);

    const audit = await db
      .selectFrom("desk_audit")
      .select(["actor", "action"])
      .where("subject", "=", `article:${id}`)
      .orderBy("at")
      .orderBy("id")
      .execute();
    expect(audit.map((row) => `${row.actor} ${row.action}`)).toEqual([
      `${ada.email} article.create`,
      `${ada.email} article.save`,
      `${ben.email} article.save`,
      `${ada.email} article.publish`,
      `${ada.email} article.unpublish`,
      `${ada.email} article.schedule`,
      `${ada.email} article.unschedule`,
      `${ada.email} article.restore`,
    ]);
  });
});

describe("bad input", () => {
  it("answers a form without JS with the shared schema's and the domain's messages beside the fields, never a 500", async () => {
    const { reader } = await deskPeople(server.url, db).staffMember(["editor"], "Cleo");
    const empty = await reader.request("/desk/articles/new", { form: { intent: "create" } });
    expect(empty.status).toBe(400);
    const emptyPage = cheerio.load(await empty.text());
    const summary = emptyPage("[role=alert] li")
      .map((_, li) => emptyPage(li).text())
      .get();
    for (const field of ["title", "dek", "summary", "body", "slug", "authors", "topics", "contentType", "tier", "published"] as const)
      expect(summary, field).toContain(ARTICLE_FIELD_MESSAGES[field]);
    expect(emptyPage("#article-title-error").text()).toBe(ARTICLE_FIELD_MESSAGES.title);
    expect(emptyPage("[role=alert] a[href='#article-title']").length).toBe(1);

    const seeded = await db.selectFrom("article_record").select(["id", "slug", "version"]).orderBy("id").executeTakeFirstOrThrow();
    const cases: [string, URLSearchParams, number, string, string][] = [
      [
        "an unknown author",
        articleForm({ authors: `${authors[0]}, no-such-writer` }),
        422,
        "authors",
        'No author has the slug "no-such-writer".',
      ],
      ["an unknown topic", articleForm({ topics: `${subject}, Astrology` }), 422, "topics", 'No topic is named "Astrology".'],
      ["a slug taken", articleForm({ slug: seeded.slug }), 422, "slug", `Another article has the slug "${seeded.slug}": choose another.`],
      ["a series without its title", articleForm({ series: "field-notes", seriesPart: "2" }), 400, "series", ARTICLE_FIELD_MESSAGES.series],
      [
        "a part that is not a number",
        articleForm({ series: "a", seriesTitle: "A", seriesPart: "two" }),
        400,
        "seriesPart",
        ARTICLE_FIELD_MESSAGES.series,
      ],
      ["a made-up stream", articleForm({ streams: ["big-ideas", "gossip"] }), 400, "streams", ARTICLE_FIELD_MESSAGES.streams],
      ["a date that does not exist", articleForm({ published: "2026-02-30" }), 400, "published", ARTICLE_FIELD_MESSAGES.published],
      ["a tier not on the list", articleForm({ tier: "gold" }), 400, "tier", ARTICLE_FIELD_MESSAGES.tier],
      ["an author named twice", articleForm({ authors: `${authors[0]}, ${authors[0]}` }), 400, "authors", "Name each author once."],
    ];
    for (const [label, form, status, field, message] of cases) {
      form.set("intent", "create");
      const res = await reader.request("/desk/articles/new", { form });
      expect(res.status, label).toBe(status);
      const page = cheerio.load(await res.text());
      expect(page(`#article-${field}-error`).text(), label).toBe(message);
      expect(page("[role=alert]").text(), label).toContain(message);
    }

    // Saving: no version, or a made-up one, is refused without writing; bad ids and intents are 404.
    const save = (extra: Record<string, string>, path = `/desk/articles/${seeded.id}`) =>
      reader.request(path, { form: articleForm({ slug: seeded.slug }, { intent: "save", ...extra }) });
    for (const version of [undefined, "", "abc", "-1", "1e3"]) {
      const res = await save(version === undefined ? {} : { version });
      expect(res.status, String(version)).toBe(400);
      expect(text(await res.text())).toContain("This form is out of date");
    }
    expect((await save({ version: "999999" })).status).toBe(409);
    expect((await stored(seeded.id)).version).toBe(seeded.version);
    for (const path of ["/desk/articles/0", "/desk/articles/abc", "/desk/articles/99999999", "/desk/articles/1.5", "/desk/articles/%00"])
      expect((await save({ version: "1" }, path)).status, path).toBe(404);
    expect((await reader.request(`/desk/articles/${seeded.id}`, { form: { intent: "delete" } })).status).toBe(404);
    for (const path of [
      `/desk/articles/${seeded.id}/revisions/nope`,
      `/desk/articles/${seeded.id}/revisions/00000000-0000-0000-0000-000000000000`,
    ])
      expect((await reader.request(path)).status, path).toBe(404);

    // The list leaves out what it cannot read, and says so.
    const odd = await reader.request("/desk/articles?status=live&page=-2&q=%00&author=x&type=" + "t".repeat(100));
    expect(odd.status).toBe(200);
    expect(text(await odd.text())).toContain("Some of the filter could not be read and was left out.");

    // A long body fits (the site's 64 KB form limit is raised for this form alone); past 2 MB, 413.
    const long = Array.from({ length: 1500 }, (_, i) => `Paragraph ${i} of a long feature, with a few more words in it.`).join("\n\n");
    const longId = await created(reader, { body: long });
    expect((await stored(longId)).body).toBe(long);
    const huge = await reader.request("/desk/articles/new", { form: articleForm({ body: "x".repeat(2_200_000) }, { intent: "create" }) });
    expect(huge.status).toBe(413);
  });
});

describe("who may", () => {
  it("gives a service or store member 403 for every article page and form, and a reader or guest the 404", async () => {
    const editor = await deskPeople(server.url, db).staffMember(["editor"], "Dora");
    const id = await created(editor.reader);
    await editor.reader.request(`/desk/articles/${id}`, {
      form: articleForm({ slug: (await stored(id)).slug }, { intent: "save", version: "1" }),
    });
    const revision = (
      await db.selectFrom("article_revision").select("id").where("article_id", "=", id).where("version", "=", 1).executeTakeFirstOrThrow()
    ).id;
    const calls: [string, (r: Reader) => Promise<Response>][] = [
      ["list", (r) => r.request("/desk/articles")],
      ["new", (r) => r.request("/desk/articles/new")],
      ["create", (r) => r.request("/desk/articles/new", { form: articleForm({}, { intent: "create" }) })],
      ["edit", (r) => r.request(`/desk/articles/${id}`)],
      ["save", (r) => r.request(`/desk/articles/${id}`, { form: articleForm({}, { intent: "save", version: "2" }) })],
      ["publish", (r) => r.request(`/desk/articles/${id}`, { form: { intent: "publish" } })],
      ["schedule", (r) => r.request(`/desk/articles/${id}`, { form: { intent: "schedule", publishAt: "2099-01-01T09:00" } })],
      ["unpublish", (r) => r.request(`/desk/articles/${id}`, { form: { intent: "unpublish" } })],
      ["revisions", (r) => r.request(`/desk/articles/${id}/revisions`)],
      ["revision", (r) => r.request(`/desk/articles/${id}/revisions/${revision}`)],
      ["restore", (r) => r.request(`/desk/articles/${id}/revisions/${revision}`, { form: { intent: "restore", version: "2" } })],
    ];
    const askers: [string, Reader, number][] = [
      ["service", (await deskPeople(server.url, db).staffMember(["service"], "Sam")).reader, 403],
      ["store", (await deskPeople(server.url, db).staffMember(["store"], "Stu")).reader, 403],
      ["reader", (await deskPeople(server.url, db).signedInReader("Rita")).reader, 404],
      ["guest", new Reader(server.url), 404],
    ];
    for (const [label, reader, status] of askers)
      for (const [name, call] of calls) expect((await call(reader)).status, `${label} × ${name}`).toBe(status);
    expect((await stored(id)).version).toBe(2);
    expect((await stored(id)).status).toBe("draft");

    // Another site's post is refused: 403 for the editor, before the form is read; the 404 for a guest.
    const foreign = { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" };
    for (const [reader, status] of [
      [editor.reader, 403],
      [new Reader(server.url), 404],
    ] as const) {
      expect((await reader.request(`/desk/articles/${id}`, { form: { intent: "publish" }, headers: foreign })).status).toBe(status);
      expect((await reader.request("/desk/articles/new", { form: articleForm({}, { intent: "create" }), headers: foreign })).status).toBe(
        status,
      );
    }
    expect((await stored(id)).status).toBe("draft");
    const page = await editor.reader.request(`/desk/articles/${id}`);
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(page.headers.get("x-robots-tag")).toBe("noindex, nofollow");
  });
});
