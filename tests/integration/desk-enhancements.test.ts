import * as cheerio from "cheerio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type Database } from "~/server/db/connection";
import { ARTICLE_FIELD_MESSAGES, BODY_MAX } from "~/shared/article-fields";
import { AUTOSAVE_OFF } from "~/shared/article-vocabulary";
import { ROLES, type Role } from "~/shared/staff-roles";
import { deskTime } from "~/app/lib/desk/format";
import { STALE_FORM } from "~/app/lib/desk/articles.server";
import { deskPeople } from "~/tests/helpers/desk-staff";
import { Reader } from "~/tests/helpers/reader";
import { startBuiltServer, type RunningServer } from "~/tests/helpers/server";
import { isolatedConnection, type IsolatedConnection } from "~/tests/helpers/test-db";

// The desk's endpoints behind the article form's enhancements (ADR 085), through the production
// build: the preview pane's renderer, the comboboxes' suggestions and autosave. Staff who may
// edit articles reach them; other staff get 403, everyone else the 404 the desk gives them.

let server: RunningServer;
let connection: IsolatedConnection;
let db: Database;
let author: { slug: string; name: string };
let subject: string;

beforeAll(async () => {
  connection = await isolatedConnection("denh");
  // A preview of ten paragraphs shows a short body whole, before the wall's promo.
  server = await startBuiltServer({ RATE_LIMIT_PER_ACCOUNT: "1000", PAYWALL_PREVIEW_PARAGRAPHS: "10" }, "production", connection);
  db = connect(connection);
  author = await db.selectFrom("author").select(["slug", "name"]).orderBy("slug").executeTakeFirstOrThrow();
  subject = (await db.selectFrom("topic").select("name").where("subject_id", "is", null).orderBy("name").executeTakeFirstOrThrow()).name;
}, 120_000);

afterAll(async () => {
  await db?.destroy();
  await server?.stop();
  await connection?.drop();
});

const people = () => deskPeople(server.url, db);
let slugs = 0;

function articleForm(overrides: Record<string, string> = {}): URLSearchParams {
  return new URLSearchParams({
    intent: "save",
    title: "The Autosaved Ledger",
    dek: "A dek.",
    subDek: "",
    summary: "A summary.",
    body: "First paragraph.",
    slug: `autosaved-ledger-${process.pid}-${++slugs}`,
    authors: author.slug,
    topics: subject,
    contentType: "Article",
    tier: "article",
    series: "",
    seriesTitle: "",
    seriesPart: "",
    published: "2026-03-04",
    ...overrides,
  });
}

async function draft(reader: Reader, overrides: Record<string, string> = {}): Promise<{ id: number; form: URLSearchParams }> {
  const form = articleForm(overrides);
  const res = await reader.request("/desk/articles/new", { form: new URLSearchParams({ ...Object.fromEntries(form), intent: "create" }) });
  expect(res.status).toBe(303);
  return { id: Number(/(\d+)$/.exec(res.headers.get("location")!)![1]), form };
}

const stored = (id: number) => db.selectFrom("article_record").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const body = async (res: Response) => (await res.json()) as Record<string, unknown>;

