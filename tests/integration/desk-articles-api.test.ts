import * as cheerio from "cheerio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type Database } from "~/server/db/connection";
import { createApiKey, revokeApiKey } from "~/server/desk/api-keys";
import { createArticle, getDeskArticle, publishArticle, publishDueArticles, saveArticle } from "~/server/desk/articles";
import { PREVIEW_LINK_HOURS, previewToken } from "~/server/desk/articles/preview";
import { COMMAND_LINE } from "~/server/desk/audit";
import type { ArticleFields } from "~/shared/article-fields";
import { ApiContract } from "~/tests/helpers/api-contract";
import { Reader, registeredReader } from "~/tests/helpers/reader";
import { startBuiltServer, type RunningServer } from "~/tests/helpers/server";
import { isolatedConnection, type IsolatedConnection } from "~/tests/helpers/test-db";

// The Admin API's article writes (ADR 074) and the article preview (ADR 079), through the
// production build: an article's whole life as a tool drives it, the API's refusals, and the
// preview's private address in its three views, which nothing counts and nothing keeps.

const SECRET = "preview-test-session-secret-0123456789abcdef";
let server: RunningServer;
let connection: IsolatedConnection;
let db: Database;
let contract: ApiContract;
let counter = 0;

beforeAll(async () => {
  connection = await isolatedConnection("dkapi");
  server = await startBuiltServer({ SESSION_SECRET: SECRET, RATE_LIMIT_PER_ACCOUNT: "1000" }, "production", connection);
  db = connect(connection);
  contract = await ApiContract.load(server.url);
}, 120_000);

afterAll(async () => {
  await db?.destroy();
  await server?.stop();
  await connection?.drop();
});

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

/** Paragraphs enough for the wall to stand before some of them; the last one says so. */
const BODY = [
  "The opening paragraph sets out the argument plainly.",
  "The second paragraph gives the evidence for it.",
  "The third paragraph ends the free part of the piece.",
  "The fourth paragraph is for readers past the wall.",
  "The closing paragraph is the one a walled guest never sees.",
].join("\n\n");

function fields(overrides: Partial<ArticleFields> = {}): ArticleFields {
  counter += 1;
  return {
    title: `A piece written through the API ${counter}`,
    dek: "What the desk's tools can do without the desk.",
    subDek: "",
    summary: "An article made, changed and published by a program holding a staff key.",
    body: BODY,
    slug: `api-piece-${counter}-${process.pid}`,
    authors: ["samira-castellanos"],
    topics: ["Managing Yourself", "Mentoring & Sponsorship"],
    contentType: "Article",
    tier: "article",
    series: null,
    seriesTitle: null,
    seriesPart: null,
    streams: [],
    published: "2026-03-10",
    ...overrides,
  };
}

type ApiArticle = ArticleFields & {
  id: number;
  version: number;
  status: string;
  publishedAt: string;
  publishAt: string | null;
  url: string | null;
};

