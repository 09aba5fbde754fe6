import fs from "node:fs";
import path from "node:path";
import * as cheerio from "cheerio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chartData, type ChartData } from "~/server/images/charts/data";
import { chartSvg } from "~/server/images/charts/render";
import { svgToPng } from "~/server/images/raster";
import { pngSize } from "~/tests/helpers/png";
import { Reader, registeredReader, subscribe } from "~/tests/helpers/reader";
import { startBuiltServer, type RunningServer } from "~/tests/helpers/server";

// Gifting, notes and subscriber downloads against the production build, as a browser, a script
// or a forger meets them: who may do what, what bad input gets, and that a refused request
// changes nothing.

const GIFTS_PER_MONTH = 5;
let server: RunningServer;

beforeAll(async () => {
  server = await startBuiltServer({
    RATE_LIMIT_PER_IP: "100000",
    RATE_LIMIT_PER_ACCOUNT: "1000",
    GIFTS_PER_MONTH: String(GIFTS_PER_MONTH),
  });
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

/** The service API's gift call (JSON), and the article page's gift form without JS (Post/Redirect/Get). */
const giftJson = (reader: Reader, url: string) => reader.request("/api/article-gift/give-gift", { form: { url } });
const giftForm = (reader: Reader, url: string) => reader.request("/article-gift", { form: { url } });
const registered = () => registeredReader(server.url);
const guestReader = () => new Reader(server.url);
const subscriber = async () => subscribe(await registered());

let articles: string[] = [];

async function articlePaths(): Promise<string[]> {
  if (articles.length === 0) {
    const $ = cheerio.load(await (await fetch(`${server.url}/the-latest`)).text());
    articles = $("main ol article h3 a")
      .map((_, a) => $(a).attr("href")!)
      .get();
  }
  return articles;
}

async function anArticle(index = 0): Promise<string> {
  return (await articlePaths())[index]!;
}

async function visualLibraryArticle(): Promise<string> {
  const $ = cheerio.load(await (await fetch(`${server.url}/visual-library`)).text());
  return $("main article h3 a").first().attr("href")!;
}

/** The download links on a visual-library article's page, for a subscriber. */
function chartLinks($: cheerio.CheerioAPI): { svg: string; png: string } {
  const link = (start: string) =>
    $("main a")
      .filter((_, a) => $(a).text().startsWith(start))
      .attr("href")!;
  return { svg: link("Download this chart (SVG)"), png: link("Download this chart (PNG, 2,400 × 1,350 pixels)") };
}

/** A chart's data as the content folder has it. */
const chartFile = (slug: string): ChartData =>
  JSON.parse(fs.readFileSync(path.resolve(`content/charts/${slug}.json`), "utf8")) as ChartData;

const giftsLeftText = ($: cheerio.CheerioAPI) => $("#gift [role=status]").text();

describe("gifting an article", () => {
  it("answers a script (Accept: application/json) with the link and the gifts left; the link opens the article for anyone, unindexed", async () => {
    const reader = await subscriber();
    const path = await anArticle();
    const res = await reader.request("/api/article-gift/give-gift", {
      form: { url: `${server.url}${path}` },
      headers: { Accept: "application/json" },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const body = (await res.json()) as { articleGiftURL: string; articleGiftsLeft: number };
    expect(body.articleGiftsLeft).toBe(GIFTS_PER_MONTH - 1);
    expect(body.articleGiftURL).toMatch(new RegExp(`^${server.url}${path}\\?gift=[A-Za-z0-9_-]{43}$`));

    const opened = await fetch(body.articleGiftURL);
    expect(opened.headers.get("cache-control")).toBe("no-store");
    expect(opened.headers.get("x-robots-tag")).toBe("noindex");
    const $ = cheerio.load(await opened.text());
    expect($("#article-body .paywalled-content")).toHaveLength(1);
    expect($('meta[name="robots"]').attr("content")).toContain("noindex");
    expect($("#gift")).toHaveLength(0);
  });

  it("hands a page form's link back once, in a cookie only that article's page receives", async () => {
    const reader = await subscriber();
    const path = await anArticle(1);
    expect((await reader.page(path))("#gift form").attr("action")).toBe("/article-gift");
    const res = await giftForm(reader, path);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`${path}#gift`);
    const flash = res.headers.getSetCookie().find((c) => c.startsWith("mr_gift="))!;
    expect(flash).toContain(`Path=${path}`);
    expect(flash).toMatch(/HttpOnly/i);

    const $ = await reader.page(path);
    expect($("#gift-url").attr("value")).toMatch(new RegExp(`^${server.url}${path}\\?gift=`));
    expect($("#gift-url").attr("readonly")).toBeDefined();
    expect(giftsLeftText($)).toContain(`${GIFTS_PER_MONTH - 1} gifts left this month`);
    expect(reader.cookie("mr_gift")).toBeUndefined();
    expect((await reader.page(path))("#gift-url")).toHaveLength(0);
  });

  it("shows a link handed to one reader to no one else, even with the cookie copied", async () => {
    const giver = await subscriber();
    const path = await anArticle(2);
    await giftForm(giver, path);
    const stolen = giver.cookie("mr_gift")!;
    const other = await subscriber();
    other.setCookie("mr_gift", stolen);
    const $ = await other.page(path);
    expect($("#gift-url")).toHaveLength(0);
    expect(giftsLeftText($)).toContain(`${GIFTS_PER_MONTH} gifts left this month`);
  });

  it("refuses guests (the API: 401) and readers without a subscription with 403, and takes nothing from their allowance", async () => {
    const path = await anArticle();
    const guest = guestReader();
    expect((await giftJson(guest, path)).status).toBe(401);
    expect((await giftForm(guest, path)).status).toBe(403);
    const reader = await registered();
    const json = await giftJson(reader, path);
    expect(json.status).toBe(403);
    expect(await json.json()).toEqual({ code: "not_a_subscriber", message: "This service is for subscribers." });
    const page = await giftForm(reader, path);
    expect(page.status).toBe(403);
    expect(await page.text()).toContain("Gifting articles is for subscribers.");
    expect(page.headers.getSetCookie().some((c) => c.startsWith("mr_gift="))).toBe(false);

    await subscribe(reader);
    expect(giftsLeftText(await reader.page(path))).toContain(`${GIFTS_PER_MONTH} gifts left this month`);
  });

  it("answers bad input with 4xx and takes no gift", async () => {
    const reader = await subscriber();
    const path = await anArticle();
    const missing = ["/2020/01/no-such-article", "https://evil.example" + path, "/the-latest", `${path}/../x`];
    const malformed = [undefined, "", "x".repeat(5000)];
    for (const url of [...missing, ...malformed]) {
      const form: Record<string, string> = url === undefined ? {} : { url };
      const api = await reader.request("/api/article-gift/give-gift", { form });
      expect(api.status, String(url).slice(0, 40)).toBe(missing.includes(url!) ? 404 : 400);
      expect(((await api.json()) as { code: string }).code).toBe(missing.includes(url!) ? "not_found" : "invalid_input");
      expect((await reader.request("/article-gift", { form })).status, String(url).slice(0, 40)).toBe(404);
    }
    for (const target of ["/api/article-gift/give-gift", "/article-gift"]) {
      expect((await reader.request(target, { form: { url: path }, headers: { Origin: "https://evil.example" } })).status, target).toBe(403);
      expect((await reader.request(target)).status, target).toBe(405);
    }
    expect(giftsLeftText(await reader.page(path))).toContain(`${GIFTS_PER_MONTH} gifts left this month`);
  });

  it("gives at most the month's allowance, however many posts arrive at once", async () => {
    const reader = await subscriber();
    const path = await anArticle();
    const results = await Promise.all(Array.from({ length: GIFTS_PER_MONTH + 3 }, () => giftJson(reader, path)));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([...Array(GIFTS_PER_MONTH).fill(200), 409, 409, 409]);
    const $ = await reader.page(path);
    expect(giftsLeftText($)).toContain("You have no gifts left this month.");
    expect($('#gift button[type="submit"]')).toHaveLength(0);
  });

  it("revokes only the reader's own links", async () => {
    const giver = await subscriber();
    const path = await anArticle();
    const { articleGiftURL } = (await (await giftJson(giver, path)).json()) as { articleGiftURL: string };
    const giftId = (await giver.page("/my-account/gifts"))('input[name="giftId"]').attr("value")!;

    const other = await subscriber();
    expect((await other.request("/my-account/gifts", { form: { giftId } })).status).toBe(404);
    expect((await other.request("/my-account/gifts", { form: { giftId: "not-an-id" } })).status).toBe(404);
    expect((await guestReader().request("/my-account/gifts", { form: { giftId } })).status).toBe(403);
    // A gift opens the article unmetered, and marks the page so (a fresh guest would read it on the meter anyway).
    const giftApplies = async () => (await fetch(articleGiftURL)).headers.get("x-robots-tag") === "noindex";
    expect(await giftApplies()).toBe(true);

    const revoked = await giver.request("/my-account/gifts", { form: { giftId } });
    expect(revoked.status).toBe(303);
    expect(revoked.headers.get("location")).toBe("/my-account/gifts?revoked=1");
    expect((await giver.page("/my-account/gifts?revoked=1"))('[role="status"]').text()).toBe("Gift link revoked.");
    // A replayed revoke changes nothing more.
    expect((await giver.request("/my-account/gifts", { form: { giftId } })).status).toBe(303);
    expect(await giftApplies()).toBe(false);
  });
});

describe("notes", () => {
  it("stores nothing for a reader without a subscription", async () => {
    const path = await anArticle();
    const reader = await registered();
    expect((await reader.request(path, { form: { intent: "add-note", paragraph: "0", note: "Mine" } })).status).toBe(403);
    expect((await guestReader().request(path, { form: { intent: "add-note", paragraph: "0", note: "Mine" } })).status).toBe(403);
    expect((await reader.page("/my-account/notes"))("main").text()).toContain("You have no notes yet.");
  });

  it("shows the annotations module's messages beside the field, and the form's own for a bad paragraph", async () => {
    const reader = await subscriber();
    const path = await anArticle();
    const cases: [Record<string, string>, string, string][] = [
      [{ paragraph: "0", note: "   " }, "#add-note-note-error", "Write a note before saving."],
      [{ paragraph: "0", note: "x".repeat(2001) }, "#add-note-note-error", "The note is too long: at most 2,000 characters."],
      [
        { paragraph: "0", quote: "q".repeat(501), note: "ok" },
        "#add-note-quote-error",
        "The quoted passage is too long: at most 500 characters.",
      ],
      [{ paragraph: "abc", note: "ok" }, "#add-note-paragraph-error", "Choose one of the article's paragraphs."],
      [{ paragraph: "100000", note: "ok" }, "#add-note-paragraph-error", "Choose one of the article's paragraphs."],
      [{ paragraph: "-1", note: "ok" }, "#add-note-paragraph-error", "Choose one of the article's paragraphs."],
    ];
    for (const [fields, errorId, message] of cases) {
      const res = await reader.request(path, { form: { intent: "add-note", ...fields } });
      expect(res.status, message).toBe(400);
      const $ = cheerio.load(await res.text());
      expect($(errorId).text()).toBe(message);
      expect($('[role="alert"] a').text()).toBe(message);
    }
    expect((await reader.request(path, { form: { intent: "something-else" } })).status).toBe(400);
    expect((await reader.page("/my-account/notes"))("main").text()).toContain("You have no notes yet.");
  });

  it("lets only the reader who wrote a note delete it", async () => {
    const writer = await subscriber();
    const path = await anArticle();
    const saved = await writer.request(path, {
      form: { intent: "add-note", paragraph: "2", quote: "a passage", note: "<b>Bold</b> claim" },
    });
    expect(saved.status).toBe(303);
    expect(saved.headers.get("location")).toBe(`${path}?note=added#notes`);
    const $ = await writer.page(`${path}?note=added`);
    expect($("#notes [role=status]").text()).toBe("Your note has been saved.");
    expect($("#notes li").text()).toContain("<b>Bold</b> claim");
    const noteId = $('input[name="noteId"]').attr("value")!;

    const other = await subscriber();
    expect((await other.request(path, { form: { intent: "delete-note", noteId } })).status).toBe(404);
    expect((await other.request(path, { form: { intent: "delete-note", noteId: "nope" } })).status).toBe(404);
    expect((await writer.page("/my-account/notes"))("main li").text()).toContain("<b>Bold</b> claim");

    expect((await writer.request(path, { form: { intent: "delete-note", noteId } })).status).toBe(303);
    expect((await writer.request(path, { form: { intent: "delete-note", noteId } })).status).toBe(404);
  });

  it("pages the notes list with plain links, and answers a page past the end with 404", async () => {
    const reader = await subscriber();
    const path = await anArticle();
    for (let i = 0; i < 21; i++) await reader.request(path, { form: { intent: "add-note", paragraph: "0", note: `Note ${i}` } });
    const first = await reader.page("/my-account/notes");
    expect(first("main ol > li")).toHaveLength(20);
    expect(first('nav[aria-label="Pages of notes"] a[rel="next"]').attr("href")).toBe("/my-account/notes?page=2");
    expect((await reader.page("/my-account/notes?page=2"))("main ol > li")).toHaveLength(1);
    for (const page of ["3", "0", "abc", "9999999"])
      expect((await reader.request(`/my-account/notes?page=${page}`)).status, page).toBe(404);
  });
});

describe("downloads", () => {
  it("sends guests to sign in, readers without a subscription to a 403 page, and unknown reprints to 404", async () => {
    const guest = await guestReader().request("/download/subscriber/reprint/R1");
    expect(guest.status).toBe(302);
    expect(guest.headers.get("location")).toBe(`/sign-in?redirectTo=${encodeURIComponent("/download/subscriber/reprint/R1")}`);

    const reader = await registered();
    const refused = await reader.request("/download/subscriber/reprint/R1");
    expect(refused.status).toBe(302);
    const offer = await reader.request(refused.headers.get("location")!);
    expect(offer.status).toBe(403);
    const $ = cheerio.load(await offer.text());
    expect($("h1").text()).toBe("Subscribers only");
    expect($('main a[href="/subscriptions"]')).toHaveLength(1);

    const sub = await subscriber();
    for (const id of ["R999999", "R0", "1", "R1x", "R01"])
      expect((await sub.request(`/download/subscriber/reprint/${id}`)).status, id).toBe(404);
  });

  it("gives a subscriber the reprint as a private PDF attachment", async () => {
    const reader = await subscriber();
    const path = await anArticle();
    const link = (await reader.page(path))('a:contains("Download PDF reprint")').attr("href")!;
    expect(link).toMatch(/^\/download\/subscriber\/reprint\/R\d+$/);
    const res = await reader.request(link);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${path.split("/").pop()}.pdf"`);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(
      Buffer.from(await res.arrayBuffer())
        .subarray(0, 5)
        .toString("latin1"),
    ).toBe("%PDF-");
  });

  it("gives a visual-library chart, as SVG or PNG, only at the subscriber's own address, and only for visual-library articles", async () => {
    const reader = await subscriber();
    const path = await visualLibraryArticle();
    const slug = path.split("/").pop()!;
    const { svg, png } = chartLinks(await reader.page(path));
    expect(svg).toMatch(new RegExp(`^/visual-library/download/[^/]+/${slug}$`));
    expect(png).toBe(`${svg}.png`);
    for (const [link, type, extension] of [
      [svg, "image/svg+xml", "svg"],
      [png, "image/png", "png"],
    ] as const) {
      const res = await reader.request(link);
      expect(res.status, link).toBe(200);
      expect(res.headers.get("content-type")).toBe(type);
      expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${slug}.${extension}"`);
      expect(res.headers.get("cache-control")).toBe("private, no-store");
    }

    const other = await subscriber();
    expect((await other.request(svg)).status).toBe(403);
    expect((await other.request(png)).status).toBe(403);
    const guest = await guestReader().request(png);
    expect(guest.status).toBe(302);
    expect(guest.headers.get("location")).toBe(`/sign-in?redirectTo=${encodeURIComponent(png)}`);
    const $list = cheerio.load(await (await fetch(`${server.url}/visual-library`)).text());
    const charts = new Set(
      $list("main article h3 a")
        .map((_, a) => $list(a).attr("href")!)
        .get(),
    );
    const plain = (await articlePaths()).find((p) => !charts.has(p))!;
    const ownId = svg.split("/")[3];
    for (const asset of [plain.split("/").pop(), `${plain.split("/").pop()}.png`, "..%2F..%2Fetc", `${slug}.gif`, `${slug}.png.png`])
      expect((await reader.request(`/visual-library/download/${ownId}/${asset}`)).status, asset).toBe(404);
    expect((await reader.page(plain))('a:contains("Download this chart")')).toHaveLength(0);
  });

  it("makes the SVG download the chart itself: its title, axes, legend, and a point for every year of every series", async () => {
    const reader = await subscriber();
    const path = await visualLibraryArticle();
    const chart = chartFile(path.split("/").pop()!);
    const $ = cheerio.load(await (await reader.request(chartLinks(await reader.page(path)).svg)).text(), { xml: true });
    expect($("svg").attr("role")).toBe("img");
    expect($("svg > title").text()).toBe(`${chart.title}: ${chart.subtitle}`);
    const texts = $("text")
      .map((_, t) => $(t).text())
      .get();
    expect(texts).toContain(chart.title);
    expect(texts).toContain(chart.axes.left.label);
    if (chart.axes.right) expect(texts).toContain(chart.axes.right.label);
    expect(texts).toContain("Meridian Review");
    const years = Array.from({ length: chart.years.to - chart.years.from + 1 }, (_, i) => chart.years.from + i);
    for (const year of years) expect(texts, String(year)).toContain(String(year));
    for (const s of chart.series) {
      expect(
        texts.some((t) => t.startsWith(s.name)),
        s.name,
      ).toBe(true);
      const axis = chart.axes[s.axis]!;
      expect(
        $(`g[data-series="${s.name}"] title`)
          .map((_, t) => $(t).text())
          .get(),
        s.name,
      ).toEqual(years.map((y) => `${y}: ${s.values[String(y)]!.toFixed(axis.decimals)}${axis.unit}`));
    }
  });

  it("makes the PNG download the same chart, drawn at twice its size", async () => {
    const reader = await subscriber();
    const path = await visualLibraryArticle();
    const slug = path.split("/").pop()!;
    const png = Buffer.from(await (await reader.request(chartLinks(await reader.page(path)).png)).arrayBuffer());
    expect(pngSize(png)).toEqual({ width: 2400, height: 1350 });
    expect(png.equals(await svgToPng(chartSvg(chartData(slug)!), { width: 2400 }))).toBe(true);
  });

  it("shows the chart on the article page to every reader, with alt text saying what it shows", async () => {
    const path = await visualLibraryArticle();
    const slug = path.split("/").pop()!;
    const chart = chartFile(slug);
    const $ = await guestReader().page(path);
    const hero = $("main header img").first();
    expect(hero.attr("src")).toBe(`/art/chart/${slug}.svg`);
    expect(hero.attr("alt")).toBe(`Chart: ${chart.title}. ${chart.description}`);
    const res = await fetch(server.url + hero.attr("src")!);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/svg+xml");
    expect(res.headers.get("cache-control")).toBe("public, max-age=2592000");
    expect(await res.text()).toContain(`<title id="chart-title">`);
    for (const missing of ["/art/chart/no-such-chart.svg", `/art/chart/${slug}.png`, "/art/chart/..%2F..%2Fpackage.svg"])
      expect((await fetch(server.url + missing)).status, missing).toBe(404);

    const plain = cheerio.load(await (await fetch(server.url + (await anArticle()))).text());
    expect(plain("main header img").first().attr("src")).toMatch(/^\/art\/article\/[a-z0-9-]+\.svg$/);
  });
});