describe("who reaches the enhancements' endpoints", () => {
  it("lets admins and editors in, gives other staff 403 and everyone else the desk's 404, refusing another site's posts", async () => {
    const editor = await people().staffMember(["editor"], "Edna");
    const { id } = await draft(editor.reader);
    const calls: [string, (reader: Reader) => Promise<Response>][] = [
      ["suggest", (r) => r.request(`/desk/articles/suggest?list=authors&term=${encodeURIComponent(author.name.slice(0, 3))}`)],
      ["preview", (r) => r.request("/desk/articles/preview", { form: { body: "Text." } })],
      [
        "autosave",
        async (r) => r.request(`/desk/articles/${id}/autosave`, { form: articleForm({ version: String((await stored(id)).version) }) }),
      ],
    ];
    const ordinary = await new Reader(server.url).request("/no-such-page/at-all");
    const ordinaryPage = cheerio.load(await ordinary.text());
    const askers: [string, Reader, Role | null][] = [
      ["guest", new Reader(server.url), null],
      ["reader", (await people().signedInReader("Plain")).reader, null],
    ];
    for (const role of ROLES) askers.push([role, (await people().staffMember([role])).reader, role]);
    for (const [label, reader, role] of askers) {
      for (const [name, call] of calls) {
        const res = await call(reader);
        const expected = role === null ? 404 : role === "admin" || role === "editor" ? 200 : 403;
        expect(res.status, `${label} × ${name}`).toBe(expected);
        if (expected === 404) {
          // Nothing tells a reader that these addresses are the desk's: the site's ordinary 404 page.
          expect(res.headers.get("x-robots-tag"), `${label} × ${name}`).toBeNull();
          expect(res.headers.get("cache-control"), `${label} × ${name}`).toBe(ordinary.headers.get("cache-control"));
          const page = cheerio.load(await res.text());
          expect(page("title").text(), `${label} × ${name}`).toBe(ordinaryPage("title").text());
          expect(page("main").text(), `${label} × ${name}`).toBe(ordinaryPage("main").text());
        }
        if (expected === 200) {
          expect(res.headers.get("cache-control"), name).toBe("no-store");
          expect(res.headers.get("x-robots-tag"), name).toBe("noindex, nofollow");
          expect(res.headers.get("content-type"), name).toMatch(/^application\/json/);
        }
      }
      // The other method: 405 for the staff who may, 404 for everyone without a role.
      const wrong = await reader.request("/desk/articles/suggest", { form: { list: "authors" } });
      expect(wrong.status, label).toBe(role === null ? 404 : role === "admin" || role === "editor" ? 405 : 403);
      if (role === null)
        expect(
          cheerio
            .load(await wrong.text())("main")
            .text(),
          label,
        ).toBe(ordinaryPage("main").text());
      const foreign = await reader.request("/desk/articles/preview", {
        form: { body: "Text." },
        headers: { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
      });
      expect(foreign.status, label).toBe(role === null ? 404 : 403);
    }
  });
});

describe("the preview pane's renderer", () => {
  it("renders a body as the article page does, every text escaped and only safe links made", async () => {
    const { reader } = await people().staffMember(["editor"], "Pia");
    const markdown = [
      "A first paragraph with [a link](https://example.org/x) & an ampersand.",
      "## A subheading",
      "- one item\n- another item",
      "> A pull quote to remember.",
      "<script>alert(1)</script> and [bad](javascript:alert(1)) stay text.",
    ].join("\r\n\r\n");
    const { id } = await draft(reader, { body: markdown });
    const res = await reader.request("/desk/articles/preview", { form: { body: markdown } });
    expect(res.status).toBe(200);
    const { html, words } = (await res.json()) as { html: string; words: number };
    // Counted as the article's own word count is.
    expect(words).toBe((await stored(id)).word_count);
    expect(html).not.toMatch(/<script|href="javascript:/i);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt; and [bad](javascript:alert(1)) stay text.");
    expect(html).toContain('<a href="https://example.org/x">a link</a>');

    // The article's own page (its private preview link) shows the same markup, pull-quote class and all.
    const page = await reader.page(`/desk/articles/${id}`);
    const site = await new Reader(server.url).page(page("a[href^='/preview/']").first().attr("href")!);
    const onSite = site("#article-body > div").first().html();
    expect(cheerio.load(html, null, false).html()).toBe(onSite);
    expect(site("#article-body blockquote").attr("class")).toBeTruthy();
  });

  it("refuses a body longer than an article's, a post with none and one over the form's size", async () => {
    const { reader } = await people().staffMember(["admin"], "Max");
    const tooLong = await reader.request("/desk/articles/preview", { form: { body: "x".repeat(BODY_MAX + 1) } });
    expect(tooLong.status).toBe(400);
    expect(await body(tooLong)).toMatchObject({ code: "invalid_input", fields: { body: [ARTICLE_FIELD_MESSAGES.body] } });
    const none = await reader.request("/desk/articles/preview", { form: { title: "No body" } });
    expect(none.status).toBe(400);
    const huge = await reader.request("/desk/articles/preview", { form: { body: "x".repeat(3 * 1024 * 1024) } });
    expect(huge.status).toBe(413);
  });
});

describe("the comboboxes' suggestions", () => {
  it("offers authors by name and topics, and refuses another list or a term too long to be a name", async () => {
    const { reader } = await people().staffMember(["editor"], "Sue");
    const authors = await reader.request(
      `/desk/articles/suggest?list=authors&term=${encodeURIComponent(author.name.slice(0, 4).toLowerCase())}`,
    );
    expect((await body(authors)).options).toEqual(expect.arrayContaining([{ value: author.slug, label: author.name, hint: author.slug }]));
    const topics = await reader.request(`/desk/articles/suggest?list=topics&term=${encodeURIComponent(subject)}`);
    expect(((await body(topics)).options as unknown[])[0]).toEqual({ value: subject, label: subject, hint: "Subject" });
    expect(await body(await reader.request("/desk/articles/suggest?list=topics&term="))).toEqual({ options: [] });

    const other = await reader.request("/desk/articles/suggest?list=staff&term=a");
    expect(other.status).toBe(400);
    expect(await body(other)).toMatchObject({ code: "invalid_input", fields: { list: ["Ask for authors or topics."] } });
    const long = await reader.request(`/desk/articles/suggest?list=topics&term=${"a".repeat(121)}`);
    expect(long.status).toBe(400);
    expect(await body(long)).toMatchObject({ code: "invalid_input", fields: { term: expect.any(Array) } });
  });
});

describe("autosave", () => {
  it("saves through the Save button's path as one revision per sitting, and never over a save it has not seen", async () => {
    const ada = await people().staffMember(["editor"], "Ada");
    const ben = await people().staffMember(["editor"], "Ben");
    const { id, form } = await draft(ada.reader);
    const autosave = (who: Reader, fields: Record<string, string>) =>
      who.request(`/desk/articles/${id}/autosave`, { form: new URLSearchParams({ ...Object.fromEntries(form), ...fields }) });

    const first = await autosave(ada.reader, { version: "1", body: "First paragraph, and more." });
    expect(first.status).toBe(200);
    const saved = await body(first);
    expect(saved).toEqual({ version: 2, savedAt: (await stored(id)).updated_at });
    expect((await autosave(ada.reader, { version: "2", body: "First paragraph, and more still." })).status).toBe(200);
    expect(await stored(id)).toMatchObject({ version: 3, body: "First paragraph, and more still." });
    // The edit page carries the version autosave reached, for its Save button.
    const page = await ada.reader.page(`/desk/articles/${id}`);
    expect(page("form input[name=version]").val()).toBe("3");
    const revisions = await ada.reader.page(`/desk/articles/${id}/revisions`);
    const who = revisions("tbody tr")
      .map((_, row) => revisions(row).find("td").eq(2).text())
      .get();
    expect(who).toEqual(["Ada Desk, autosaved", "Ada Desk"]);

    // Ben opened it at version 1: his autosave writes nothing and says who changed it when.
    const stale = await autosave(ben.reader, { version: "1", body: "Ben's paragraph." });
    expect(stale.status).toBe(409);
    const conflict = await body(stale);
    const at = (await stored(id)).updated_at!;
    expect(conflict).toMatchObject({
      code: "conflict",
      message: `This article was changed by Ada Desk at ${deskTime(at)} since you opened it.`,
      by: "Ada Desk",
      at,
      current: { id, version: 3, body: "First paragraph, and more still." },
    });
    expect(await stored(id)).toMatchObject({ version: 3, body: "First paragraph, and more still." });

    const audit = await db.selectFrom("desk_audit").select(["actor", "action"]).where("subject", "=", `article:${id}`).execute();
    expect(audit.filter((row) => row.action === "article.autosave").map((row) => row.actor)).toEqual([ada.email, ada.email]);
  });

  it("answers a form the Save button's path would refuse with its messages, and writes nothing", async () => {
    const { reader } = await people().staffMember(["editor"], "Ida");
    const { id, form } = await draft(reader);
    const autosave = (fields: Record<string, string>, drop: string[] = []) => {
      const sent = new URLSearchParams({ ...Object.fromEntries(form), ...fields });
      for (const name of drop) sent.delete(name);
      return reader.request(`/desk/articles/${id}/autosave`, { form: sent });
    };
    const empty = await autosave({ version: "1", title: " " });
    expect(empty.status).toBe(400);
    expect(await body(empty)).toMatchObject({ code: "invalid_input", fields: { title: [ARTICLE_FIELD_MESSAGES.title] } });
    const unknown = await autosave({ version: "1", authors: "no-such-author-at-all" });
    expect(unknown.status).toBe(400);
    expect(await body(unknown)).toMatchObject({
      code: "invalid_input",
      fields: { authors: [expect.stringContaining("no-such-author-at-all")] },
    });
    const noVersion = await autosave({}, ["version"]);
    expect(noVersion.status).toBe(400);
    expect(await body(noVersion)).toMatchObject({ code: "invalid_input", fields: { version: [STALE_FORM] } });
    expect((await reader.request(`/desk/articles/${id}/autosave`, { form: { version: "1" } })).status).toBe(400);
    expect((await reader.request("/desk/articles/999999/autosave", { form: articleForm({ version: "1" }) })).status).toBe(404);
    expect((await stored(id)).version).toBe(1);
  });

  it("leaves a published article to the Save button, and says so on its edit page", async () => {
    const { reader } = await people().staffMember(["editor"], "Liv");
    const { id, form } = await draft(reader);
    const draftPage = await reader.page(`/desk/articles/${id}`);
    // Without JS the places the enhancements fill are empty, and the form is as it was.
    expect(draftPage("#article-autosave[aria-live=polite]").text()).toBe("");
    expect(draftPage("#article-preview").html()).toBe("");
    expect(draftPage("form input[name=authors]").val()).toBe(author.slug);
    expect(draftPage("form [role=combobox]").length).toBe(0);

    expect((await reader.request(`/desk/articles/${id}`, { form: { intent: "publish" } })).status).toBe(303);
    const live = await reader.request(`/desk/articles/${id}/autosave`, {
      form: new URLSearchParams({ ...Object.fromEntries(form), version: "2", title: "Half typed" }),
    });
    expect(live.status).toBe(409);
    expect(await body(live)).toEqual({ code: "wrong_state", message: AUTOSAVE_OFF, status: "published" });
    expect(await stored(id)).toMatchObject({ title: "The Autosaved Ledger", version: 2 });
  });
});
