import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/server/db/connection";
import { unsubscribeToken } from "~/server/newsletters/unsubscribe-token";
import type { ApiContract } from "~/tests/helpers/api-contract";
import { Reader, registeredReader, subscribe } from "~/tests/helpers/reader";
import { latestArticles, startApiSite, type ApiSite } from "~/tests/helpers/api-site";
import type { RunningServer } from "~/tests/helpers/server";
import { startLoopbackSmtp, type LoopbackSmtp } from "~/tests/helpers/smtp";

// The library group of the service API (spec 7, "Library and follows") against the production
// build and a real database: folders, saved items, follows, newsletters, campaigns and e-mail
// shares, each checked against the published OpenAPI document. Another reader's ids answer 404
// and change nothing.

const SESSION_SECRET = "api-library-tests-session-secret-0123456789";
const FOLDER_NAME_MESSAGE = "Folder title must be 30 characters or less and consisting of English letters, numbers or spaces.";
const FOLDER_EXISTS_MESSAGE = "A folder with this title already exists.";
const SUBSCRIBER_ONLY_TOPIC = "This topic is for subscribers. Subscribe to follow it.";
const SUBSCRIBER_ONLY_NEWSLETTER = "This newsletter is for subscribers. Subscribe to receive it.";

let site: ApiSite;
let server: RunningServer;
let contract: ApiContract;
let smtp: LoopbackSmtp;
let database: Database;
let articleIds: string[] = [];
let articlePaths: string[] = [];

beforeAll(async () => {
  smtp = await startLoopbackSmtp();
  site = await startApiSite("apilib", { SESSION_SECRET, RATE_LIMIT_PER_IP: "100000", RATE_LIMIT_PER_ACCOUNT: "1000", SMTP_URL: smtp.url });
  ({ server, contract, database } = site);
  const articles = await latestArticles(server.url);
  articleIds = articles.map((a) => a.id);
  articlePaths = articles.map((a) => a.path);
  expect(articleIds.length).toBeGreaterThan(3);
}, 120_000);

afterAll(async () => {
  await site?.stop();
  await smtp?.stop();
});

/** The call as a same-site client makes it (a guest when there is no reader), checked against the document for its documented path. */
const api = (reader: Reader | undefined, method: string, documented: string, path: string, body?: unknown) =>
  contract.call(reader ?? guest(), method, documented, { path, body });

const guest = () => new Reader(server.url);
const registered = () => registeredReader(server.url);

async function userIdOf(reader: Reader): Promise<string> {
  const $ = await reader.page("/my-account");
  const email = $("input[name=emailAddress]").val() as string;
  return (await database.selectFrom("app_user").select("id").where("email", "=", email).executeTakeFirstOrThrow()).id;
}

