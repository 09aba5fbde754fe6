import * as cheerio from "cheerio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type Database } from "~/server/db/connection";
import { createApiKey } from "~/server/desk/api-keys";
import { COMMAND_LINE } from "~/server/desk/audit";
import { ApiContract } from "~/tests/helpers/api-contract";
import { deskPeople } from "~/tests/helpers/desk-staff";
import { Reader } from "~/tests/helpers/reader";
import { startBuiltServer, type RunningServer } from "~/tests/helpers/server";
import { isolatedConnection, type IsolatedConnection } from "~/tests/helpers/test-db";

// The desk's curation through the production build: the home page's lead and pinned stories and
// reading lists, edited with plain form posts (no JS) by staff let in with a TOTP code, as
// readers then see them; who may reach the pages; and the Admin API's reading lists.

let server: RunningServer;
let connection: IsolatedConnection;
let db: Database;
let editor: Reader;
/** Published articles from early in the catalogue, so that choosing one changes the home page. */
let older: { id: number; slug: string; title: string; path: string }[];

beforeAll(async () => {
  connection = await isolatedConnection("curation");
  server = await startBuiltServer({ RATE_LIMIT_PER_ACCOUNT: "1000" }, "production", connection);
  db = connect(connection);
  editor = (await deskPeople(server.url, db).staffMember(["editor"])).reader;
  const rows = await db.selectFrom("article").select(["id", "slug", "title", "year", "month"]).orderBy("published").limit(6).execute();
  older = rows.map((r) => ({ id: r.id, slug: r.slug, title: r.title, path: `/${r.year}/${String(r.month).padStart(2, "0")}/${r.slug}` }));
}, 120_000);

afterAll(async () => {
  await db?.destroy();
  await server?.stop();
  await connection?.drop();
});

const form = (entries: [string, string | number][]) => new URLSearchParams(entries.map(([k, v]) => [k, String(v)]));
const homeVersion = async () => (await db.selectFrom("home_curation").select("version").executeTakeFirstOrThrow()).version;
const chosenIds = async () =>
  (await db.selectFrom("home_pick").select("article_id").orderBy("position").execute()).map((r) => r.article_id);

/** The home page's lead and secondary stories' titles, in order, as a guest sees them. */
async function frontTitles(): Promise<string[]> {
  const page = await new Reader(server.url).page("/");
  return page("section[aria-labelledby=lead-heading] h3")
    .map((_, el) => page(el).text().trim())
    .get();
}

