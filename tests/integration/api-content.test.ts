import * as cheerio from "cheerio";
import { decode } from "turbo-stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NO_GIFTS_LEFT } from "~/app/lib/paywall/gift-messages";
import type { Database } from "~/server/db/connection";
import { HISTORY_PAGE_SIZE } from "~/server/library/history";
import type { ApiBody, ApiContract } from "~/tests/helpers/api-contract";
import { Reader, registeredReader, subscribe } from "~/tests/helpers/reader";
import { latestArticles, startApiSite, type ApiSite } from "~/tests/helpers/api-site";
import type { RunningServer } from "~/tests/helpers/server";
import { availabilities, insertOrder } from "~/tests/helpers/store-orders";

// The content group of the service API against the production build: the article content
// service (access decided and reads counted exactly as the article page does), gift links, and
// the stream services (named streams, following, search, history, library, magazine, orders,
// topics), each answer checked against the published OpenAPI document. Orders are written into
// the server's own database, as the checkout leaves them (tests/helpers/store-orders.ts).

const REGISTERED_LIMIT = 3;
const GIFTS_PER_MONTH = 2;

let site: ApiSite;
let db: Database;
let server: RunningServer;
let contract: ApiContract;
/** The Latest's first page: article paths, newest first. */
let articles: { path: string; id: string }[] = [];

beforeAll(async () => {
  site = await startApiSite("api-content", {
    RATE_LIMIT_PER_IP: "100000",
    RATE_LIMIT_PER_ACCOUNT: "1000",
    METER_REGISTERED_LIMIT: String(REGISTERED_LIMIT),
    GIFTS_PER_MONTH: String(GIFTS_PER_MONTH),
  });
  ({ server, contract, database: db } = site);
  articles = await latestArticles(server.url);
  expect(articles.length).toBeGreaterThan(REGISTERED_LIMIT + 2);
}, 120_000);

afterAll(() => site?.stop());

const CONTENT = "/api/article/piano/content";

interface ContentAnswer {
  guid: string | null;
  content: string;
  quota: { limit: number; count: number; remaining: number } | null;
  fullContent: boolean;
  wall: string | null;
}

interface StreamAnswer {
  entries: {
    id: number;
    title: string;
    url: string;
    summary: string;
    contentType: string;
    date: string | null;
    image: string | null;
    itemId?: string;
    featuring?: string[];
  }[];
  page: { number: number; size: number; last: number; total: number };
  type: string;
  isPaywallEnabled: boolean;
  maintenanceStatus: boolean;
}

const contentQuery = (path: string) => {
  const [, year, month, seotitle] = /^\/(\d{4})\/(\d{1,2})\/([a-z0-9-]+)$/.exec(path)!;
  return new URLSearchParams({ year: year!, month: month!, seotitle: seotitle! }).toString();
};

/** The content service, as the article page's script calls it (a form post from the site). */
async function content(r: Reader, path: string): Promise<{ res: Response; body: ContentAnswer }> {
  const res = await r.request(`${CONTENT}?${contentQuery(path)}`, { form: { contentKey: "ck", pageSlug: path } });
  const body = (await contract.check(CONTENT, "post", res)) as ContentAnswer;
  return { res, body };
}

/** A stream service's answer, checked against the document. */
async function stream(r: Reader, documented: string, path: string): Promise<{ status: number; body: StreamAnswer }> {
  const res = await r.request(path);
  const body = (await contract.check(documented, "get", res)) as StreamAnswer;
  return { status: res.status, body };
}

/** The reader's id as the page's analytics data layer gives it. */
async function dataLayerGuid(r: Reader): Promise<string | null> {
  const $ = await r.page("/");
  const match = /^window\.meridianDataLayer=(.*);$/s.exec($("head script[data-analytics]").html() ?? "");
  return (JSON.parse(match![1]!) as { user: { guid: string | null } }).user.guid;
}

const meter = async (r: Reader) => (await (await r.request("/service/user/quota")).json()) as { count: number; remaining: number };