/** Saves an article through the save page, as a browser does; answers the saved item's id. */
async function saved(reader: Reader, i: number): Promise<string> {
  const id = articleIds[i]!;
  const res = await reader.request(`/my-library/save?type=article&id=${id}`, { form: { type: "article", id } });
  expect(res.status).toBe(303);
  const row = await database
    .selectFrom("library_item")
    .select("id")
    .where("user_id", "=", await userIdOf(reader))
    .where("content_id", "=", Number(id))
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A subscriber gifts the reader an article, which the reader opens: it lands in their read-only gift folder. */
async function gifted(reader: Reader): Promise<Reader> {
  const giver = await subscribe(await registered());
  const res = await giver.request("/api/article-gift/give-gift", {
    form: { url: articlePaths[3]! },
    headers: { Accept: "application/json" },
  });
  expect(res.status).toBe(200);
  const link = new URL(((await res.json()) as { articleGiftURL: string }).articleGiftURL);
  await reader.page(link.pathname + link.search);
  return reader;
}

async function folderIds(reader: Reader): Promise<Record<string, string>> {
  const rows = await database
    .selectFrom("library_folder")
    .select(["id", "name"])
    .where("user_id", "=", await userIdOf(reader))
    .execute();
  return Object.fromEntries(rows.map((r) => [r.name, r.id]));
}

async function foldersOf(itemId: string): Promise<string[]> {
  const rows = await database.selectFrom("library_item_folder").select("folder_id").where("item_id", "=", itemId).execute();
  return rows.map((r) => r.folder_id).sort();
}

async function follows(reader: Reader, kind: "topic" | "newsletter" | "campaign"): Promise<string[]> {
  const rows = await database
    .selectFrom("follow")
    .select("target")
    .where("user_id", "=", await userIdOf(reader))
    .where("kind", "=", kind)
    .orderBy("target")
    .execute();
  return rows.map((r) => r.target);
}

const LIST = "/service/user/list/{name}";
const BULK = "/service/user/lists/bulk-update";

describe("folders: POST/DELETE /service/user/list/{name}", () => {
  it("creates a folder with the spec's rules and messages, and deletes it by name", async () => {
    const r = await registered();
    const made = await api(r, "POST", LIST, "/service/user/list/Deep%20Work", { description: "Long reads" });
    expect(made.status).toBe(201);
    expect(made.json).toMatchObject({ message: "Folder created.", folder: { name: "Deep Work", description: "Long reads", itemCount: 0 } });
    expect(Object.keys(await folderIds(r))).toEqual(["Deep Work"]);

    const again = await api(r, "POST", LIST, "/service/user/list/deep%20%20WORK", {});
    expect(again.status).toBe(409);
    expect(again.json.message).toBe(FOLDER_EXISTS_MESSAGE);

    const bad = await api(r, "POST", LIST, "/service/user/list/No%21Way", {});
    expect(bad.status).toBe(400);
    expect(bad.json.fields?.name).toEqual([FOLDER_NAME_MESSAGE]);
    const long = await api(r, "POST", LIST, "/service/user/list/Fine", { description: "x".repeat(201) });
    expect(long.status).toBe(400);
    expect(long.json.fields?.description).toEqual(["This field must be less than 200 characters."]);

    const gone = await api(r, "DELETE", LIST, "/service/user/list/deep%20work");
    expect(gone.status).toBe(200);
    expect(gone.json.message).toBe("Folder deleted. Its items are still in All Folders.");
    expect(await folderIds(r)).toEqual({});
    expect((await api(r, "DELETE", LIST, "/service/user/list/Deep%20Work")).status).toBe(404);
  });

  it("asks a guest to sign in, with a JSON 401", async () => {
    for (const method of ["POST", "DELETE"]) {
      const res = await api(undefined, method, LIST, "/service/user/list/Anything", {});
      expect(res.status).toBe(401);
      expect(res.json.code).toBe("not_signed_in");
    }
  });

  it("never reaches another reader's folder", async () => {
    const owner = await registered();
    expect((await api(owner, "POST", LIST, "/service/user/list/Private", {})).status).toBe(201);
    const intruder = await registered();
    expect((await api(intruder, "DELETE", LIST, "/service/user/list/Private")).status).toBe(404);
    expect(Object.keys(await folderIds(owner))).toEqual(["Private"]);
    // The same name is free for another reader.
    expect((await api(intruder, "POST", LIST, "/service/user/list/Private", {})).status).toBe(201);
  });
});

describe("a saved item in folders: POST/DELETE /service/user/lists/bulk-update", () => {
  it("adds an item to folders and takes it out of some, keeping it in the library", async () => {
    const r = await registered();
    const item = await saved(r, 0);
    await api(r, "POST", LIST, "/service/user/list/Alpha", {});
    await api(r, "POST", LIST, "/service/user/list/Beta", {});
    const { Alpha: alpha, Beta: beta } = await folderIds(r);

    const added = await api(r, "POST", BULK, BULK, { id: item, listIds: [alpha, beta] });
    expect(added.status).toBe(200);
    expect(added.json.message).toBe("1 item(s) added to folders");
    expect(await foldersOf(item)).toEqual([alpha!, beta!].sort());

    // A form body works too: one listIds field.
    const removed = await r.request(BULK, { method: "DELETE", form: { id: item, listIds: alpha! } });
    expect(removed.status).toBe(200);
    expect(((await contract.check(BULK, "delete", removed)) as { message: string }).message).toBe("Folders Updated");
    expect(await foldersOf(item)).toEqual([beta]);
    expect((await database.selectFrom("library_item").select("id").where("id", "=", item).execute()).length).toBe(1);
  });

  it("refuses an empty selection with the library page's messages", async () => {
    const r = await registered();
    const noFolders = await api(r, "POST", BULK, BULK, { id: "x", listIds: [] });
    expect(noFolders.status).toBe(400);
    expect(noFolders.json.fields).toEqual({ listIds: ["Select at least one folder to add the items to."] });
    const noItem = await api(r, "DELETE", BULK, BULK, { listIds: ["a"] });
    expect(noItem.status).toBe(400);
    expect(noItem.json.fields).toEqual({ id: ["Select at least one item."] });
  });

  it("asks a guest to sign in", async () => {
    for (const method of ["POST", "DELETE"])
      expect((await api(undefined, method, BULK, BULK, { id: "a", listIds: ["b"] })).status).toBe(401);
  });

  it("answers 404 for another reader's item or folder, changing nothing", async () => {
    const owner = await registered();
    const theirs = await saved(owner, 1);
    await api(owner, "POST", LIST, "/service/user/list/Theirs", {});
    const theirFolder = (await folderIds(owner)).Theirs!;
    await api(owner, "POST", BULK, BULK, { id: theirs, listIds: [theirFolder] });

    const intruder = await registered();
    const mine = await saved(intruder, 2);
    await api(intruder, "POST", LIST, "/service/user/list/Mine", {});
    const myFolder = (await folderIds(intruder)).Mine!;
    for (const method of ["POST", "DELETE"]) {
      for (const body of [
        { id: theirs, listIds: [myFolder] },
        { id: mine, listIds: [theirFolder] },
        { id: theirs, listIds: [theirFolder] },
      ]) {
        const res = await api(intruder, method, BULK, BULK, body);
        expect(res.status, `${method} ${JSON.stringify(body)}`).toBe(404);
      }
    }
    expect(await foldersOf(theirs)).toEqual([theirFolder]);
    expect(await foldersOf(mine)).toEqual([]);
  });
});

describe("POST /service/user/saves", () => {
  const SAVES = "/service/user/saves";

  it("saves an item to the library and the reader's own folders, as the save page does; saving again only adds folders", async () => {
    const r = await registered();
    await api(r, "POST", LIST, "/service/user/list/Reading%20plan", {});
    await api(r, "POST", LIST, "/service/user/list/Board%20prep", {});
    const folders = await folderIds(r);
    const other = await registered();
    await api(other, "POST", LIST, "/service/user/list/Not%20yours", {});
    const foreignFolder = (await folderIds(other))["Not yours"]!;

    const first = await api(r, "POST", SAVES, SAVES, {
      type: "article",
      id: Number(articleIds[1]),
      listIds: [folders["Reading plan"]!, foreignFolder],
    });
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ message: "Saved!", listIds: [folders["Reading plan"]] });
    const itemId = first.json.id as string;
    expect(await foldersOf(itemId)).toEqual([folders["Reading plan"]]);
    // The library page lists it.
    const $ = await r.page("/my-library");
    expect($(`main a[href='${articlePaths[1]}']`).length).toBeGreaterThan(0);

    const again = await api(r, "POST", SAVES, SAVES, { type: "article", id: articleIds[1], listIds: folders["Board prep"]! });
    expect(again.json.id).toBe(itemId);
    expect(await foldersOf(itemId)).toEqual([folders["Reading plan"]!, folders["Board prep"]!].sort());
    expect(await database.selectFrom("library_item_folder").select("item_id").where("folder_id", "=", foreignFolder).execute()).toEqual([]);
  });

  it("answers 400 for bad input, 404 for content that does not exist, 401 for a guest and 403 for another site, saving nothing", async () => {
    const r = await registered();
    const bad = await api(r, "POST", SAVES, SAVES, { type: "novel", id: "x" });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.json.fields!).sort()).toEqual(["id", "type"]);
    expect((await api(r, "POST", SAVES, SAVES, { type: "article", id: 2_000_000_000 })).status).toBe(404);
    expect((await api(undefined, "POST", SAVES, SAVES, { type: "article", id: Number(articleIds[0]) })).status).toBe(401);
    const foreign = await contract.call(r, "POST", SAVES, {
      body: { type: "article", id: Number(articleIds[0]) },
      headers: { Origin: "https://evil.example" },
    });
    expect(foreign.status).toBe(403);
    expect(
      await database
        .selectFrom("library_item")
        .select("id")
        .where("user_id", "=", await userIdOf(r))
        .execute(),
    ).toEqual([]);
  });
});

