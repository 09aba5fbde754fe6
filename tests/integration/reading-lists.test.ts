import * as cheerio from "cheerio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Reader, registeredReader, subscribe } from "~/tests/helpers/reader";
import { startBuiltServer, type RunningServer } from "~/tests/helpers/server";

// Reading lists against the production build: each list's own page, who sees how much of it
// (spec section 6: subscribers get complete reading lists), the list an article is read within,
// and the reading-list paywall, which shows the list with the wall.

const LIST = "leading-through-reorganization";
const PREVIEW = 3;

let server: RunningServer;
/** The whole list as a subscriber's page shows it: title and article path of each item, in order. */
let whole: { title: string; path: string }[];

function listItems($: cheerio.CheerioAPI): { number: string; title: string; path: string }[] {
  return $("main ol > li")
    .map((_, li) => {
      const link = $(li).find("h2 a, h3 a").first();
      return { number: $(li).find('[aria-hidden="true"]').first().text(), title: link.text(), path: link.attr("href")!.split("?")[0]! };
    })
    .get();
}

/** The page as a client without cookies gets it (the cookie check followed, no cookie kept): always walled. */
async function withoutCookies(path: string): Promise<cheerio.CheerioAPI> {
  const first = await fetch(server.url + path, { redirect: "manual" });
  const location = first.headers.get("location");
  const res = first.status === 302 && location ? await fetch(new URL(location, server.url), { redirect: "manual" }) : first;
  expect(res.status, path).toBe(200);
  return cheerio.load(await res.text());
}

beforeAll(async () => {
  server = await startBuiltServer({ RATE_LIMIT_PER_ACCOUNT: "1000" });
  const subscriber = await subscribe(await registeredReader(server.url));
  whole = listItems(await subscriber.page(`/reading-lists/${LIST}`)).map(({ title, path }) => ({ title, path }));
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

describe("a reading list's own page", () => {
  it("gives a subscriber every article, numbered in reading order, each opening within the list", async () => {
    const subscriber = await subscribe(await registeredReader(server.url));
    const $ = await subscriber.page(`/reading-lists/${LIST}`);
    expect($("h1").text()).toBe("Leading Through Reorganization");
    const items = listItems($);
    expect(items.length).toBe(5);
    expect(items.map((i) => i.number)).toEqual(["1", "2", "3", "4", "5"]);
    for (const href of $("main ol > li h2 a")
      .map((_, a) => $(a).attr("href"))
      .get())
      expect(href).toMatch(new RegExp(`^/\\d{4}/\\d{2}/[a-z0-9-]+\\?list=${LIST}$`));
    expect($("main").text()).not.toContain("for subscribers");
    // Related lists link to their own pages; the one sharing an article comes first.
    const related = $("main h2:contains('Related reading lists')")
      .closest("section")
      .find("a")
      .map((_, a) => $(a).attr("href"))
      .get();
    expect(related.length).toBe(3);
    expect(related[0]).toBe("/reading-lists/your-first-years-as-a-manager");
    expect(related).not.toContain(`/reading-lists/${LIST}`);
  });

  it("gives a guest and a registered reader the list's opening only, and nothing of the rest, in the page or its data", async () => {
    const rest = whole.slice(PREVIEW);
    expect(rest.length).toBeGreaterThan(0);
    for (const reader of [new Reader(server.url), await registeredReader(server.url)]) {
      const res = await reader.request(`/reading-lists/${LIST}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("private, no-cache");
      const html = await res.text();
      const $ = cheerio.load(html);
      expect(listItems($).map((i) => i.title)).toEqual(whole.slice(0, PREVIEW).map((i) => i.title));
      expect($("main").text()).toContain(`${rest.length} more articles complete this list for subscribers.`);
      expect($("main a[href='/subscriptions']").text()).toBe("Subscribe");
      // What the dialog loads with a fetcher: the same route's data.
      const data = await (await reader.request(`/reading-lists/${LIST}.data`)).text();
      expect(data).toContain(whole[0]!.title);
      for (const item of rest) {
        for (const body of [html, data]) {
          expect(body).not.toContain(item.title);
          expect(body).not.toContain(item.path);
        }
      }
    }
  });

  it("answers 404 for a list that does not exist, or an address no list could have", async () => {
    for (const path of ["/reading-lists/no-such-list", "/reading-lists/Leading%20Through", "/reading-lists/no-such-list.data"]) {
      expect((await fetch(server.url + path)).status, path).toBe(404);
    }
  });

  it("is listed on the index with its size", async () => {
    const $ = cheerio.load(await (await fetch(`${server.url}/reading-lists`)).text());
    const entry = $(`main a[href='/reading-lists/${LIST}']`).closest("li");
    expect(entry.find("h2").text()).toBe("Leading Through Reorganization");
    expect(entry.text()).toContain("5 articles");
  });
});

describe("an article read within a list", () => {
  it("shows a reader without a subscription the list's opening and the article they read, numbered in place", async () => {
    const fifth = whole[4]!;
    const $ = await new Reader(server.url).page(`${fifth.path}?list=${LIST}`);
    const overlay = $("[data-reading-list]");
    expect(overlay.length).toBe(1);
    const shown = overlay
      .find("ol > li")
      .map((_, li) => ({ value: $(li).attr("value"), text: $(li).text() }))
      .get();
    expect(shown).toEqual([
      ...whole.slice(0, PREVIEW).map((item, i) => ({ value: String(i + 1), text: item.title })),
      { value: "5", text: fifth.title },
    ]);
    expect(overlay.text()).toContain("1 more article for subscribers");
    expect($.html()).not.toContain(whole[3]!.path);
  });

  it("with the reading-list paywall, shows the list with the wall, open", async () => {
    const $ = await withoutCookies(`${whole[0]!.path}?list=${LIST}`);
    const wallArea = $("#article-body");
    expect(wallArea.find("#paywall").length).toBe(1);
    expect($(".paywalled-content").length).toBe(0);
    const overlay = wallArea.find("[data-reading-list]");
    expect(overlay.length).toBe(1);
    expect(overlay.attr("open")).toBeDefined();
    expect(overlay.find("[aria-current='page']").text()).toBe(whole[0]!.title);
    // Without the list, the wall stands alone.
    const plain = await withoutCookies(whole[0]!.path);
    expect(plain("#paywall").length).toBe(1);
    expect(plain("[data-reading-list]").length).toBe(0);
  });

  it("links THIS ARTICLE APPEARS IN to each list's own page", async () => {
    const shared = whole.find((item) => item.title === "The Calibration Meeting Is Where Talent Gets Decided");
    expect(shared).toBeDefined();
    const $ = await new Reader(server.url).page(shared!.path);
    const aside = $("aside[aria-label='Related']");
    expect(aside.find("h2").first().text()).toBe("THIS ARTICLE APPEARS IN");
    expect(
      aside
        .find("a[href^='/reading-lists/']")
        .map((_, a) => $(a).attr("href"))
        .get()
        .sort(),
    ).toEqual(["/reading-lists/leading-through-reorganization", "/reading-lists/your-first-years-as-a-manager"]);
  });
});