describe("POST /api/article/piano/content", () => {
  it("gives a subscriber the whole text, with their guid and no meter", async () => {
    const r = await subscribe(await registeredReader(server.url));
    const { res, body } = await content(r, articles[0]!.path);
    expect(res.status).toBe(200);
    expect(body.fullContent).toBe(true);
    expect(body.wall).toBeNull();
    expect(body.quota).toBeNull();
    expect(body.guid).toBe(await dataLayerGuid(r));
    expect(body.guid).toMatch(/\S/);
    // Every paragraph the page shows in the gated part is in the answer.
    const $ = await r.page(articles[0]!.path);
    // (The store promo between them is the page's, not the article's.)
    const gated = $(".paywalled-content p")
      .filter((_, p) => $(p).closest("aside").length === 0)
      .map((_, p) => $(p).text().trim())
      .get()
      .filter((t) => t.length > 40);
    expect(gated.length).toBeGreaterThan(1);
    const served = cheerio.load(body.content).text();
    for (const paragraph of gated) expect(served).toContain(paragraph);
  });

  it("counts a registered reader's reads on the same meter as the page, once an article, then walls them with the preview only", async () => {
    const r = await registeredReader(server.url);
    const subscriber = await subscribe(await registeredReader(server.url));
    expect((await meter(r)).count).toBe(0);

    const first = await content(r, articles[1]!.path);
    expect(first.body).toMatchObject({ fullContent: true, wall: null, quota: { count: 1, limit: REGISTERED_LIMIT } });
    expect(first.body.guid).toBe(await dataLayerGuid(r));
    // Opening the page after the call counts nothing more, and neither does a second call.
    expect((await r.page(articles[1]!.path))("[data-wall]").length).toBe(0);
    expect((await content(r, articles[1]!.path)).body.quota?.count).toBe(1);
    expect((await meter(r)).count).toBe(1);
    // A read on the page counts for the service too.
    await r.page(articles[2]!.path);
    expect((await content(r, articles[3]!.path)).body.quota).toMatchObject({ count: 3, remaining: 0 });

    const walled = await content(r, articles[4]!.path);
    expect(walled.body).toMatchObject({ fullContent: false, wall: "subscribe", quota: { count: 3, remaining: 0 } });
    const full = (await content(subscriber, articles[4]!.path)).body.content;
    expect(walled.body.content.length).toBeGreaterThan(0);
    expect(full.startsWith(walled.body.content)).toBe(true);
    expect(full.length).toBeGreaterThan(walled.body.content.length * 1.5);
    // The page walls them on the same article.
    expect((await r.page(articles[4]!.path))("[data-wall]").attr("data-wall")).toBe("subscribe");
  });

  it("walls a caller without cookies, setting the visitor cookie, then meters them as a guest", async () => {
    const guest = new Reader(server.url);
    const first = await content(guest, articles[5]!.path);
    expect(first.body).toMatchObject({ guid: null, fullContent: false, wall: "registration", quota: null });
    expect(guest.cookie("mr_visitor")).toBeTruthy();
    const second = await content(guest, articles[5]!.path);
    expect(second.body).toMatchObject({ guid: null, fullContent: true, wall: null });
    expect(second.body.quota?.count).toBe(1);
    expect(second.body.content.startsWith(first.body.content)).toBe(true);
    expect(second.body.content.length).toBeGreaterThan(first.body.content.length);
  });

  it("refuses a bad address with the fields' errors, and answers 404 for an article that does not exist", async () => {
    const r = new Reader(server.url);
    const bad = await r.request(`${CONTENT}?year=20&month=x`, { form: {} });
    expect(bad.status).toBe(400);
    const error = (await contract.check(CONTENT, "post", bad)) as { code: string; fields: Record<string, string[]> };
    expect(error.code).toBe("invalid_input");
    expect(Object.keys(error.fields).sort()).toEqual(["month", "seotitle", "year"]);
    const missing = await r.request(`${CONTENT}?year=2020&month=1&seotitle=no-such-article-zz`, { form: {} });
    expect(missing.status).toBe(404);
    expect(((await contract.check(CONTENT, "post", missing)) as { code: string }).code).toBe("not_found");
  });
});

describe("GET /service/components/article/{year}/{month}/{seo}", () => {
  const COMPONENT = "/service/components/article/{year}/{month}/{seo}";

  /** The article's content by its address in the path, checked against the document. */
  async function component(r: Reader, path: string): Promise<{ status: number; body: ContentAnswer }> {
    const res = await r.request(`/service/components/article${path}`);
    return { status: res.status, body: (await contract.check(COMPONENT, "get", res)) as ContentAnswer };
  }

  it("gives each caller the article as the page does: a subscriber all of it, a reader on the meter, then the preview behind the wall", async () => {
    const subscriber = await subscribe(await registeredReader(server.url));
    const whole = await component(subscriber, articles[0]!.path);
    expect(whole.status).toBe(200);
    expect(whole.body).toMatchObject({ fullContent: true, wall: null, quota: null, guid: await dataLayerGuid(subscriber) });
    expect(whole.body.content).toBe((await content(subscriber, articles[0]!.path)).body.content);

    const r = await registeredReader(server.url);
    const first = await component(r, articles[1]!.path);
    expect(first.body).toMatchObject({ fullContent: true, wall: null, quota: { count: 1, limit: REGISTERED_LIMIT } });
    // The same read is not counted again, by the service or by the page.
    expect((await component(r, articles[1]!.path)).body.quota?.count).toBe(1);
    expect((await r.page(articles[1]!.path))("[data-wall]").length).toBe(0);
    expect((await meter(r)).count).toBe(1);
    await r.page(articles[2]!.path);
    expect((await component(r, articles[3]!.path)).body.quota).toMatchObject({ count: 3, remaining: 0 });
    const walled = await component(r, articles[4]!.path);
    expect(walled.body).toMatchObject({ fullContent: false, wall: "subscribe" });
    const full = (await component(subscriber, articles[4]!.path)).body.content;
    expect(walled.body.content.length).toBeGreaterThan(0);
    expect(full.startsWith(walled.body.content)).toBe(true);
    expect(full.length).toBeGreaterThan(walled.body.content.length * 1.5);
    expect((await r.page(articles[4]!.path))("[data-wall]").attr("data-wall")).toBe("subscribe");

    const guest = new Reader(server.url);
    expect((await component(guest, articles[5]!.path)).body).toMatchObject({ guid: null, fullContent: false, wall: "registration" });
    expect(guest.cookie("mr_visitor")).toBeTruthy();
  });

  it("refuses a bad address with 400 and each field's error, and answers 404 for an article that does not exist", async () => {
    const guest = new Reader(server.url);
    const bad = await guest.request("/service/components/article/20/x/No_Such");
    expect(bad.status).toBe(400);
    const error = (await contract.check(COMPONENT, "get", bad)) as { code: string; fields: Record<string, string[]> };
    expect(error.code).toBe("invalid_input");
    expect(Object.keys(error.fields).sort()).toEqual(["month", "seo", "year"]);
    const missing = await guest.request("/service/components/article/2020/1/no-such-article-zz");
    expect(missing.status).toBe(404);
    expect(((await contract.check(COMPONENT, "get", missing)) as { code: string }).code).toBe("not_found");
  });
});