describe("GET /service/user/lists", () => {
  const LISTS = "/service/user/lists";

  it("lists the reader's own folders as the library does, the gift folder first, with their item counts", async () => {
    const r = await gifted(await registered());
    await api(r, "POST", LIST, "/service/user/list/Quarterly", { description: "For the board" });
    const itemId = await saved(r, 0);
    const quarterly = (await folderIds(r))["Quarterly"]!;
    await api(r, "POST", BULK, BULK, { id: itemId, listIds: [quarterly] });
    const other = await registered();
    await api(other, "POST", LIST, "/service/user/list/Someone%20else", {});

    const { status, json } = await api(r, "GET", LISTS, LISTS);
    expect(status).toBe(200);
    expect(json.lists).toEqual([
      {
        id: expect.any(String),
        name: "Gifted Articles",
        slug: "gifted-articles",
        description: expect.any(String),
        readOnly: true,
        itemCount: 1,
      },
      { id: quarterly, name: "Quarterly", slug: "quarterly", description: "For the board", readOnly: false, itemCount: 1 },
    ]);
    const $ = await r.page("/my-library");
    const text = $("main").text();
    for (const name of ["Gifted Articles", "Quarterly"]) expect(text).toContain(name);
    expect((await api(undefined, "GET", LISTS, LISTS)).status).toBe(401);
  });
});