async function call(
  key: string,
  method: string,
  path: string,
  body?: unknown,
  documented = path.replace(/\/\d+(?=\/|$)/, "/{id}"),
): Promise<{ status: number; json: ApiArticle & Record<string, unknown>; res: Response }> {
  const res = await fetch(server.url + path, {
    method,
    headers: { ...bearer(key), ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await contract.check(documented, method.toLowerCase(), res.clone())) as ApiArticle & Record<string, unknown>;
  return { status: res.status, json, res };
}

/** A guest's status for a site address, after the first visit's cookie check. */
async function guestStatus(path: string): Promise<number> {
  const guest = new Reader(server.url);
  let res = await guest.request(path);
  const location = res.headers.get("location") ?? "";
  if (res.status === 302 && location.includes("cookie-check=")) res = await guest.request(location);
  return res.status;
}

describe("the Admin API's article writes", () => {
  it("takes articles through their whole life: create, save, a stale save refused, publish, schedule, unpublish", async () => {
    const { key, apiKey } = await createApiKey(db, COMMAND_LINE, "Lifecycle tool", ["editor"], new Date());
    const actor = `API key Lifecycle tool (${apiKey.prefix})`;
    const given = fields();

    const created = await call(key, "POST", "/desk/api/articles", given, "/desk/api/articles");
    expect(created.status).toBe(201);
    const id = created.json.id;
    expect(created.res.headers.get("location")).toBe(`/desk/api/articles/${id}`);
    expect(created.json).toMatchObject({ ...given, version: 1, status: "draft", publishedAt: "2026-03-10", publishAt: null, url: null });
    expect((await call(key, "GET", `/desk/api/articles/${id}`)).json).toEqual(created.json);
    const path = `/2026/03/${given.slug}`;
    expect(await guestStatus(path)).toBe(404);

    // A change names the version it read; the fields it leaves out stay.
    const saved = await call(key, "PATCH", `/desk/api/articles/${id}`, { version: 1, title: "A sharper title", streams: ["big-ideas"] });
    expect(saved.status).toBe(200);
    expect(saved.json).toMatchObject({ ...given, title: "A sharper title", streams: ["big-ideas"], version: 2, status: "draft" });
    const stale = await call(key, "PATCH", `/desk/api/articles/${id}`, { version: 1, dek: "Written over the other save" });
    expect(stale.status).toBe(409);
    expect(stale.json).toMatchObject({ code: "conflict", by: actor, current: { version: 2, title: "A sharper title", dek: given.dek } });
    expect(stale.json.message).toBe(
      `This article was changed by ${actor} at ${stale.json.at} since the version you read: nothing was written.`,
    );

    const published = await call(key, "POST", `/desk/api/articles/${id}/publish`);
    expect(published.status).toBe(200);
    expect(published.json).toMatchObject({ status: "published", version: 3, url: `${server.url}${path}` });
    const page = await new Reader(server.url).page(path);
    expect(page("h1").text()).toBe("A sharper title");
    expect((await call(key, "POST", `/desk/api/articles/${id}/publish`)).json).toMatchObject({ code: "wrong_state", status: "published" });

    // Another, scheduled an hour ahead: the scheduled job publishes it once its time has come.
    const later = fields({ published: "2026-04-02" });
    const second = (await call(key, "POST", "/desk/api/articles", later, "/desk/api/articles")).json;
    const at = new Date(Date.now() + 3_600_000);
    const scheduled = await call(key, "POST", `/desk/api/articles/${second.id}/publish`, { at: at.toISOString() });
    expect(scheduled.json).toMatchObject({ status: "scheduled", publishAt: at.toISOString(), url: null });
    const secondPath = `/2026/04/${later.slug}`;
    expect(await guestStatus(secondPath)).toBe(404);
    expect(await publishDueArticles(db, new Date(at.getTime() - 1000))).toEqual({ published: [] });
    expect(await publishDueArticles(db, new Date(at.getTime() + 60_000))).toEqual({ published: [second.id] });
    expect(await guestStatus(secondPath)).toBe(200);
    expect((await call(key, "GET", `/desk/api/articles/${second.id}`)).json).toMatchObject({
      status: "published",
      url: `${server.url}${secondPath}`,
    });

    const unpublished = await call(key, "POST", `/desk/api/articles/${id}/unpublish`);
    expect(unpublished.json).toMatchObject({ status: "unpublished", url: null });
    expect(await guestStatus(path)).toBe(410);
    expect((await call(key, "POST", `/desk/api/articles/${id}/unpublish`)).json).toMatchObject({
      code: "wrong_state",
      status: "unpublished",
    });

    // The list sees every state.
    const list = (await (await fetch(`${server.url}/desk/api/articles?status=unpublished`, { headers: bearer(key) })).json()) as {
      items: { id: number }[];
    };
    expect(list.items.map((item) => item.id)).toContain(id);

    // Each change is in the audit log under the key, with its before and after, beside each call.
    const audit = await db
      .selectFrom("desk_audit")
      .select(["action", "actor", "subject", "after"])
      .where("actor_id", "=", apiKey.id)
      .orderBy("at")
      .orderBy("id")
      .execute();
    expect(audit.every((row) => row.actor === actor)).toBe(true);
    const changes = audit.filter((row) => row.action !== "api.call").map((row) => row.action);
    expect(changes).toEqual([
      "article.create",
      "article.save",
      "article.publish",
      "article.create",
      "article.schedule",
      "article.unpublish",
    ]);
    const calls = audit
      .filter((row) => row.action === "api.call")
      .map((row) => [row.subject, (JSON.parse(row.after!) as { status: number }).status]);
    expect(calls).toContainEqual([`PATCH /desk/api/articles/${id}`, 409]);
    expect(calls).toContainEqual([`POST /desk/api/articles/${second.id}/publish`, 200]);
    expect(calls).toHaveLength(12);
  });

  it("answers bad JSON, wrong types, unknown fields, oversized bodies and unknown ids with 4xx JSON, never 500", async () => {
    const { key } = await createApiKey(db, COMMAND_LINE, "Careless tool", ["admin"], new Date());
    const id = (await call(key, "POST", "/desk/api/articles", fields(), "/desk/api/articles")).json.id;
    const raw = (method: string, path: string, body: BodyInit, headers: Record<string, string> = {}) =>
      fetch(server.url + path, {
        method,
        headers: { ...bearer(key), "Content-Type": "application/json", ...headers },
        body,
        duplex: "half",
      } as RequestInit);

    const cases: [string, Promise<Response>, number, string, string?][] = [
      ["bad JSON", raw("POST", "/desk/api/articles", '{"title":'), 400, "unreadable_body"],
      ["JSON nested too deeply", raw("POST", "/desk/api/articles", `${"[".repeat(5000)}${"]".repeat(5000)}`), 400, "unreadable_body"],
      [
        "a number for the title",
        raw("POST", "/desk/api/articles", JSON.stringify({ ...fields(), title: 7 })),
        400,
        "invalid_input",
        "title",
      ],
      [
        "authors as text",
        raw("POST", "/desk/api/articles", JSON.stringify({ ...fields(), authors: "samira-castellanos" })),
        400,
        "invalid_input",
        "authors",
      ],
      ["an unknown field", raw("POST", "/desk/api/articles", JSON.stringify({ ...fields(), colour: "red" })), 400, "invalid_input", "form"],
      [
        "an unknown author",
        raw("POST", "/desk/api/articles", JSON.stringify(fields({ authors: ["nobody-at-all"] }))),
        400,
        "invalid_input",
        "authors",
      ],
      [
        "a slug in use",
        raw("POST", "/desk/api/articles", JSON.stringify(fields({ slug: "find-a-sponsor-not-just-a-mentor" }))),
        400,
        "invalid_input",
        "slug",
      ],
      [
        "a date that does not exist",
        raw("POST", "/desk/api/articles", JSON.stringify(fields({ published: "2026-02-30" }))),
        400,
        "invalid_input",
        "published",
      ],
      [
        "a change without its version",
        raw("PATCH", `/desk/api/articles/${id}`, JSON.stringify({ title: "No version" })),
        400,
        "invalid_input",
        "version",
      ],
      [
        "a change breaking the series rule",
        raw("PATCH", `/desk/api/articles/${id}`, JSON.stringify({ version: 1, series: "lone-part" })),
        400,
        "invalid_input",
        "series",
      ],
      [
        "an oversized body",
        raw("POST", "/desk/api/articles", JSON.stringify({ ...fields(), body: "x".repeat(1_100_000) })),
        413,
        "too_large",
      ],
      ["an oversized chunked body", raw("POST", "/desk/api/articles", chunked(1_100_000)), 413, "too_large"],
      [
        "a time that is no time",
        raw("POST", `/desk/api/articles/${id}/publish`, JSON.stringify({ at: "next Tuesday" })),
        400,
        "invalid_input",
        "at",
      ],
      ["an unknown id", raw("PATCH", "/desk/api/articles/99999999", JSON.stringify({ version: 1, title: "Nobody" })), 404, "not_found"],
      ["an unknown id to publish", raw("POST", "/desk/api/articles/99999999/publish", "{}"), 404, "not_found"],
      ["an id that is no number", fetch(`${server.url}/desk/api/articles/abc`, { headers: bearer(key) }), 400, "invalid_input", "id"],
      ["unpublishing a draft", raw("POST", `/desk/api/articles/${id}/unpublish`, ""), 409, "wrong_state"],
      ["DELETE", raw("DELETE", `/desk/api/articles/${id}`, ""), 405, "method_not_allowed"],
    ];
    for (const [name, answer, status, code, field] of cases) {
      const res = await answer;
      expect(res.status, name).toBe(status);
      const body = (await res.json()) as { code: string; fields?: Record<string, string[]> };
      expect(body.code, name).toBe(code);
      if (field) expect(Object.keys(body.fields ?? {}), name).toContain(field);
    }
    // An article's text may be long: 150,000 characters fit.
    const long = await call(
      key,
      "POST",
      "/desk/api/articles",
      fields({ body: `${"Long text goes on. ".repeat(7_500)}` }),
      "/desk/api/articles",
    );
    expect(long.status).toBe(201);
    expect(server.errors()).not.toMatch(/failed/);
  });

  it("answers 403 to a key whose roles may not write and 401 to a revoked one", async () => {
    const { key: serviceKey } = await createApiKey(db, COMMAND_LINE, "Service desk tool", ["service"], new Date());
    const { key: editorKey, apiKey: editor } = await createApiKey(db, COMMAND_LINE, "Soon revoked", ["editor"], new Date());
    const id = (await call(editorKey, "POST", "/desk/api/articles", fields(), "/desk/api/articles")).json.id;
    await revokeApiKey(db, COMMAND_LINE, editor.id, new Date());
    const calls: [string, string, unknown][] = [
      ["POST", "/desk/api/articles", fields()],
      ["GET", `/desk/api/articles/${id}`, undefined],
      ["PATCH", `/desk/api/articles/${id}`, { version: 1, title: "Not yours" }],
      ["POST", `/desk/api/articles/${id}/publish`, {}],
      ["POST", `/desk/api/articles/${id}/unpublish`, undefined],
    ];
    for (const [method, path, body] of calls) {
      expect((await call(serviceKey, method, path, body)).json.code, `${method} ${path}`).toBe("forbidden");
      const revoked = await call(editorKey, method, path, body);
      expect([revoked.status, revoked.json.code], `${method} ${path}`).toEqual([401, "invalid_key"]);
    }
    expect(await getDeskArticle(db, id)).toMatchObject({ version: 1, status: "draft" });
  });
});

/** A JSON body sent in chunks, without Content-Length. */
function chunked(bytes: number): ReadableStream<Uint8Array> {
  let sent = 0;
  const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
  return new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"body":"'));
    },
    pull(controller) {
      if (sent >= bytes) {
        controller.enqueue(new TextEncoder().encode('"}'));
        controller.close();
        return;
      }
      controller.enqueue(chunk);
      sent += chunk.byteLength;
    },
  });
}