describe("GET /service/{stream}/{number}/{size}", () => {
  const NAMED = "/service/{stream}/{number}/{size}";

  it("gives a named stream's page as its page lists it, capped at the page's size", async () => {
    const guest = new Reader(server.url);
    const { status, body } = await stream(guest, NAMED, "/service/ascend/1/500?format=json");
    expect(status).toBe(200);
    expect(body).toMatchObject({ type: "ascend", isPaywallEnabled: true, maintenanceStatus: false, page: { number: 1, size: 8 } });
    const $ = await guest.page("/ascend");
    const listed = $("main ol article h3 a")
      .map((_, a) => $(a).attr("href"))
      .get();
    expect(body.entries.map((e) => e.url)).toEqual(listed);
    expect(body.entries.length).toBeGreaterThan(2);

    const small = (await stream(guest, NAMED, "/service/ascend/2/2")).body;
    expect(small.page).toMatchObject({ number: 2, size: 2, last: Math.ceil(small.page.total / 2) });
    expect(small.entries.map((e) => e.url)).toEqual(listed.slice(2, 4));
  });

  it("gives the default stream, latest, as The Latest lists it", async () => {
    const guest = new Reader(server.url);
    const { status, body } = await stream(guest, NAMED, "/service/latest/1/10?format=json");
    expect(status).toBe(200);
    expect(body).toMatchObject({ type: "latest", page: { number: 1, size: 10 } });
    expect(body.entries.map((e) => e.url)).toEqual(articles.map((a) => a.path));
    const $ = await guest.page("/the-latest?page=2");
    expect((await stream(guest, NAMED, "/service/latest/2/10")).body.entries.map((e) => e.url)).toEqual(
      $("main ol article h3 a")
        .map((_, a) => $(a).attr("href"))
        .get(),
    );
  });

  it("tells a subscriber the paywall is off for them", async () => {
    const r = await subscribe(await registeredReader(server.url));
    expect((await stream(r, NAMED, "/service/webinars/1/8")).body.isPaywallEnabled).toBe(false);
  });

  it("refuses a bad page number, size or stream with 400, and a page past the last with 404", async () => {
    const guest = new Reader(server.url);
    for (const [path, field] of [
      ["/service/webinars/0/8", "number"],
      ["/service/webinars/1/0", "size"],
      ["/service/webinars/1/ten", "size"],
      ["/service/no-such-stream/1/8", "stream"],
    ] as const) {
      const res = await guest.request(path);
      expect(res.status, path).toBe(400);
      expect(Object.keys(((await contract.check(NAMED, "get", res)) as { fields: object }).fields), path).toContain(field);
    }
    const past = await guest.request("/service/webinars/99999/8");
    expect(past.status).toBe(404);
    await contract.check(NAMED, "get", past);
  });
});

describe("GET /service/components/myhbr/following/{number}/{size}", () => {
  const FOLLOWING = "/service/components/myhbr/following/{number}/{size}";

  async function follow(r: Reader, topicPath: string): Promise<void> {
    const $ = await r.page(topicPath);
    const target = $("main form[action='/follow'] input[name=target]").val() as string;
    const res = await r.request("/follow", { form: { intent: "follow", kind: "topic", target, redirectTo: topicPath } });
    expect(res.status).toBe(303);
  }

  it("lists the followed topics' articles as the page does, one topic by its filter (R&D as RD), and nobody else's", async () => {
    const r = await subscribe(await registeredReader(server.url));
    const other = await registeredReader(server.url);
    await follow(r, "/topic/subject/strategy");
    await follow(r, "/topic/subject/randd");

    const all = (await stream(r, FOLLOWING, "/service/components/myhbr/following/1/100")).body;
    expect(all).toMatchObject({ type: "following", page: { number: 1, size: 10 } });
    const $ = await r.page("/my-library/topics");
    expect(all.entries.map((e) => e.url)).toEqual(
      $("main ol article h3 a")
        .map((_, a) => $(a).attr("href"))
        .get(),
    );
    const onlyRd = (await stream(r, FOLLOWING, "/service/components/myhbr/following/1/10?filter=RD")).body;
    const $rd = await r.page("/my-library/topics?filter=RD");
    expect(onlyRd.entries.map((e) => e.url)).toEqual(
      $rd("main ol article h3 a")
        .map((_, a) => $rd(a).attr("href"))
        .get(),
    );
    expect(onlyRd.page.total).toBeGreaterThan(0);
    expect(onlyRd.page.total).toBeLessThan(all.page.total);

    expect((await stream(other, FOLLOWING, "/service/components/myhbr/following/1/10")).body.entries).toEqual([]);
    const unknown = await other.request("/service/components/myhbr/following/1/10?filter=Strategy");
    expect(unknown.status).toBe(404);
    await contract.check(FOLLOWING, "get", unknown);
  });

  it("answers 401 signed out and 400 for a bad page", async () => {
    const out = await new Reader(server.url).request("/service/components/myhbr/following/1/10");
    expect(out.status).toBe(401);
    await contract.check(FOLLOWING, "get", out);
    const bad = await (await registeredReader(server.url)).request("/service/components/myhbr/following/x/10");
    expect(bad.status).toBe(400);
    expect(((await contract.check(FOLLOWING, "get", bad)) as { fields: object }).fields).toHaveProperty("number");
  });
});