describe("DELETE /service/user/saves", () => {
  it("removes a saved item, and answers 404 for another reader's or an unknown one", async () => {
    const owner = await registered();
    const theirs = await saved(owner, 0);
    const r = await registered();
    const mine = await saved(r, 0);

    const foreign = await api(r, "DELETE", "/service/user/saves", "/service/user/saves", { id: theirs });
    expect(foreign.status).toBe(404);
    expect((await database.selectFrom("library_item").select("id").where("id", "=", theirs).execute()).length).toBe(1);

    const done = await api(r, "DELETE", "/service/user/saves", "/service/user/saves", { id: mine });
    expect(done.status).toBe(200);
    expect(done.json.message).toBe("Removed from My Library");
    expect((await database.selectFrom("library_item").select("id").where("id", "=", mine).execute()).length).toBe(0);
    expect((await api(r, "DELETE", "/service/user/saves", "/service/user/saves", { id: mine })).status).toBe(404);

    const bad = await api(r, "DELETE", "/service/user/saves", "/service/user/saves", {});
    expect(bad.status).toBe(400);
    expect(bad.json.fields).toEqual({ id: ["Select at least one item."] });
    expect((await api(undefined, "DELETE", "/service/user/saves", "/service/user/saves", { id: mine })).status).toBe(401);
  });
});

describe("a saved item's folders: GET /service/user/saves/{id}/lists", () => {
  const LISTS = "/service/user/saves/{id}/lists";
  const listsOf = (r: Reader, id: string) =>
    contract.call(r, "GET", LISTS, { path: `/service/user/saves/${encodeURIComponent(id)}/lists` });

  it("lists the reader's folders as the save page ticks them, leaving out the read-only gift folder", async () => {
    const r = await gifted(await registered());
    const item = await saved(r, 0);
    await api(r, "POST", LIST, "/service/user/list/Alpha", {});
    await api(r, "POST", LIST, "/service/user/list/Beta", {});
    const { Alpha: alpha, Beta: beta } = await folderIds(r);
    await api(r, "POST", BULK, BULK, { id: item, listIds: [alpha] });

    const res = await listsOf(r, item);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      id: item,
      lists: [
        { id: alpha, name: "Alpha", selected: true },
        { id: beta, name: "Beta", selected: false },
      ],
    });
    const $ = await r.page(`/my-library/save?type=article&id=${articleIds[0]}`);
    const boxes = $("input[name=folderId]").toArray();
    expect(boxes.map((b) => ({ id: $(b).val(), selected: $(b).is("[checked]") }))).toEqual([
      { id: alpha, selected: true },
      { id: beta, selected: false },
    ]);
  });

  it("answers 400 for a malformed id, 401 for a guest, and 404 for another reader's or an unknown item", async () => {
    const owner = await registered();
    const theirs = await saved(owner, 1);
    const r = await registered();

    const bad = await listsOf(r, "x".repeat(65));
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.json.fields ?? {})).toEqual(["id"]);
    const signedOut = await listsOf(guest(), theirs);
    expect(signedOut.status).toBe(401);
    expect(signedOut.json.code).toBe("not_signed_in");
    for (const id of [theirs, "00000000-0000-4000-8000-000000000000"]) {
      const res = await listsOf(r, id);
      expect(res.status, id).toBe(404);
      expect(res.json.code).toBe("not_found");
    }
  });
});

describe("a folder's address: GET /service/user/list/url/{id}", () => {
  const URL_OF = "/service/user/list/url/{id}";
  const urlOf = (r: Reader, id: string) => contract.call(r, "GET", URL_OF, { path: `/service/user/list/url/${encodeURIComponent(id)}` });

  it("answers the absolute address of the folder's page, which shows that folder", async () => {
    const r = await registered();
    await api(r, "POST", LIST, "/service/user/list/Deep%20Work", {});
    const id = (await folderIds(r))["Deep Work"]!;
    const res = await urlOf(r, id);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ id, listurl: `${server.url}/my-library/library/deep-work` });
    const $ = await r.page(new URL(res.json.listurl as string).pathname);
    expect($("#items-title").text()).toBe("Deep Work");
  });

  it("answers 400 for a malformed id, 401 for a guest, and 404 for another reader's or an unknown folder", async () => {
    const owner = await registered();
    await api(owner, "POST", LIST, "/service/user/list/Private", {});
    const theirs = (await folderIds(owner)).Private!;
    const r = await registered();

    const bad = await urlOf(r, "x".repeat(65));
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.json.fields ?? {})).toEqual(["id"]);
    expect((await urlOf(guest(), theirs)).status).toBe(401);
    expect((await urlOf(r, theirs)).status).toBe(404);
    expect((await urlOf(r, "no-such-folder")).status).toBe(404);
  });
});

