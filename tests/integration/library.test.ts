import * as cheerio from "cheerio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Reader, registeredReader, subscribe } from "~/tests/helpers/reader";
import { startBuiltServer, type RunningServer } from "~/tests/helpers/server";

// My Library against the production build, as plain forms: saving, folders with the spec's
// rules and messages, bulk actions, histories, and that no reader reaches another's library.

const FOLDER_NAME_MESSAGE = "Folder title must be 30 characters or less and consisting of English letters, numbers or spaces.";
const FOLDER_EXISTS_MESSAGE = "A folder with this title already exists.";

let server: RunningServer;
let articles: { path: string; id: string }[] = [];

beforeAll(async () => {
  server = await startBuiltServer({ RATE_LIMIT_PER_IP: "100000", RATE_LIMIT_PER_ACCOUNT: "1000" });
  const $ = cheerio.load(await (await fetch(`${server.url}/the-latest`)).text());
  articles = $("main ol article")
    .map((_, a) => {
      const save = new URL($(a).find("a[href*='save']").attr("href")!, server.url);
      const target = save.pathname === "/register" ? new URL(save.searchParams.get("redirectTo")!, server.url) : save;
      return { path: $(a).find("h3 a").attr("href")!, id: target.searchParams.get("id")! };
    })
    .get();
  expect(articles.length).toBeGreaterThan(4);
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

const reader = () => registeredReader(server.url);
const article = (i: number) => articles[i]!;

/** Posts the save page's form, to the page's own address as a browser does. */
async function save(r: Reader, i: number, fields: Record<string, string> = {}) {
  const query = new URLSearchParams({ type: "article", id: article(i).id });
  return r.request(`/my-library/save?${query}`, { form: { type: "article", id: article(i).id, ...fields } });
}

async function newFolder(r: Reader, name: string, description = ""): Promise<Response> {
  return r.request("/my-library?index", { form: { intent: "create-folder", name, description } });
}

/** The ids the library page shows: folders by name, items by title. */
async function library(r: Reader, path = "/my-library") {
  const $ = await r.page(path);
  const folders = new Map<string, { id: string; slug: string }>();
  $("#library-items input[name=folderId]").each((_, el) => {
    folders.set($(el).parent().text().trim(), { id: $(el).attr("value")!, slug: "" });
  });
  const items = $("#library-items input[name=itemId]")
    .map((_, el) => ({
      id: $(el).attr("value")!,
      title: $(el)
        .attr("aria-label")!
        .replace(/^Select /, ""),
    }))
    .get();
  return {
    $,
    folders,
    items,
    heading: $("#items-title").text(),
    notice: $("[role=status]").text(),
    empty: $("p").filter((_, p) => $(p).text().startsWith("Welcome to My Library")).length > 0,
  };
}

const location = (res: Response) => res.headers.get("location") ?? "";

describe("who may use the library", () => {
  it("sends a guest to sign in for the library, and to registration to save, then back to the save page", async () => {
    const guest = new Reader(server.url);
    const res = await guest.request("/my-library");
    expect(res.status).toBe(302);
    expect(location(res)).toBe("/sign-in?redirectTo=%2Fmy-library");
    const saveRes = await guest.request(`/my-library/save?type=article&id=${article(0).id}`);
    expect(location(saveRes)).toMatch(/^\/register\?redirectTo=%2Fmy-library%2Fsave%3Ftype%3Darticle%26id%3D\d+/);
    expect((await save(guest, 0)).status).toBe(302);
  });

  it("answers 404 for something that cannot be saved", async () => {
    const r = await reader();
    for (const query of [
      "type=article&id=999999999",
      "type=podcast&id=999999",
      "type=magazine&id=1",
      "type=article&id=abc",
      "type=article&id=99999999999999999999",
      "",
    ]) {
      expect((await r.request(`/my-library/save?${query}`)).status, query).toBe(404);
    }
    expect((await r.request("/my-library/save", { form: { type: "article", id: "-1" } })).status).toBe(404);
  });
});

describe("saving", () => {
  it("saves an article into a new folder, confirms with Saved!, and lists it in the library and the folder", async () => {
    const r = await reader();
    const res = await save(r, 0, { newFolder: "  Board prep ", redirectTo: article(0).path });
    expect(res.status).toBe(303);
    const $ = await r.page(location(res));
    expect($("[role=status]").text()).toBe("Saved!");
    expect($("a:contains('Back to the article')").attr("href")).toBe(article(0).path);
    expect($("input[name=folderId]:checked").parent().text().trim()).toBe("Board prep");

    const all = await library(r);
    expect(all.heading).toBe("All Folders");
    expect(all.items).toHaveLength(1);
    const folder = await library(r, "/my-library/library/board-prep");
    expect(folder.heading).toBe("Board prep");
    expect(folder.items.map((i) => i.id)).toEqual(all.items.map((i) => i.id));
  });

  it("refuses a bad new folder name on the save page with the spec's messages, saving nothing", async () => {
    const r = await reader();
    await newFolder(r, "Ideas");
    const bad = await save(r, 1, { newFolder: "R&D notes" });
    expect(bad.status).toBe(400);
    expect(
      cheerio
        .load(await bad.text())("#new-folder-error")
        .text(),
    ).toBe(FOLDER_NAME_MESSAGE);
    const taken = await save(r, 1, { newFolder: "IDEAS " });
    expect(taken.status).toBe(409);
    expect(
      cheerio
        .load(await taken.text())("#new-folder-error")
        .text(),
    ).toBe(FOLDER_EXISTS_MESSAGE);
    expect((await library(r)).items).toHaveLength(0);
  });

  it("answers a fetcher's save with data, not a redirect", async () => {
    const r = await reader();
    const res = await save(r, 2, { via: "fetcher" });
    expect(res.status).toBe(200);
    expect((await library(r)).items).toHaveLength(1);
  });
});

describe("folders", () => {
  it("creates, renames and deletes a folder with the spec's rules", async () => {
    const r = await reader();
    for (const bad of ["", "   ", "x".repeat(31), "Q3/Q4"]) {
      const res = await newFolder(r, bad);
      expect(res.status, bad).toBe(400);
      const $ = cheerio.load(await res.text());
      expect($("title").text(), bad).toMatch(/^Error: /);
      expect($("#error-summary-title").text()).toBe("There is a problem");
      expect($("[role=alert] a").first().text(), bad).toBe(FOLDER_NAME_MESSAGE);
    }
    const made = await newFolder(r, "Pricing", "Notes for the pricing review");
    expect(made.status).toBe(303);
    expect(location(made)).toBe("/my-library/library/pricing?done=folder-created");
    const dup = await newFolder(r, "pri cing");
    expect(dup.status).toBe(409);
    expect(
      cheerio
        .load(await dup.text())("[role=alert] a")
        .text(),
    ).toBe(FOLDER_EXISTS_MESSAGE);

    const page = await r.page("/my-library/library/pricing?edit=folder");
    const folderId = page("input[name=folderId]").attr("value")!;
    const renamed = await r.request("/my-library/library/pricing", {
      form: { intent: "update-folder", folderId, name: "Pricing 2026", description: "" },
    });
    expect(location(renamed)).toBe("/my-library/library/pricing-2026?done=folder-updated");
    expect((await library(r, "/my-library/library/pricing-2026")).heading).toBe("Pricing 2026");
    // The old slug no longer names a folder: All Folders.
    expect((await library(r, "/my-library/library/pricing")).heading).toBe("All Folders");

    const deleted = await r.request("/my-library/library/pricing-2026", { form: { intent: "delete-folder", folderId } });
    expect(location(deleted)).toBe("/my-library?done=folder-deleted");
    expect((await library(r, "/my-library/library/pricing-2026")).heading).toBe("All Folders");
  });

  it("shows the welcome message for an empty library and a new folder's own message", async () => {
    const r = await reader();
    expect((await library(r)).empty).toBe(true);
    await newFolder(r, "Empty one");
    const $ = await r.page("/my-library/library/empty-one");
    expect($("main").text()).toContain("Your new folder is ready.");
  });
});

describe("bulk actions, organising and discarding", () => {
  it("adds items to folders, organises one, removes several and discards one, each with its confirmation", async () => {
    const r = await reader();
    for (const i of [0, 1, 2, 3]) await save(r, i);
    await newFolder(r, "Alpha");
    await newFolder(r, "Beta");
    const { items, folders } = await library(r);
    expect(items).toHaveLength(4);
    const alpha = folders.get("Alpha")!.id;
    const beta = folders.get("Beta")!.id;

    const body = new URLSearchParams({ intent: "bulk-add" });
    for (const item of items.slice(0, 3)) body.append("itemId", item.id);
    body.append("folderId", alpha);
    body.append("folderId", beta);
    const added = await r.request("/my-library?index", { form: body });
    expect(location(added)).toBe("/my-library?done=added&n=3");
    expect((await library(r, location(added))).notice).toBe("3 item(s) added to folders");
    expect((await library(r, "/my-library/library/beta")).items).toHaveLength(3);

    const organize = await r.request(`/my-library/organize/${items[0]!.id}`, {
      form: { folderId: alpha, redirectTo: "/my-library/library/beta" },
    });
    expect(location(organize)).toBe("/my-library/library/beta?done=organized");
    const beta2 = await library(r, location(organize));
    expect(beta2.notice).toBe("Folders Updated");
    expect(beta2.items).toHaveLength(2);

    const remove = new URLSearchParams({ intent: "bulk-remove" });
    remove.append("itemId", items[1]!.id);
    remove.append("itemId", items[2]!.id);
    const removed = await r.request("/my-library?index", { form: remove });
    expect((await library(r, location(removed))).notice).toBe("2 item(s) removed from My Library");

    const discarded = await r.request("/my-library?index", { form: { discard: items[3]!.id } });
    const after = await library(r, location(discarded));
    expect(after.notice).toBe("Removed from My Library");
    expect(after.items.map((i) => i.id)).toEqual([items[0]!.id]);
  });

  it("asks for a selection instead of acting on nothing", async () => {
    const r = await reader();
    await save(r, 0);
    const none = await r.request("/my-library?index", { form: { intent: "bulk-remove" } });
    expect(none.status).toBe(400);
    expect(
      cheerio
        .load(await none.text())("#library-items [role=alert]")
        .text(),
    ).toBe("Select at least one item.");
  });
});

describe("another reader's library", () => {
  it("is out of reach: foreign item and folder ids get 404 and change nothing", async () => {
    const owner = await reader();
    await save(owner, 0, { newFolder: "Private" });
    const { items, folders } = await library(owner);
    const itemId = items[0]!.id;
    const folderId = folders.get("Private")!.id;

    const intruder = await reader();
    await save(intruder, 1, { newFolder: "Mine" });
    const mine = (await library(intruder)).folders.get("Mine")!.id;
    const attempts: [string, Record<string, string>][] = [
      ["/my-library?index", { discard: itemId }],
      ["/my-library?index", { intent: "bulk-remove", itemId }],
      ["/my-library?index", { intent: "bulk-add", itemId, folderId: mine }],
      ["/my-library?index", { intent: "update-folder", folderId, name: "Hijacked", description: "" }],
      ["/my-library?index", { intent: "delete-folder", folderId }],
      [`/my-library/organize/${itemId}`, { folderId: mine }],
    ];
    for (const [path, form] of attempts) {
      expect((await intruder.request(path, { form })).status, JSON.stringify(form)).toBe(404);
    }
    expect((await intruder.request(`/my-library/organize/${itemId}`)).status).toBe(404);
    // Their folder's slug is just an unknown slug here.
    expect((await library(intruder, "/my-library/library/private")).heading).toBe("All Folders");

    const after = await library(owner, "/my-library/library/private");
    expect(after.heading).toBe("Private");
    expect(after.items.map((i) => i.id)).toEqual([itemId]);
  });
});

describe("histories", () => {
  it("start with their welcome messages, then record reading, watching and saving", async () => {
    const r = await reader();
    for (const [path, welcome] of [
      ["/my-library/history/reading", "Welcome to your reading history."],
      ["/my-library/history/watched", "Welcome to your watched history."],
      ["/my-library/history/sharing", "Welcome to your sharing history."],
      ["/my-library/history/purchases", "Welcome to your purchase history."],
      ["/my-library/activity", "Welcome to your activity feed."],
    ] as const) {
      expect((await r.page(path))("main").text(), path).toContain(welcome);
    }
    expect((await r.request("/my-library/history/nonsense")).status).toBe(404);

    await r.page(article(1).path);
    await r.page(article(0).path);
    const $video = await r.page("/video");
    const videoPath = $video("#all-videos + ul article:not(:contains('For subscribers')) h3 a").first().attr("href")!;
    await r.page(videoPath);
    await save(r, 2);

    const reading = await r.page("/my-library/history/reading");
    expect(
      reading("main ol h3 a")
        .map((_, a) => reading(a).attr("href"))
        .get(),
    ).toEqual([article(0).path, article(1).path]);
    const watched = await r.page("/my-library/history/watched");
    expect(watched("main ol h3 a").attr("href")).toBe(videoPath);
    const activity = await r.page("/my-library/activity");
    expect(
      activity("main ol li p:first-child")
        .map((_, p) => activity(p).text().split(" · ")[0])
        .get(),
    ).toEqual(["Saved", "Watched", "Read", "Read"]);
  });
});

describe("gifts", () => {
  it("keep a gift a signed-in reader opens in their read-only gift folder", async () => {
    const giver = await subscribe(await reader());
    const res = await giver.request("/api/article-gift/give-gift", {
      form: { url: article(4).path },
      headers: { Accept: "application/json" },
    });
    const { articleGiftURL } = (await res.json()) as { articleGiftURL: string };
    const r = await reader();
    const url = new URL(articleGiftURL);
    await r.page(url.pathname + url.search);
    const { $, items } = await library(r, "/my-library/library/gifted-articles");
    expect($("#items-title").text()).toBe("Gifted Articles");
    expect($("[aria-label='Gift folder']").length).toBe(1);
    expect(items).toHaveLength(1);
    expect($("main").text()).toContain("A gift: kept in your library");
    expect($("a:contains('Edit folder')").length).toBe(0);
    const discard = await r.request("/my-library?index", { form: { discard: items[0]!.id } });
    expect(location(discard)).toBe("/my-library?done=removed&n=0");
    expect((await library(r, "/my-library/library/gifted-articles")).items).toHaveLength(1);
  });
});