describe("the article preview", () => {
  const previewOf = (id: number, now = new Date(), secret = SECRET) => `/preview/${previewToken(id, now, secret)}`;

  it("shows a draft to anyone holding its link, as a guest before the wall, at the wall and as a subscriber", async () => {
    const made = await createArticle(db, COMMAND_LINE, fields({ title: "A draft only the desk has seen" }), new Date());
    if (!made.ok) throw new Error("the draft was refused");
    const path = previewOf(made.article.id);

    const views: Record<string, cheerio.CheerioAPI> = {};
    for (const [view, query] of [
      ["guest", ""],
      ["wall", "?view=wall"],
      ["subscriber", "?view=subscriber"],
    ] as const) {
      // No cookie at all: no redirect to set one, no cookie set.
      const res = await fetch(server.url + path + query, { redirect: "manual" });
      expect(res.status, view).toBe(200);
      expect(res.headers.get("cache-control"), view).toBe("no-store");
      expect(res.headers.get("x-robots-tag"), view).toMatch(/noindex/);
      expect(res.headers.get("x-page-cache"), view).toBeNull();
      views[view] = cheerio.load(await res.text());
    }
    for (const [view, $] of Object.entries(views)) {
      expect($("h1").text(), view).toBe("A draft only the desk has seen");
      expect($("meta[name=robots]").attr("content"), view).toBe("noindex, nofollow");
      expect($("script[data-analytics]"), view).toHaveLength(0);
      expect($("[aria-label=Preview] [role=status]").text(), view).toMatch(/^Preview of a draft article, as seen by: /);
      expect($("[aria-label='Preview as'] a[aria-current=page]").attr("href"), view).toBe(view === "guest" ? path : `${path}?view=${view}`);
      expect($("main").text(), view).toContain("The opening paragraph sets out the argument plainly.");
    }
    expect(views.guest!("main").text()).toContain("The closing paragraph is the one a walled guest never sees.");
    expect(views.guest!("[data-counter]")).toHaveLength(1);
    expect(views.guest!("#paywall")).toHaveLength(0);
    expect(views.wall!("#paywall[data-wall=registration]")).toHaveLength(1);
    expect(views.wall!("main").text()).not.toContain("The fourth paragraph");
    expect(views.subscriber!("main").text()).toContain("The closing paragraph is the one a walled guest never sees.");
    expect(views.subscriber!("#paywall, [data-counter]")).toHaveLength(0);
    expect(views.wall!("[aria-label=Preview] [role=status]").text()).toContain("At the wall");

    // The latest save shows, whatever the state: published, then taken down.
    await saveArticle(
      db,
      COMMAND_LINE,
      made.article.id,
      1,
      { ...fields(), slug: made.article.slug, title: "Its second title" },
      new Date(),
    );
    await publishArticle(db, COMMAND_LINE, made.article.id, {}, new Date());
    const live = cheerio.load(await (await fetch(server.url + path)).text());
    expect([live("h1").text(), live("[aria-label=Preview] [role=status]").text()]).toEqual([
      "Its second title",
      "Preview of a published article, as seen by: Guest, before the wall",
    ]);
  });

  it("answers 404 to a forged, altered, foreign or expired link, as to any unknown address", async () => {
    const made = await createArticle(db, COMMAND_LINE, fields(), new Date());
    if (!made.ok) throw new Error("the draft was refused");
    const id = made.article.id;
    const token = previewToken(id, new Date(), SECRET);
    const [, expires, signature] = token.split(".");
    const flipped = `${signature!.slice(0, -1)}${signature!.endsWith("A") ? "B" : "A"}`;
    const expired = new Date(Date.now() - (PREVIEW_LINK_HOURS + 1) * 3_600_000);
    for (const [name, forged] of [
      ["another article's id under this signature", `${id + 1}.${expires}.${signature}`],
      ["a later expiry under this signature", `${id}.${Number(expires) + 3600}.${signature}`],
      ["an altered signature", `${id}.${expires}.${flipped}`],
      ["another site's secret", previewToken(id, new Date(), "another-secret-entirely-0123456789abcdef")],
      ["an expired link", previewToken(id, expired, SECRET)],
      ["no signature", `${id}.${expires}`],
      ["a made-up token", "not-a-token"],
      ["the article's id alone", String(id)],
    ]) {
      const res = await fetch(`${server.url}/preview/${encodeURIComponent(forged!)}`);
      expect(res.status, name).toBe(404);
      expect(res.headers.get("cache-control"), name).toBe("no-store");
    }
    expect((await fetch(`${server.url}/preview/${token}`)).status).toBe(200);
    expect((await fetch(`${server.url}${previewOf(99_999_999)}`)).status).toBe(404);
  });

  it("counts nothing: no meter read, no popularity, no history, however often it is opened", async () => {
    const made = await createArticle(db, COMMAND_LINE, fields(), new Date());
    if (!made.ok) throw new Error("the draft was refused");
    await publishArticle(db, COMMAND_LINE, made.article.id, {}, new Date());
    const path = previewOf(made.article.id);
    const tally = async () => ({
      meter: await db
        .selectFrom("meter_read")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow(),
      popularity: await db
        .selectFrom("article_read_day")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("article_id", "=", made.article.id)
        .executeTakeFirstOrThrow(),
      history: await db
        .selectFrom("view_history")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow(),
    });
    // A guest with a visitor cookie, and a signed-in reader, each past the guest meter's limit.
    const guest = new Reader(server.url);
    await guest.page("/");
    const reader = await registeredReader(server.url);
    const before = await tally();
    for (let i = 0; i < 6; i++) {
      for (const who of [guest, reader]) {
        const $ = await who.page(path);
        expect($("main").text()).toContain("The closing paragraph is the one a walled guest never sees.");
        expect($("[data-counter]").text()).toContain("You have 3 free articles left this month.");
      }
    }
    expect(await tally()).toEqual(before);
    // The article itself, opened once by the same guest, is counted: the tally would have seen a preview's read.
    await guest.page(made.article.path);
    expect(Number((await tally()).meter.n)).toBe(Number(before.meter.n) + 1);
  });
});