describe("DELETE /service/user/lists", () => {
  const LISTS = "/service/user/lists";

  it("deletes the reader's folders as the library page does: the gift folder and every saved item stay", async () => {
    const r = await gifted(await registered());
    const item = await saved(r, 0);
    await api(r, "POST", LIST, "/service/user/list/Alpha", {});
    await api(r, "POST", LIST, "/service/user/list/Beta", {});
    const { Alpha: alpha, Beta: beta, "Gifted Articles": gifts } = await folderIds(r);
    await api(r, "POST", BULK, BULK, { id: item, listIds: [alpha, beta] });

    const other = await registered();
    const theirs = await saved(other, 0);
    await api(other, "POST", LIST, "/service/user/list/Alpha", {});
    const theirFolder = (await folderIds(other)).Alpha!;
    await api(other, "POST", BULK, BULK, { id: theirs, listIds: [theirFolder] });

    const res = await contract.call(r, "DELETE", LISTS);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ deleted: 2, kept: 1 });
    expect(await folderIds(r)).toEqual({ "Gifted Articles": gifts });
    expect(await foldersOf(item)).toEqual([]);
    const kept = await database
      .selectFrom("library_item")
      .select("id")
      .where("user_id", "=", await userIdOf(r))
      .execute();
    expect(kept.length).toBe(2);
    expect((await contract.call(r, "DELETE", LISTS)).json).toEqual({ deleted: 0, kept: 1 });

    expect(await folderIds(other)).toEqual({ Alpha: theirFolder });
    expect(await foldersOf(theirs)).toEqual([theirFolder]);
  });

  it("asks a guest to sign in, with a JSON 401", async () => {
    const res = await contract.call(guest(), "DELETE", LISTS);
    expect(res.status).toBe(401);
    expect(res.json.code).toBe("not_signed_in");
  });
});

describe("follows: POST/DELETE /service/user/follow", () => {
  const FOLLOW = "/service/user/follow";
  const topicId = async (slug: string) =>
    String((await database.selectFrom("topic").select("id").where("slug", "=", slug).executeTakeFirstOrThrow()).id);

  it("follows and unfollows a topic, a newsletter and a marketing campaign", async () => {
    const r = await registered();
    const strategy = await topicId("strategy");
    for (const [type, name] of [
      ["topic", strategy],
      ["newsletter", "the-daily-brief"],
      ["marketingCampaign", "event-invitations"],
    ] as const) {
      const on = await api(r, "POST", FOLLOW, FOLLOW, { name, type });
      expect(on.status).toBe(200);
      expect(on.json).toMatchObject({ name, type, following: true });
    }
    expect(await follows(r, "topic")).toEqual([strategy]);
    expect(await follows(r, "newsletter")).toEqual(["the-daily-brief"]);
    expect(await follows(r, "campaign")).toEqual(["event-invitations"]);

    const off = await api(r, "DELETE", FOLLOW, FOLLOW, { name: strategy, type: "topic" });
    expect(off.json).toMatchObject({ following: false, title: "Strategy" });
    expect(await follows(r, "topic")).toEqual([]);
    expect(await follows(r, "newsletter")).toEqual(["the-daily-brief"]);
  });

  it("refuses a subscriber-only topic to a reader without a subscription, as the follow page does", async () => {
    const r = await registered();
    const refused = await api(r, "POST", FOLLOW, FOLLOW, { name: await topicId("randd"), type: "topic" });
    expect(refused.status).toBe(403);
    expect(refused.json.message).toBe(SUBSCRIBER_ONLY_TOPIC);
    expect(await follows(r, "topic")).toEqual([]);
  });

  it("answers bad input with 400 and unknown targets with 404, storing nothing", async () => {
    const r = await registered();
    const bad = await api(r, "POST", FOLLOW, FOLLOW, { name: "strategy", type: "playlist" });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.json.fields ?? {})).toEqual(["type"]);
    expect((await api(r, "DELETE", FOLLOW, FOLLOW, { type: "topic" })).json.fields).toEqual({ name: ["This field is required."] });
    expect((await api(r, "POST", FOLLOW, FOLLOW, { name: "no-such-letter", type: "newsletter" })).status).toBe(404);
    expect((await api(r, "DELETE", FOLLOW, FOLLOW, { name: "999999", type: "topic" })).status).toBe(404);
    expect(await follows(r, "newsletter")).toEqual([]);
    expect((await api(undefined, "DELETE", FOLLOW, FOLLOW, { name: "1", type: "topic" })).status).toBe(401);
  });

  it("only ever changes the caller's own follows", async () => {
    const owner = await registered();
    await api(owner, "POST", FOLLOW, FOLLOW, { name: "the-chart-room", type: "newsletter" });
    const other = await registered();
    expect((await api(other, "DELETE", FOLLOW, FOLLOW, { name: "the-chart-room", type: "newsletter" })).status).toBe(200);
    expect(await follows(owner, "newsletter")).toEqual(["the-chart-room"]);
  });
});