describe("the home page's stories at the desk", () => {
  it("takes a lead and pinned stories by address or slug, moves and removes them with plain posts, and the home page shows them", async () => {
    const [a, b, c] = older;
    const before = await frontTitles();
    expect(before).not.toContain(a!.title);
    const page = await editor.page("/desk/home");
    expect(page("h1").text()).toBe("Home page");
    expect(page(`datalist option`).length).toBeGreaterThan(10);

    let version = await homeVersion();
    const addA = await editor.request("/desk/home", {
      form: form([
        ["version", version],
        ["add", `${server.url}${a!.path}`],
        ["intent", "add"],
      ]),
    });
    expect(addA.status).toBe(303);
    expect(addA.headers.get("location")).toBe("/desk/home?saved=1");
    const addB = await editor.request("/desk/home", {
      form: form([
        ["version", ++version],
        ["item", a!.id],
        ["add", b!.slug],
        ["intent", "add"],
      ]),
    });
    expect(addB.status).toBe(303);
    expect(await chosenIds()).toEqual([a!.id, b!.id]);
    expect((await frontTitles()).slice(0, 2)).toEqual([a!.title, b!.title]);

    // Down on the lead swaps it with the first pinned story.
    const down = await editor.request("/desk/home", {
      form: form([
        ["version", ++version],
        ["item", a!.id],
        ["item", b!.id],
        ["intent", "down-0"],
      ]),
    });
    expect(down.status).toBe(303);
    const shown = await editor.page("/desk/home?saved=1");
    expect(shown("[role=status]").text()).toContain("Saved.");
    expect(
      shown("main ol li")
        .map((_, li) => shown(li).find("span").first().text() + ": " + shown(li).find("a").first().text())
        .get(),
    ).toEqual([`Lead story: ${b!.title}`, `Pinned story 1: ${a!.title}`]);
    expect((await frontTitles()).slice(0, 2)).toEqual([b!.title, a!.title]);

    // Bad input: a clear message and a 4xx, nothing changed.
    for (const [fields, status, message] of [
      [
        [
          ["version", version + 1],
          ["item", b!.id],
          ["item", a!.id],
          ["add", "no-such-article-at-all"],
          ["intent", "add"],
        ],
        400,
        "No article has the address or slug",
      ],
      [
        [
          ["version", version + 1],
          ["item", b!.id],
          ["item", a!.id],
          ["add", ""],
          ["intent", "add"],
        ],
        400,
        "Enter an article's address",
      ],
      [
        [
          ["version", version + 1],
          ["item", b!.id],
          ["item", a!.id],
          ["add", b!.path],
          ["intent", "add"],
        ],
        400,
        "is already chosen",
      ],
      [
        [
          ["version", version + 1],
          ["item", b!.id],
          ["intent", "sideways-1"],
        ],
        400,
        "not one this page has",
      ],
      [
        [
          ["version", "x"],
          ["intent", "remove-0"],
        ],
        400,
        "out of date",
      ],
      // Another editor changed it since this page was read: 409, and the page shows the choice as it is.
      [
        [
          ["version", version],
          ["item", b!.id],
          ["item", a!.id],
          ["intent", "remove-0"],
        ],
        409,
        "This choice of stories was changed by",
      ],
    ] as [[string, string | number][], number, string][]) {
      const res = await editor.request("/desk/home", { form: form(fields) });
      expect(res.status, message).toBe(status);
      const html = await res.text();
      expect(cheerio.load(html)("title").text(), message).toMatch(/^Error: /);
      expect(html, message).toContain(message);
    }
    expect(await chosenIds()).toEqual([b!.id, a!.id]);

    const remove = await editor.request("/desk/home", {
      form: form([
        ["version", version + 1],
        ["item", b!.id],
        ["item", a!.id],
        ["add", c!.slug],
        ["intent", "remove-0"],
      ]),
    });
    expect(remove.status).toBe(303);
    expect(await chosenIds()).toEqual([a!.id]);
    const audit = await db.selectFrom("desk_audit").select(["action", "after"]).where("action", "=", "home.curate").execute();
    expect(audit.map((row) => (JSON.parse(row.after!) as { stories: string[] }).stories).at(-1)).toEqual([a!.slug]);
  });

  it("falls back to the newest story on the home page when the chosen lead is unpublished", async () => {
    const [a] = older;
    const newest = await db
      .selectFrom("article")
      .select("title")
      .orderBy("published", "desc")
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect((await frontTitles())[0]).toBe(a!.title);
    await db.transaction().execute(async (tx) => {
      await tx.updateTable("article_record").set({ status: "unpublished" }).where("id", "=", a!.id).execute();
      await tx
        .updateTable("content_generation")
        .set((eb) => ({ generation: eb("generation", "+", 1) }))
        .execute();
    });
    try {
      // The server rereads the content generation within a second.
      await expect.poll(async () => (await frontTitles())[0], { timeout: 5_000, interval: 250 }).toBe(newest.title);
      const desk = await editor.page("/desk/home");
      expect(desk("main ol li").first().text()).toContain("readers do not see it");
    } finally {
      await db.updateTable("article_record").set({ status: "published" }).where("id", "=", a!.id).execute();
    }
  });
});