describe("GET /service/search/{number}/{size} and search/more-results", () => {
  const SEARCH = "/service/search/{number}/{size}";
  const MORE = "/service/search/more-results/{number}/{size}";

  it("finds what the search page finds, page by page, and nothing without a query", async () => {
    const guest = new Reader(server.url);
    const found = (await stream(guest, SEARCH, "/service/search/1/10?q=strategy")).body;
    expect(found.type).toBe("search");
    expect(found.entries.length).toBeGreaterThan(0);
    const $ = await guest.page("/search?q=strategy");
    expect(found.entries.map((e) => e.title)).toEqual(
      $("main ol article h3")
        .map((_, h) => $(h).text().trim())
        .get(),
    );
    const second = (await stream(guest, SEARCH, "/service/search/2/3?q=strategy")).body;
    expect(second.page).toMatchObject({ number: 2, size: 3 });
    expect(second.entries.map((e) => e.title)).toEqual(found.entries.slice(3, 6).map((e) => e.title));

    const more = (await stream(guest, MORE, "/service/search/more-results/1/10?q=strategy")).body;
    expect(more.type).toBe("search/more-results");
    expect(more.entries.map((e) => e.title)).toEqual(found.entries.map((e) => e.title));

    const none = (await stream(guest, SEARCH, "/service/search/1/10")).body;
    expect(none.entries).toEqual([]);
    const bad = await guest.request("/service/search/1/-1?q=strategy");
    expect(bad.status).toBe(400);
    await contract.check(SEARCH, "get", bad);
  });
});

describe("the search page's data", () => {
  /** The search route's loader data, as the browser's navigation reads it. */
  const searchData = async (query: string) => {
    const res = await new Reader(server.url).request(`/search.data?${query}`);
    expect(res.status).toBe(200);
    const { value } = await decode(res.body!);
    type Topic = { slug: string; count: number };
    return (value as Record<string, { data: { results: { topics: Topic[] } } }>)["routes/search"]!.data.results.topics;
  };

  it("carries only the topics the filter offers: the twelve with most matches, and the chosen one", async () => {
    const $ = await new Reader(server.url).page("/search?q=strategy");
    const offered = $("#search-filters input[name=topic]")
      .map((_, input) => $(input).attr("value"))
      .get()
      .filter(Boolean);
    expect(offered).toHaveLength(12);
    const topics = await searchData("q=strategy");
    expect(topics.map((t) => t.slug)).toEqual(offered);
    expect(topics.map((t) => t.count)).toEqual([...topics.map((t) => t.count)].sort((a, b) => b - a));

    // A topic chosen from outside the twelve stays on offer, after them.
    const other = (await db.selectFrom("topic").select("slug").where("slug", "not in", offered).orderBy("slug").executeTakeFirstOrThrow())
      .slug;
    const withChosen = await searchData(`q=strategy&topic=${other}`);
    expect(withChosen.map((t) => t.slug)).toContain(other);
    expect(withChosen.length).toBeLessThanOrEqual(13);
  });
});