describe("followed topics: GET/DELETE /service/topic", () => {
  const TOPIC = "/service/topic";
  const FOLLOW = "/service/user/follow";
  const topic = async (slug: string) =>
    database.selectFrom("topic").select(["id", "name"]).where("slug", "=", slug).executeTakeFirstOrThrow();
  const followTopic = async (r: Reader, slug: string) =>
    expect((await api(r, "POST", FOLLOW, FOLLOW, { name: String((await topic(slug)).id), type: "topic" })).status).toBe(200);

  it("lists the topics the reader follows by name, and stops following one by its name", async () => {
    const r = await registered();
    expect((await contract.call(r, "GET", TOPIC)).json).toEqual([]);
    await followTopic(r, "strategy");
    await followTopic(r, "innovation");
    const [strategy, innovation] = [await topic("strategy"), await topic("innovation")];

    const listed = await contract.call(r, "GET", TOPIC);
    expect(listed.status).toBe(200);
    expect(listed.json).toEqual([innovation, strategy]);

    const off = await contract.call(r, "DELETE", TOPIC, { body: { name: "  strategy " } });
    expect(off.status).toBe(200);
    expect(off.json).toEqual({ ...strategy, following: false });
    expect((await contract.call(r, "GET", TOPIC)).json).toEqual([innovation]);
    expect(await follows(r, "topic")).toEqual([String(innovation.id)]);
  });

  it('names "R&D" as the following stream does, "RD"', async () => {
    const r = await subscribe(await registered());
    await followTopic(r, "randd");
    const off = await contract.call(r, "DELETE", TOPIC, { body: { name: "RD" } });
    expect(off.status).toBe(200);
    expect(off.json.name).toBe("R&D");
    expect(await follows(r, "topic")).toEqual([]);
  });

  it("answers 400 without a name, 401 for a guest, and 404 for a topic the reader does not follow, changing nothing", async () => {
    const owner = await registered();
    await followTopic(owner, "strategy");
    const r = await registered();
    await followTopic(r, "innovation");

    const bad = await contract.call(r, "DELETE", TOPIC, { body: {} });
    expect(bad.status).toBe(400);
    expect(bad.json.fields).toEqual({ name: ["This field is required."] });
    for (const method of ["GET", "DELETE"]) {
      const res = await contract.call(guest(), method, TOPIC, { body: method === "DELETE" ? { name: "Strategy" } : undefined });
      expect(res.status, method).toBe(401);
    }
    for (const name of ["Strategy", "No Such Topic"]) {
      const res = await contract.call(r, "DELETE", TOPIC, { body: { name } });
      expect(res.status, name).toBe(404);
      expect(res.json.code).toBe("not_found");
    }
    expect(await follows(owner, "topic")).toEqual([String((await topic("strategy")).id)]);
    expect(await follows(r, "topic")).toEqual([String((await topic("innovation")).id)]);
  });
});