describe("reading lists at the desk", () => {
  it("creates a list, adds, moves and removes its articles with plain posts, refuses bad input with messages, and shows both versions on a conflict", async () => {
    const [a, b, c] = older;
    const bad = await editor.request("/desk/reading-lists/new", { form: { name: "", slug: "Not A Slug", description: "" } });
    expect(bad.status).toBe(400);
    const badText = await bad.text();
    expect(badText).toContain("Enter a title of up to 200 characters.");
    expect(badText).toContain("Enter a slug of lowercase letters");

    const made = await editor.request("/desk/reading-lists/new", {
      form: { name: "Desk picks", slug: "desk-picks", description: "From the desk." },
    });
    expect(made.status).toBe(303);
    const location = made.headers.get("location")!;
    expect(location).toMatch(/^\/desk\/reading-lists\/\d+\?saved=created$/);
    const path = location.split("?")[0]!;
    const taken = await editor.request("/desk/reading-lists/new", { form: { name: "Again", slug: "desk-picks" } });
    expect(taken.status).toBe(400);
    expect(await taken.text()).toContain("Another reading list has the slug desk-picks.");

    const fields = (version: number, items: number[], more: [string, string | number][] = []) =>
      form([
        ["name", "Desk picks"],
        ["slug", "desk-picks"],
        ["description", "From the desk."],
        ["version", version],
        ...items.map((id): [string, number] => ["item", id]),
        ...more,
      ]);
    for (const [version, items, ref] of [
      [1, [], a!.slug],
      [2, [a!.id], b!.path],
      [3, [a!.id, b!.id], `${server.url}${c!.path}?list=x`],
    ] as [number, number[], string][]) {
      const res = await editor.request(path, {
        form: fields(version, items, [
          ["add", ref],
          ["intent", "add"],
        ]),
      });
      expect(res.status, ref).toBe(303);
    }
    expect((await editor.request(path, { form: fields(4, [a!.id, b!.id, c!.id], [["intent", "up-2"]]) })).status).toBe(303);
    expect((await editor.request(path, { form: fields(5, [a!.id, c!.id, b!.id], [["intent", "remove-0"]]) })).status).toBe(303);
    const list = await new Reader(server.url).page("/reading-lists/desk-picks");
    expect(
      list("main ol > li h2 a, main ol > li h3 a")
        .map((_, el) => list(el).text())
        .get(),
    ).toEqual([c!.title, b!.title]);

    const missing = await editor.request(path, {
      form: fields(
        6,
        [c!.id, b!.id],
        [
          ["add", "/2001/01/nothing-here"],
          ["intent", "add"],
        ],
      ),
    });
    expect(missing.status).toBe(400);
    expect(await missing.text()).toContain("No article has the address or slug");
    const longName = await editor.request(path, {
      form: form([
        ["name", "x".repeat(201)],
        ["slug", "desk-picks"],
        ["version", 6],
        ["intent", "save"],
      ]),
    });
    expect(longName.status).toBe(400);
    expect(await longName.text()).toContain("Enter a title of up to 200 characters.");

    const stale = await editor.request(path, { form: fields(5, [c!.id], [["intent", "save"]]) });
    expect(stale.status).toBe(409);
    const conflict = cheerio.load(await stale.text());
    expect(conflict("main [role=alert]").text()).toMatch(
      /^This reading list was changed by .+ at \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC since you opened it\./,
    );
    expect(conflict("#yours-heading").text()).toBe("Your version (not saved)");
    expect(conflict("input[name=version]").attr("value")).toBe("6");
    expect((await db.selectFrom("reading_list").select("version").where("slug", "=", "desk-picks").executeTakeFirstOrThrow()).version).toBe(
      6,
    );

    const index = await editor.page("/desk/reading-lists");
    expect(
      index("tbody tr")
        .filter((_, tr) => index(tr).text().includes("Desk picks"))
        .find("td[data-label=Articles]")
        .text(),
    ).toBe("2");
    expect((await editor.request("/desk/reading-lists/999999")).status).toBe(404);
    expect((await editor.request("/desk/reading-lists/abc")).status).toBe(404);
  });
});

describe("who reaches the curation pages", () => {
  const pages = ["/desk/home", "/desk/reading-lists", "/desk/reading-lists/new", "/desk/reading-lists/1"];

  it("gives guests and readers 404, the service role 403, and refuses a foreign Origin from an editor", async () => {
    const { reader } = await deskPeople(server.url, db).signedInReader("plain");
    const service = (await deskPeople(server.url, db).staffMember(["service"])).reader;
    for (const path of pages) {
      for (const asker of [new Reader(server.url), reader]) {
        expect((await asker.request(path)).status, path).toBe(404);
        expect((await asker.request(path, { form: { intent: "add", version: "1" } })).status, path).toBe(404);
      }
      expect((await service.request(path)).status, path).toBe(403);
      expect((await service.request(path, { form: { intent: "save", version: "1" } })).status, path).toBe(403);
    }
    const version = await homeVersion();
    const foreign = await editor.request("/desk/home", {
      form: { version: String(version), intent: "remove-0" },
      headers: { Origin: "https://evil.example" },
    });
    expect(foreign.status).toBe(403);
    expect(await homeVersion()).toBe(version);
    const nav = await editor.page("/desk");
    expect(
      nav("nav[aria-label=Desk] a")
        .map((_, el) => nav(el).text())
        .get(),
    ).toEqual(expect.arrayContaining(["Home page", "Reading lists"]));
  });
});