describe("POST /service/search", () => {
  const SEARCH = "/service/search";

  const search = async (r: Reader, body: unknown, headers?: Record<string, string>) => {
    const res = await r.request(SEARCH, { json: body, headers });
    return { status: res.status, body: (await contract.check(SEARCH, "post", res)) as StreamAnswer & ApiBody };
  };
  const titlesOn = async (r: Reader, path: string) => {
    const $ = await r.page(path);
    return $("main ol article h3")
      .map((_, h) => $(h).text().trim())
      .get();
  };

  it("finds what the search page finds for the same query, filters and sort, page by page", async () => {
    const guest = new Reader(server.url);
    const plain = await search(guest, { queryString: "strategy" });
    expect(plain.status).toBe(200);
    expect(plain.body).toMatchObject({ type: "search", page: { number: 1, size: 10 } });
    expect(plain.body.entries.length).toBeGreaterThan(0);
    expect(plain.body.entries.map((e) => e.title)).toEqual(await titlesOn(guest, "/search?q=strategy"));

    const filtered = await search(guest, {
      queryString: "strategy",
      filters: { type: ["article"], topic: "strategy", from: 2000, to: 2025 },
      sort: "newest",
      order: "desc",
    });
    expect(filtered.status).toBe(200);
    const page = await titlesOn(guest, "/search?q=strategy&type=article&topic=strategy&from=2000&to=2025&sort=newest");
    expect(filtered.body.entries.map((e) => e.title)).toEqual(page);
    expect(filtered.body.page.total).toBeLessThan(plain.body.page.total);
    const dates = filtered.body.entries.map((e) => e.date!);
    expect(dates).toEqual([...dates].sort().reverse());

    const second = await search(guest, { queryString: "strategy", page: 2, size: 3 });
    expect(second.body.page).toMatchObject({ number: 2, size: 3 });
    expect(second.body.entries.map((e) => e.title)).toEqual(plain.body.entries.slice(3, 6).map((e) => e.title));

    expect((await search(guest, { queryString: "" })).body.entries).toEqual([]);
  });

  it("refuses filters, a sort or an order that make no sense with 400 and the field's error, and another site with 403", async () => {
    const guest = new Reader(server.url);
    for (const [body, field] of [
      [{}, "queryString"],
      [{ queryString: "strategy", filters: { type: ["novel"] } }, "filters.type.0"],
      [{ queryString: "strategy", filters: { topic: "no-such-topic-zz" } }, "filters.topic"],
      [{ queryString: "strategy", filters: { from: 2020, to: 2010 } }, "filters.to"],
      [{ queryString: "strategy", filters: { from: 1200 } }, "filters.from"],
      [{ queryString: "strategy", sort: "popular" }, "sort"],
      [{ queryString: "strategy", order: "asc" }, "order"],
      [{ queryString: "strategy", page: 0 }, "page"],
    ] as const) {
      const refused = await search(guest, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.code).toBe("invalid_input");
      expect(Object.keys(refused.body.fields!), JSON.stringify(body)).toEqual([field]);
    }
    const past = await search(guest, { queryString: "strategy", page: 99999 });
    expect(past.status).toBe(404);
    const foreign = await search(guest, { queryString: "strategy" }, { Origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    expect(foreign.body.code).toBe("cross_site");
  });
});

describe("the reader's history, saves and folders", () => {
  const HISTORY = "/service/user/history/{number}/{size}";
  const SAVES = "/service/user/saves/{number}/{size}";
  const LIST = "/service/user/list/{id}/{number}/{size}";

  it("answers 401 to a caller who is not signed in", async () => {
    const guest = new Reader(server.url);
    for (const [documented, path] of [
      [HISTORY, "/service/user/history/1/10"],
      [SAVES, "/service/user/saves/1/10"],
      [LIST, "/service/user/list/zz/1/10"],
    ] as const) {
      const res = await guest.request(path);
      expect(res.status, path).toBe(401);
      await contract.check(documented, "get", res);
    }
  });

  it("lists the articles the reader opened, the latest first, and never another reader's", async () => {
    const r = await registeredReader(server.url);
    const other = await registeredReader(server.url);
    await r.page(articles[0]!.path);
    await r.page(articles[1]!.path);
    const history = (await stream(r, HISTORY, "/service/user/history/1/10")).body;
    expect(history.type).toBe("user/history");
    expect(history.entries.map((e) => e.url)).toEqual([articles[1]!.path, articles[0]!.path]);
    expect((await stream(r, HISTORY, "/service/user/history/2/1")).body.entries.map((e) => e.url)).toEqual([articles[0]!.path]);
    expect((await stream(other, HISTORY, "/service/user/history/1/10")).body.entries).toEqual([]);
    const past = await r.request("/service/user/history/3/1");
    expect(past.status).toBe(404);
    await contract.check(HISTORY, "get", past);
  });

  it("lists the reader's saves and own folders, with item ids, and answers 404 for another reader's folder", async () => {
    const r = await registeredReader(server.url);
    const other = await registeredReader(server.url);
    for (const i of [2, 3]) {
      const query = new URLSearchParams({ type: "article", id: articles[i]!.id });
      expect((await r.request(`/my-library/save?${query}`, { form: { type: "article", id: articles[i]!.id } })).status).toBe(303);
    }
    const saves = (await stream(r, SAVES, "/service/user/saves/1/10")).body;
    expect(saves.type).toBe("user/saves");
    expect(saves.entries.map((e) => e.url).sort()).toEqual([articles[2]!.path, articles[3]!.path].sort());
    expect(saves.entries.every((e) => typeof e.itemId === "string")).toBe(true);
    expect((await stream(other, SAVES, "/service/user/saves/1/10")).body.entries).toEqual([]);

    expect((await r.request("/my-library?index", { form: { intent: "create-folder", name: "Api reading", description: "" } })).status).toBe(
      303,
    );
    const $ = await r.page("/my-library");
    const folderId = $("#library-items input[name=folderId]")
      .filter((_, el) => $(el).parent().text().trim() === "Api reading")
      .attr("value")!;
    expect(folderId).toBeTruthy();
    const add = new URLSearchParams({ intent: "bulk-add", itemId: saves.entries[0]!.itemId!, folderId });
    expect((await r.request("/my-library?index", { form: add })).status).toBe(303);

    const folder = (await stream(r, LIST, `/service/user/list/${folderId}/1/10`)).body;
    expect(folder.type).toBe("user/list");
    expect(folder.entries.map((e) => e.itemId)).toEqual([saves.entries[0]!.itemId]);
    for (const path of [`/service/user/list/${folderId}/1/10`, "/service/user/list/no-such-folder/1/10"]) {
      const res = await other.request(path);
      expect(res.status, path).toBe(404);
      await contract.check(LIST, "get", res);
    }
    const bad = await r.request(`/service/user/list/${folderId}/0/10`);
    expect(bad.status).toBe(400);
    await contract.check(LIST, "get", bad);
  });
});

/** The hrefs of the links a selector finds on a page. */
const hrefs = ($: cheerio.CheerioAPI, selector: string) =>
  $(selector)
    .map((_, a) => $(a).attr("href"))
    .get();

describe("GET /service/magazine/{number}/{size}", () => {
  const MAGAZINE = "/service/magazine/{number}/{size}";
  const magazine = (r: Reader, path: string) => contract.call<StreamAnswer & ApiBody>(r, "GET", MAGAZINE, { path });

  it("lists every issue newest first, each as the archive's card shows it: cover, title, summary and Featuring list", async () => {
    const guest = new Reader(server.url);
    const { status, json: first } = await magazine(guest, "/service/magazine/1/10?format=json");
    expect(status).toBe(200);
    expect(first).toMatchObject({ type: "magazine", isPaywallEnabled: true, maintenanceStatus: false, page: { number: 1, size: 10 } });
    expect(first.entries).toHaveLength(10);

    // The archive opens on the newest year, its issues in calendar order; the year before follows.
    const $ = await guest.page("/magazine");
    const cards = $("main article").get();
    const newestYear = cards.map((card) => ({
      url: $(card).find("h3 a").attr("href"),
      title: $(card).find("h3").text().trim(),
      summary: $(card).find("p").eq(1).text().trim(),
      image: $(card).find("img").attr("src"),
      featuring: $(card)
        .find("ul li")
        .map((_, li) => $(li).text().trim())
        .get(),
    }));
    expect(newestYear.length).toBeGreaterThan(0);
    expect(newestYear.length).toBeLessThan(10);
    expect(
      first.entries
        .slice(0, newestYear.length)
        .map(({ url, title, summary, image, featuring }) => ({ url, title, summary, image, featuring })),
    ).toEqual(newestYear.toReversed());
    expect(first.entries.some((e) => (e.featuring ?? []).length > 0)).toBe(true);
    expect(first.entries.every((e) => e.contentType === "Magazine issue" && /^\/archive-toc\/\w+$/.test(e.url))).toBe(true);
    const dates = first.entries.map((e) => e.date!);
    expect(dates).toEqual(dates.toSorted().toReversed());

    const year = $("nav[aria-label='Archive years'] a").eq(1).text();
    const yearBefore = hrefs(await guest.page(`/magazine?year=${year}`), "main article h3 a");
    expect(first.entries.slice(newestYear.length).map((e) => e.url)).toEqual(yearBefore.toReversed().slice(0, 10 - newestYear.length));
  });

  it("pages through the issues, at most 10 a page, and answers 404 past the last page", async () => {
    const guest = new Reader(server.url);
    const first = (await magazine(guest, "/service/magazine/1/10")).json;
    const second = (await magazine(guest, "/service/magazine/2/3")).json;
    expect(second.page).toMatchObject({ number: 2, size: 3, total: first.page.total, last: Math.ceil(first.page.total / 3) });
    expect(second.entries.map((e) => e.url)).toEqual(first.entries.slice(3, 6).map((e) => e.url));
    const capped = (await magazine(guest, "/service/magazine/1/500")).json;
    expect(capped.page.size).toBe(10);
    expect(capped.entries.map((e) => e.url)).toEqual(first.entries.map((e) => e.url));

    const { last, total } = first.page;
    const lastPage = (await magazine(guest, `/service/magazine/${last}/10`)).json;
    expect(lastPage.entries).toHaveLength(total - (last - 1) * 10);
    expect(lastPage.entries.at(-1)!.date).toMatch(/^1956-/);
    const past = await magazine(guest, `/service/magazine/${last + 1}/10`);
    expect(past.status).toBe(404);
    expect(past.json.code).toBe("not_found");
  });

  it("refuses a bad page number or size with 400 and the field's error", async () => {
    const guest = new Reader(server.url);
    for (const [path, field] of [
      ["/service/magazine/0/10", "number"],
      ["/service/magazine/one/10", "number"],
      ["/service/magazine/1/0", "size"],
    ] as const) {
      const { status, json } = await magazine(guest, path);
      expect(status, path).toBe(400);
      expect(Object.keys(json.fields ?? {}), path).toEqual([field]);
    }
  });
});

describe("GET /service/topics/{number}/{size}", () => {
  const TOPICS = "/service/topics/{number}/{size}";
  const topics = (r: Reader, path: string) => contract.call<StreamAnswer & ApiBody>(r, "GET", TOPICS, { path });

  it("lists the topic directory as /topics does, page by page, with each topic's page and description", async () => {
    const guest = new Reader(server.url);
    const $ = await guest.page("/topics");
    // Each subject's heading, then its topics, in the page's order.
    const listed = $("main section > header, main section li")
      .map((_, entry) => ({
        title: $(entry).find("h2, h3").text().trim(),
        url: $(entry).find("h2 a, h3 a").attr("href"),
        summary: $(entry).find("p").first().text(),
      }))
      .get();
    expect(listed.length).toBeGreaterThan(180);

    const { status, json: first } = await topics(guest, "/service/topics/1/100?format=json");
    expect(status).toBe(200);
    expect(first).toMatchObject({
      type: "topics",
      page: { number: 1, size: 10, total: listed.length, last: Math.ceil(listed.length / 10) },
    });
    expect(first.entries.map(({ title, url, summary }) => ({ title, url, summary }))).toEqual(listed.slice(0, 10));
    expect(first.entries.every((e) => e.contentType === "Topic")).toBe(true);

    const second = (await topics(guest, "/service/topics/2/4")).json;
    expect(second.entries.map((e) => e.url)).toEqual(listed.slice(4, 8).map((t) => t.url));
    const last = (await topics(guest, `/service/topics/${first.page.last}/10`)).json;
    expect(last.entries.map((e) => e.url)).toEqual(listed.slice((first.page.last - 1) * 10).map((t) => t.url));
    const opened = await guest.request(first.entries[0]!.url);
    expect(opened.status).toBe(200);
  });

  it("answers 404 past the last page and 400 for a bad page", async () => {
    const guest = new Reader(server.url);
    const past = await topics(guest, "/service/topics/99/10");
    expect(past.status).toBe(404);
    const bad = await topics(guest, "/service/topics/1/ten");
    expect(bad.status).toBe(400);
    expect(bad.json.fields).toHaveProperty("size");
  });
});

describe("GET /service/ordered/{number}/{size}", () => {
  const ORDERED = "/service/ordered/{number}/{size}";
  const DAY = 24 * 60 * 60 * 1000;
  const daysAgo = (n: number) => new Date(Date.now() - n * DAY).toISOString();

  interface OrderEntry {
    id: string;
    title: string;
    url: string;
    date: string;
    contentType: "order" | "subscription";
    orderStatus: "PURCHASED" | "CANCELLED";
    lineItems: { title: string; contentType: string; authors: string[]; availableDate: string | null }[];
    grandTotalIncTax: { cents: number; formatted: string };
    itemCount: number;
    downloads: { link: string; format: string; title: string }[];
    hasDownloads: boolean;
    accountNumber: string | null;
  }
  interface OrderedAnswer {
    entries: OrderEntry[];
    page: { number: number; size: number; last: number; total: number };
    type: string;
  }
  const ordered = (r: Reader, path: string) => contract.call<OrderedAnswer & ApiBody>(r, "GET", ORDERED, { path });

  let counter = 0;
  /** A signed-in reader and their account id. */
  async function buyer(): Promise<{ reader: Reader; id: string; email: string }> {
    counter += 1;
    const reader = new Reader(server.url);
    const email = `api-orders${counter}.${process.pid}.${Date.now()}@example.org`;
    const res = await reader.request("/register", {
      form: { firstName: "Ines", lastName: "Valcourt", emailAddress: email, password: "Lantern5!quay" },
    });
    expect(res.status).toBe(303);
    const row = await db.selectFrom("app_user").select("id").where("email", "=", email).executeTakeFirstOrThrow();
    return { reader, id: row.id, email };
  }

  it("answers 401 to a caller who is not signed in", async () => {
    const { status, json } = await ordered(new Reader(server.url), "/service/ordered/1/10");
    expect(status).toBe(401);
    expect(json.code).toBe("not_signed_in");
  });

  it("lists the reader's own orders and subscription, newest first, as the purchase history does, with items, totals and downloads", async () => {
    const pick = await availabilities(db);
    const me = await buyer();
    const stranger = await buyer();
    const paid = await insertOrder(db, {
      userId: me.id,
      email: me.email,
      status: "paid",
      createdAt: daysAgo(3),
      lines: [{ availabilityId: pick.hardcover.id }, { availabilityId: pick.kindle.id }],
    });
    const cancelled = await insertOrder(db, {
      userId: me.id,
      email: me.email,
      status: "cancelled",
      createdAt: daysAgo(2),
      lines: [{ availabilityId: pick.epub.id }],
    });
    // Waiting for its payment: not a purchase yet.
    await insertOrder(db, {
      userId: me.id,
      email: me.email,
      status: "pending_payment",
      createdAt: daysAgo(1),
      lines: [{ availabilityId: pick.html.id }],
    });
    const theirs = await insertOrder(db, {
      userId: stranger.id,
      email: stranger.email,
      status: "paid",
      createdAt: daysAgo(1),
      lines: [{ availabilityId: pick.pdfBook.id }],
    });
    await subscribe(me.reader);

    const { status, json } = await ordered(me.reader, "/service/ordered/1/10?format=json");
    expect(status).toBe(200);
    expect(json).toMatchObject({ type: "ordered", page: { number: 1, size: 10, last: 1, total: 3 } });
    const $ = await me.reader.page("/my-library/history/purchases");
    expect(json.entries.map((e) => e.title)).toEqual(
      $("main ol h3")
        .map((_, h) => $(h).text().trim())
        .get(),
    );
    const [subscription, cancelledEntry, paidEntry] = json.entries;

    expect(subscription).toMatchObject({ contentType: "subscription", orderStatus: "PURCHASED", lineItems: [], hasDownloads: false });
    expect(subscription!.title).toContain("#S1");
    expect(subscription!.accountNumber).toMatch(/\S/);
    expect($("main").text()).toContain(`Account number ${subscription!.accountNumber}`);

    expect(cancelledEntry).toMatchObject({
      id: cancelled.id,
      title: `Order ${cancelled.number}`,
      url: `/order/${cancelled.id}`,
      orderStatus: "CANCELLED",
      itemCount: 1,
      downloads: [],
      hasDownloads: false,
      accountNumber: null,
    });

    const total = await db.selectFrom("store_order").select("total_cents").where("id", "=", paid.id).executeTakeFirstOrThrow();
    expect(paidEntry).toMatchObject({
      id: paid.id,
      orderStatus: "PURCHASED",
      itemCount: 2,
      grandTotalIncTax: { cents: total.total_cents },
      hasDownloads: true,
      lineItems: [
        { title: pick.hardcover.title, contentType: pick.hardcover.product_type, authors: pick.hardcover.authors!.split(", ") },
        { title: pick.kindle.title, contentType: pick.kindle.product_type },
      ],
    });
    expect(paidEntry!.grandTotalIncTax.formatted).toMatch(/^\$\d/);
    // Only the ebook is a file; its link downloads it for the buyer.
    expect(paidEntry!.downloads).toEqual([{ link: `/download/order/${paid.id}/2`, format: "EPUB", title: pick.kindle.title }]);
    expect((await me.reader.request(paidEntry!.downloads[0]!.link)).status).toBe(200);

    // Another reader sees only their own.
    const other = (await ordered(stranger.reader, "/service/ordered/1/10")).json;
    expect(other.entries.map((e) => e.id)).toEqual([theirs.id]);
  });

  it("pages the history, at most a history page a call, and answers 404 past the last page and 400 for a bad page", async () => {
    const pick = await availabilities(db);
    const me = await buyer();
    const orders = [];
    for (let i = 1; i <= 3; i++)
      orders.push(
        await insertOrder(db, {
          userId: me.id,
          email: me.email,
          status: "paid",
          createdAt: daysAgo(i),
          lines: [{ availabilityId: pick.hardcover.id }],
        }),
      );
    const second = await ordered(me.reader, "/service/ordered/2/1");
    expect(second.json.page).toMatchObject({ number: 2, size: 1, last: 3, total: 3 });
    expect(second.json.entries.map((e) => e.id)).toEqual([orders[1]!.id]);
    expect((await ordered(me.reader, "/service/ordered/1/500")).json.page.size).toBe(HISTORY_PAGE_SIZE);
    const past = await ordered(me.reader, "/service/ordered/4/1");
    expect(past.status).toBe(404);
    const bad = await ordered(me.reader, "/service/ordered/1/-2");
    expect(bad.status).toBe(400);
    expect(bad.json.fields).toHaveProperty("size");
    // A reader with no purchases has one empty page.
    const empty = await ordered((await buyer()).reader, "/service/ordered/1/10");
    expect(empty.json).toMatchObject({ entries: [], page: { last: 1, total: 0 } });
  });
});

describe("POST /api/article-gift/give-gift", () => {
  const GIFT = "/api/article-gift/give-gift";
  interface GiftAnswer {
    articleGiftURL: string;
    articleGiftsLeft: number;
  }
  const give = (r: Reader, body: unknown, headers?: Record<string, string>) =>
    contract.call<GiftAnswer & ApiBody>(r, "POST", GIFT, { body, headers });

  it("makes a gift link that opens the article in full for anyone, then refuses with 409 once the month's gifts are used", async () => {
    const giver = await subscribe(await registeredReader(server.url));
    const path = articles[6]!.path;
    const first = await give(giver, { url: path });
    expect(first.status).toBe(200);
    expect(first.json.articleGiftsLeft).toBe(GIFTS_PER_MONTH - 1);
    expect(first.json.articleGiftURL).toMatch(new RegExp(`^${server.url}${path}\\?gift=[A-Za-z0-9_-]{43}$`));
    const opened = cheerio.load(await (await fetch(first.json.articleGiftURL)).text());
    expect(opened("#article-body .paywalled-content")).toHaveLength(1);

    // An address on this site is taken as well as a path.
    const second = await give(giver, { url: `${server.url}${articles[7]!.path}` });
    expect(second.status).toBe(200);
    expect(second.json.articleGiftsLeft).toBe(0);

    const refused = await give(giver, { url: path });
    expect(refused.status).toBe(409);
    expect(refused.json).toEqual({ code: "no_gifts_left", message: NO_GIFTS_LEFT, articleGiftsLeft: 0 });
    // The article page says the same.
    expect((await giver.page(path))("#gift [role=status]").text()).toContain(NO_GIFTS_LEFT);
  });

  it("refuses bad input with 400 and the field's error, an unknown article with 404, and takes no gift for either", async () => {
    const giver = await subscribe(await registeredReader(server.url));
    for (const body of [{}, { url: "" }, { url: "x".repeat(5000) }, { url: 12 }]) {
      const { status, json } = await give(giver, body);
      expect(status, JSON.stringify(body).slice(0, 40)).toBe(400);
      expect(json.fields, JSON.stringify(body).slice(0, 40)).toHaveProperty("url");
    }
    for (const url of ["/2020/01/no-such-article", `https://evil.example${articles[0]!.path}`, "/the-latest"]) {
      const { status, json } = await give(giver, { url });
      expect(status, url).toBe(404);
      expect(json.code).toBe("not_found");
    }
    expect((await give(giver, { url: articles[0]!.path })).json.articleGiftsLeft).toBe(GIFTS_PER_MONTH - 1);
  });

  it("answers 401 signed out, 403 to a reader without a subscription and to another site, and takes nothing", async () => {
    const signedOut = await give(new Reader(server.url), { url: articles[0]!.path });
    expect(signedOut.status).toBe(401);
    expect(signedOut.json.code).toBe("not_signed_in");
    const reader = await registeredReader(server.url);
    const notSubscriber = await give(reader, { url: articles[0]!.path });
    expect(notSubscriber.status).toBe(403);
    expect(notSubscriber.json.code).toBe("not_a_subscriber");

    const giver = await subscribe(await registeredReader(server.url));
    const foreign = await give(giver, { url: articles[0]!.path }, { Origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    expect(foreign.json.code).toBe("cross_site");
    expect((await give(giver, { url: articles[0]!.path })).json.articleGiftsLeft).toBe(GIFTS_PER_MONTH - 1);
  });
});