describe("newsletters: user/subscribe, user/unsubscribe/all, newsletters/subscribe and unsubscribe", () => {
  it("subscribes and unsubscribes the signed-in reader, and unsubscribes them from all", async () => {
    const r = await registered();
    const a = await api(r, "POST", "/service/user/subscribe", "/service/user/subscribe", { name: "the-daily-brief" });
    expect(a.json).toMatchObject({ name: "the-daily-brief", title: "The Daily Brief", subscribed: true });
    const b = await api(r, "POST", "/service/newsletters/subscribe", "/service/newsletters/subscribe", { name: "leading-people" });
    expect(b.json).toMatchObject({ subscribed: true });
    await api(r, "POST", "/service/user/marketingcampaign/subscribe", "/service/user/marketingcampaign/subscribe", {
      name: "research-panel",
    });
    expect(await follows(r, "newsletter")).toEqual(["leading-people", "the-daily-brief"]);

    const off = await api(r, "DELETE", "/service/user/subscribe", "/service/user/subscribe", { name: "leading-people" });
    expect(off.json).toMatchObject({ subscribed: false });
    const byName = await api(r, "POST", "/service/newsletters/unsubscribe", "/service/newsletters/unsubscribe", {
      name: "the-daily-brief",
    });
    expect(byName.json).toMatchObject({ subscribed: false });
    expect(await follows(r, "newsletter")).toEqual([]);

    await api(r, "POST", "/service/user/subscribe", "/service/user/subscribe", { name: "the-chart-room" });
    await api(r, "POST", "/service/user/subscribe", "/service/user/subscribe", { name: "strategy-dispatch" });
    const all = await api(r, "DELETE", "/service/user/unsubscribe/all", "/service/user/unsubscribe/all");
    expect(all.status).toBe(200);
    expect(all.json.unsubscribed).toBe(2);
    expect(await follows(r, "newsletter")).toEqual([]);
    // Marketing campaigns are not newsletters: they stay.
    expect(await follows(r, "campaign")).toEqual(["research-panel"]);
  });

  it("keeps a subscriber-only newsletter for subscribers", async () => {
    const r = await registered();
    const refused = await api(r, "POST", "/service/newsletters/subscribe", "/service/newsletters/subscribe", { name: "the-insider" });
    expect(refused.status).toBe(403);
    expect(refused.json.message).toBe(SUBSCRIBER_ONLY_NEWSLETTER);
    expect(await follows(r, "newsletter")).toEqual([]);
    const subscriber = await subscribe(await registered());
    expect((await api(subscriber, "POST", "/service/user/subscribe", "/service/user/subscribe", { name: "the-insider" })).status).toBe(200);
    expect(await follows(subscriber, "newsletter")).toEqual(["the-insider"]);
  });

  it("answers bad input, unknown newsletters and guests as it should", async () => {
    const r = await registered();
    for (const path of ["/service/user/subscribe", "/service/newsletters/subscribe"]) {
      const bad = await api(r, "POST", path, path, { name: "" });
      expect(bad.status).toBe(400);
      expect(bad.json.fields).toEqual({ name: ["This field is required."] });
      expect((await api(r, "POST", path, path, { name: "no-such-letter" })).status).toBe(404);
      expect((await api(undefined, "POST", path, path, { name: "the-daily-brief" })).status).toBe(401);
    }
    expect((await api(undefined, "DELETE", "/service/user/unsubscribe/all", "/service/user/unsubscribe/all")).status).toBe(401);
    const guest = await api(undefined, "POST", "/service/newsletters/unsubscribe", "/service/newsletters/unsubscribe", {
      name: "the-daily-brief",
    });
    expect(guest.status).toBe(401);
    const noName = await api(r, "POST", "/service/newsletters/unsubscribe", "/service/newsletters/unsubscribe", {});
    expect(noName.status).toBe(400);
    expect(noName.json.fields).toEqual({ name: ["This field is required."] });
  });

  it("unsubscribes a guest holding a newsletter's unsubscribe link, and only that reader from that newsletter", async () => {
    const owner = await registered();
    await api(owner, "POST", "/service/user/subscribe", "/service/user/subscribe", { name: "the-daily-brief" });
    await api(owner, "POST", "/service/user/subscribe", "/service/user/subscribe", { name: "the-chart-room" });
    const token = unsubscribeToken(SESSION_SECRET, await userIdOf(owner), "the-daily-brief");
    const path = "/service/newsletters/unsubscribe";

    const forged = await api(undefined, "POST", path, path, { token: `${token.slice(0, -2)}xx` });
    expect(forged.status).toBe(400);
    // The token names one newsletter; it cannot be pointed at another.
    expect((await api(undefined, "POST", path, path, { token, name: "the-chart-room" })).status).toBe(400);
    expect(await follows(owner, "newsletter")).toEqual(["the-chart-room", "the-daily-brief"]);

    const done = await api(undefined, "POST", path, path, { token });
    expect(done.status).toBe(200);
    expect(done.json).toMatchObject({ name: "the-daily-brief", subscribed: false });
    expect(await follows(owner, "newsletter")).toEqual(["the-chart-room"]);
  });
});

describe("marketing campaigns: POST/DELETE /service/user/marketingcampaign/subscribe", () => {
  const PATH = "/service/user/marketingcampaign/subscribe";
  it("subscribes and unsubscribes, refusing unknown campaigns, bad input and guests", async () => {
    const r = await registered();
    expect((await api(r, "POST", PATH, PATH, { name: "event-invitations" })).json).toMatchObject({ subscribed: true });
    expect(await follows(r, "campaign")).toEqual(["event-invitations"]);
    expect((await api(r, "DELETE", PATH, PATH, { name: "event-invitations" })).json).toMatchObject({ subscribed: false });
    expect(await follows(r, "campaign")).toEqual([]);
    expect((await api(r, "POST", PATH, PATH, { name: "no-such-campaign" })).status).toBe(404);
    expect((await api(r, "POST", PATH, PATH, {})).status).toBe(400);
    expect((await api(undefined, "DELETE", PATH, PATH, { name: "event-invitations" })).status).toBe(401);
    expect(await follows(r, "campaign")).toEqual([]);
  });
});