describe("the Admin API's reading lists", () => {
  const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
  const json = (key: string, method: string, body: unknown): RequestInit => ({
    method,
    headers: { ...bearer(key), "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });

  it("lists, creates, reads and changes lists, with 401, 403, 404 and 409 as documented, every call audited", async () => {
    const [a, b] = older;
    const contract = await ApiContract.load(server.url);
    const { key, apiKey } = await createApiKey(db, COMMAND_LINE, "List sync", ["editor"], new Date());
    const { key: storeKey } = await createApiKey(db, COMMAND_LINE, "Shop", ["store"], new Date());
    const url = `${server.url}/desk/api/reading-lists`;

    expect((await fetch(url)).status).toBe(401);
    expect((await fetch(url, { headers: bearer("mrk_nonsense") })).status).toBe(401);
    expect((await fetch(url, { headers: bearer(storeKey) })).status).toBe(403);
    expect((await fetch(url, json(storeKey, "POST", { name: "x", slug: "x" }))).status).toBe(403);

    const all = (await contract.check("/desk/api/reading-lists", "get", await fetch(url, { headers: bearer(key) }))) as {
      items: { slug: string }[];
    };
    expect(all.items.length).toBeGreaterThan(0);

    const created = await fetch(url, json(key, "POST", { name: "API picks", slug: "api-picks", items: [a!.slug, b!.path] }));
    expect(created.status).toBe(201);
    const list = (await contract.check("/desk/api/reading-lists", "post", created)) as {
      id: number;
      version: number;
      items: { slug: string; url: string }[];
    };
    expect(list.version).toBe(1);
    expect(list.items.map((i) => i.slug)).toEqual([a!.slug, b!.slug]);
    expect((await fetch(list.items[0]!.url)).status).toBe(200);
    const badItems = await fetch(url, json(key, "POST", { name: "Bad", slug: "bad-items", items: ["no-such-article-here"] }));
    expect(badItems.status).toBe(400);
    expect(
      ((await contract.check("/desk/api/reading-lists", "post", badItems)) as { fields: Record<string, string[]> }).fields.items,
    ).toHaveLength(1);

    const one = `${url}/${list.id}`;
    const read = (await contract.check("/desk/api/reading-lists/{id}", "get", await fetch(one, { headers: bearer(key) }))) as {
      name: string;
    };
    expect(read.name).toBe("API picks");
    const patched = await fetch(one, json(key, "PATCH", { version: 1, items: [b!.slug, a!.slug], description: "Reordered." }));
    expect(patched.status).toBe(200);
    expect(((await contract.check("/desk/api/reading-lists/{id}", "patch", patched)) as { version: number }).version).toBe(2);
    const stale = await fetch(one, json(key, "PATCH", { version: 1, name: "Stale" }));
    expect(stale.status).toBe(409);
    const conflict = (await contract.check("/desk/api/reading-lists/{id}", "patch", stale)) as {
      code: string;
      message: string;
      current: { version: number; name: string; updatedAt: string };
      by: string;
      at: string;
    };
    expect(conflict).toMatchObject({ code: "conflict", current: { version: 2, name: "API picks" } });
    expect(conflict.by).toMatch(/^API key /);
    expect(conflict.at).toBe(conflict.current.updatedAt);
    expect(conflict.message).toBe(
      `This reading list was changed by ${conflict.by} at ${conflict.at} since the version you read: nothing was written.`,
    );
    const missing = await fetch(`${url}/999999`, { headers: bearer(key) });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ code: "not_found", message: "No reading list has this id." });
    expect((await fetch(`${url}/999999`, json(key, "PATCH", { version: 1 }))).status).toBe(404);
    expect((await fetch(one, json(key, "PATCH", { name: "No version" }))).status).toBe(400);
    expect((await fetch(one, json(storeKey, "PATCH", { version: 2 }))).status).toBe(403);

    const reader = await new Reader(server.url).page("/reading-lists/api-picks");
    expect(
      reader("main ol > li h2 a, main ol > li h3 a")
        .map((_, el) => reader(el).text())
        .get(),
    ).toEqual([b!.title, a!.title]);
    const rows = await db.selectFrom("desk_audit").select(["action", "after"]).where("actor_id", "=", apiKey.id).execute();
    expect(rows.filter((r) => r.action === "reading-list.create")).toHaveLength(1);
    expect(rows.filter((r) => r.action === "reading-list.save")).toHaveLength(1);
    expect(
      rows
        .filter((r) => r.action === "api.call")
        .map((r) => (JSON.parse(r.after!) as { status: number }).status)
        .sort(),
    ).toEqual([200, 201, 400, 200, 200, 409, 404, 404, 400].sort());
  });
});