describe("the /api/ sign-ups: POST /api/newsletters/subscribe and /api/marketingcampaign/subscribe", () => {
  const NEWSLETTERS = "/api/newsletters/subscribe";
  const CAMPAIGNS = "/api/marketingcampaign/subscribe";

  it("subscribe the signed-in reader, as their /service/ twins do", async () => {
    const r = await registered();
    const letter = await contract.call(r, "POST", NEWSLETTERS, { body: { name: "the-daily-brief" } });
    expect(letter.status).toBe(200);
    expect(letter.json).toEqual({ name: "the-daily-brief", title: "The Daily Brief", subscribed: true });
    const campaign = await contract.call(r, "POST", CAMPAIGNS, { body: { name: "event-invitations" } });
    expect(campaign.status).toBe(200);
    expect(campaign.json).toMatchObject({ name: "event-invitations", subscribed: true });
    expect(await follows(r, "newsletter")).toEqual(["the-daily-brief"]);
    expect(await follows(r, "campaign")).toEqual(["event-invitations"]);

    const refused = await contract.call(r, "POST", NEWSLETTERS, { body: { name: "the-insider" } });
    expect(refused.status).toBe(403);
    expect(refused.json.message).toBe(SUBSCRIBER_ONLY_NEWSLETTER);
  });

  it("answer bad input with 400, unknown names with 404 and a guest with 401, storing nothing", async () => {
    const r = await registered();
    for (const path of [NEWSLETTERS, CAMPAIGNS]) {
      const bad = await contract.call(r, "POST", path, { body: { name: "" } });
      expect(bad.status, path).toBe(400);
      expect(bad.json.fields).toEqual({ name: ["This field is required."] });
      expect((await contract.call(r, "POST", path, { body: { name: "no-such-name" } })).status, path).toBe(404);
      const signedOut = await contract.call(guest(), "POST", path, { body: { name: "the-daily-brief" } });
      expect(signedOut.status, path).toBe(401);
      expect(signedOut.json.code).toBe("not_signed_in");
    }
    expect(await follows(r, "newsletter")).toEqual([]);
    expect(await follows(r, "campaign")).toEqual([]);
  });
});

describe("sharing by e-mail: POST /service/user/share", () => {
  const PATH = "/service/user/share";
  const share = (r: Reader | undefined, body: Record<string, unknown>) =>
    api(r, "POST", PATH, PATH, { from: "nell@example.org", type: "article", id: articleIds[0], ...body });

  it("mails the item to each address, checks the addresses with the share form's messages, and asks a guest to sign in", async () => {
    const r = await registered();
    const before = smtp.received.length;
    const sent = await share(r, { sharedWith: "ann@example.org, bob@example.org", description: "Worth a read" });
    expect(sent.status).toBe(200);
    expect(sent.json).toMatchObject({ sent: true, recipients: 2, message: "Shared via e-mail" });
    await smtp.waitFor((m) => m.rcptTo.includes("ann@example.org"));
    expect(smtp.received.length).toBe(before + 1);

    const bad = await share(r, { sharedWith: "ann@example.org, not-an-address" });
    expect(bad.status).toBe(400);
    expect(bad.json.fields).toEqual({ sharedWith: ["Please enter valid email addresses, separated by commas."] });
    expect((await share(r, { from: "", sharedWith: "ann@example.org" })).json.fields?.from).toBeDefined();
    expect((await share(r, { id: 999_999_999, sharedWith: "ann@example.org" })).status).toBe(404);
    expect((await share(undefined, { sharedWith: "ann@example.org" })).status).toBe(401);
    expect(smtp.received.length).toBe(before + 1);
  });

  it("keeps a subscriber-only video for its subscribers", async () => {
    const video = await database.selectFrom("video").select("id").where("subscriber_only", "=", 1).executeTakeFirstOrThrow();
    const r = await registered();
    const refused = await share(r, { type: "video", id: video.id, sharedWith: "ann@example.org" });
    expect(refused.status).toBe(403);
    const subscriber = await subscribe(await registered());
    expect((await share(subscriber, { type: "video", id: video.id, sharedWith: "ann@example.org" })).status).toBe(200);
  });

  it("shares the share page's daily cap: after 20 e-mail shares in a day, 429 with Retry-After", async () => {
    const r = await registered();
    // One through the page counts against the same cap.
    const page = await r.request(`/share?type=article&id=${articleIds[1]}&tab=email`, {
      form: { intent: "email", type: "article", id: articleIds[1]!, from: "nell@example.org", sharedWith: "ann@example.org" },
    });
    expect(page.status).toBe(303);
    for (let i = 0; i < 19; i += 1) expect((await share(r, { sharedWith: "ann@example.org" })).status).toBe(200);
    const capped = await share(r, { sharedWith: "ann@example.org" });
    expect(capped.status).toBe(429);
    expect(capped.json.message).toBe("You have shared as many e-mails as we allow in a day. Please try again tomorrow.");
    expect(Number(capped.res.headers.get("Retry-After"))).toBeGreaterThan(0);
  });
});
