import fs from "node:fs";
import path from "node:path";
import * as cheerio from "cheerio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_ADD_TO_CART_REFERRAL } from "~/server/store/links";
import { Reader } from "~/tests/helpers/reader";
import { availableDateOnServer, specDay } from "~/tests/helpers/seed-dates";
import { startBuiltServer, type RunningServer } from "~/tests/helpers/server";
import { isolatedConnection, type IsolatedConnection } from "~/tests/helpers/test-db";

// The store's catalogue pages against the production build: /store with its filters and pages,
// every product page reached from it, the short and /an/ product links, and bad addresses.

interface SeedProduct {
  slug: string;
  title: string;
  productType: string;
  availabilities: {
    format: string;
    status: "A" | "F";
    lineType: string;
    availableDate?: string | { daysAfterSeeding: number };
    permissionsAvailable: boolean;
    volumePricing: boolean;
  }[];
}
const seed = (JSON.parse(fs.readFileSync(path.resolve("content/store.json"), "utf8")) as { products: SeedProduct[] }).products;

let database: IsolatedConnection;
let server: RunningServer;
/** Machines at the Table's hardcover (availability ids are given in file order from 1001), and the day it goes on sale, days after seeding. */
const MACHINES_HARDCOVER = 1016;
let machinesDay: string;
const pages = new Map<string, cheerio.CheerioAPI>();
const failures: string[] = [];

async function get(p: string) {
  const res = await fetch(server.url + p);
  return { status: res.status, $: cheerio.load(await res.text()), landed: new URL(res.url).pathname + new URL(res.url).search };
}

/** Crawls /store and whatever store and product pages it links to. */
async function crawlStore() {
  const queue = ["/store"];
  const seen = new Set(queue);
  while (queue.length > 0) {
    const p = queue.shift()!;
    const { status, $ } = await get(p);
    if (status !== 200) {
      failures.push(`${p} -> ${status}`);
      continue;
    }
    pages.set(p, $);
    $("main a[href]").each((_, a) => {
      const url = new URL($(a).attr("href")!, server.url + p);
      const target = url.pathname + url.search;
      if (url.origin === server.url && /^\/(store|product\/)/.test(url.pathname) && !seen.has(target)) {
        seen.add(target);
        queue.push(target);
      }
    });
  }
}

beforeAll(async () => {
  database = await isolatedConnection("store-catalogue");
  server = await startBuiltServer({}, "production", database);
  machinesDay = await availableDateOnServer(database, MACHINES_HARDCOVER);
  await crawlStore();
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

const productPages = () => [...pages.entries()].filter(([p]) => /^\/product\/[a-z0-9-]+\/\d+(\?|$)/.test(p));
const canonicalProductPages = () => productPages().filter(([p]) => !p.includes("?"));
const pageOf = (slug: string) => canonicalProductPages().filter(([p]) => p.startsWith(`/product/${slug}/`));

describe("crawling the store", () => {
  it("reaches every availability of every product from /store, all answering 200", () => {
    expect(failures).toEqual([]);
    const expected = seed.reduce((n, p) => n + p.availabilities.length, 0);
    expect(canonicalProductPages()).toHaveLength(expected);
    for (const product of seed) expect(pageOf(product.slug), product.slug).toHaveLength(product.availabilities.length);
  });

  it("gives each page a title, one h1 and a canonical link", () => {
    for (const [p, $] of pages) {
      expect($("title").text(), p).toMatch(/\| Meridian Review$/);
      expect($("h1").length, p).toBe(1);
      expect($('link[rel="canonical"]').attr("href"), p).toMatch(new RegExp(`^${server.url}/(store|product/)`));
    }
    const titles = canonicalProductPages().map(([, $]) => $("title").text());
    expect(new Set(titles).size).toBe(titles.length);
  });

  it("has no internal link that fails to resolve", async () => {
    const links = new Set<string>();
    for (const [p, $] of pages) {
      $("a[href]").each((_, a) => {
        const href = $(a).attr("href")!;
        if (href.startsWith("mailto:") || href.startsWith("#")) return;
        const url = new URL(href, server.url + p);
        if (url.origin === server.url) links.add(($(a).attr("rel") ?? "").includes("nofollow") ? url.pathname : url.pathname + url.search);
      });
    }
    const broken: string[] = [];
    for (const link of links) {
      const res = await fetch(server.url + link);
      if (res.status !== 200) broken.push(`${link} -> ${res.status}`);
    }
    expect(broken).toEqual([]);
  }, 120_000);
});

describe("/store", () => {
  it("is in the pages sitemap with every product page", async () => {
    const $ = cheerio.load(await (await fetch(`${server.url}/sitemaps/pages.xml`)).text(), { xml: true });
    const locs = $("loc")
      .map((_, el) => $(el).text())
      .get();
    expect(locs).toContain(`${server.url}/store`);
    for (const [p] of canonicalProductPages()) expect(locs).toContain(server.url + p);
  });

  it("lists eight products a page with numbered pagination alone, and filters by type and topic", async () => {
    const first = pages.get("/store")!;
    expect(first("main ol > li article").length).toBe(8);
    expect(first("nav[aria-label=Pagination] a[aria-current=page]").text()).toBe("1");
    expect(first("main p[role=status]").text()).toBe(`${seed.length} products`);
    for (const [p, $] of pages) if (p.startsWith("/store")) expect($("main").text(), p).not.toContain("Load more items");
    const books = (await get("/store?type=book")).$;
    const bookTitles = books("main ol > li h3")
      .map((_, h) => books(h).text())
      .get();
    expect(bookTitles.sort()).toEqual(
      seed
        .filter((p) => p.productType === "Book")
        .map((p) => p.title)
        .sort(),
    );
    const strategy = (await get("/store?topic=strategy")).$;
    expect(strategy("main ol > li article").length).toBeGreaterThan(1);
    strategy("main ol > li article").each((_, a) => expect(strategy(a).find("p").first().text()).toContain("Strategy"));
    expect(strategy("select[name=topic] option[selected]").attr("value")).toBe("strategy");
  });

  it("shows a coming-soon product's date in the spec's format on its card", () => {
    const cards = [...pages.values()].flatMap(($) =>
      $("main ol > li article")
        .map((_, a) => $(a).text())
        .get(),
    );
    expect(cards.some((text) => text.includes("Machines at the Table") && text.includes(`Available ${specDay(machinesDay)}`))).toBe(true);
  });

  it("answers 404, not 500, for an unknown type, topic or format and a page past the end; junk is sent to the canonical address", async () => {
    for (const p of [
      "/store?type=spaceships",
      "/store?topic=no-such-topic",
      "/store?format=vinyl",
      "/store?page=99",
      "/store?type=book&page=2",
    ]) {
      expect((await get(p)).status, p).toBe(404);
    }
    for (const [p, to] of [
      ["/store?page=abc&loaded=-3", "/store"],
      ["/store?type=&topic=", "/store"],
      ["/store?sort=cheapest&q=%25%27%22%3C", "/store?q=%25%27%22%3C"],
      ["/store?loaded=2&referral=03069", "/store?referral=03069"],
    ]) {
      const res = await fetch(server.url + p, { redirect: "manual" });
      expect(res.status, p).toBe(302);
      expect(res.headers.get("location"), p).toBe(to);
    }
    const odd = await get("/store?q=%25%27%22%3C");
    expect(odd.status).toBe(200);
    expect(odd.$("main").text()).toContain("No products match these choices.");
  });
});

/** The address the store's form sends without JavaScript, as a browser builds it, with some fields changed. */
function formAddress($: cheerio.CheerioAPI, changes: Record<string, string>): string {
  const form = $("main form[aria-label='Filter products']");
  expect(form.attr("method")).toBe("get");
  const params = new URLSearchParams();
  form.find("input[name], select[name]").each((_, el) => {
    const field = $(el);
    const name = field.attr("name")!;
    const options = field.find("option");
    let value =
      el.tagName === "select"
        ? (options.filter("[selected]").attr("value") ?? options.first().attr("value")!)
        : (field.attr("value") ?? "");
    if (name in changes) {
      value = changes[name]!;
      // A select can only send what it offers.
      if (el.tagName === "select") expect(options.filter((_, o) => $(o).attr("value") === value).length, `${name}=${value}`).toBe(1);
    }
    params.append(name, value);
  });
  return `${form.attr("action")}?${params}`;
}

/** Sends a form's address as a browser does: to the canonical address it is sent on to, then that page. */
async function submit(address: string) {
  const sent = await fetch(server.url + address, { redirect: "manual" });
  expect(sent.status, address).toBe(302);
  const landed = sent.headers.get("location")!;
  const page = await get(landed);
  expect(page.status, landed).toBe(200);
  return { ...page, landed };
}

const cardPrices = ($: cheerio.CheerioAPI) =>
  $("main ol > li article")
    .map((_, a) => Number(/\$(\d+\.\d{2})/.exec($(a).text())![1]))
    .get();
const cardTitles = ($: cheerio.CheerioAPI) =>
  $("main ol > li h3")
    .map((_, h) => $(h).text())
    .get();

describe("choosing in /store's one GET form, and paging with plain links", () => {
  it("filters by format and sorts by price, each page a real address, the pager's links keeping the choices", async () => {
    const store = pages.get("/store")!;
    const formats = store("main select[name=format] option")
      .map((_, o) => store(o).text())
      .get();
    expect(formats).toEqual(["All formats", "Bundle", "Ebook", "Hardcover", "HTML", "Paperback", "PDF", "Slides", "Spreadsheet"]);
    const { $, landed } = await submit(formAddress(store, { format: "pdf", sort: "price-low" }));
    expect(landed).toBe("/store?format=pdf&sort=price-low");
    const pdfCount = seed.filter((p) => p.availabilities.some((a) => a.format === "PDF")).length;
    expect($("main p[role=status]").text()).toBe(`${pdfCount} products`);
    expect($("main select[name=format] option[selected]").attr("value")).toBe("pdf");
    expect($("main select[name=sort] option[selected]").attr("value")).toBe("price-low");
    expect($('link[rel="canonical"]').attr("href")).toBe(`${server.url}/store?format=pdf&sort=price-low`);
    expect($('meta[name="robots"]').attr("content")).toBe("noindex, follow");
    expect($("nav[aria-label='Product types'] a:contains('Book')").first().attr("href")).toBe("/store?type=book&format=pdf&sort=price-low");

    // Through every page by its Next link: all PDFs, cheapest first, each once.
    let page = $;
    const prices = [...cardPrices(page)];
    const titles = [...cardTitles(page)];
    const visited = [landed];
    for (let next = page("a[rel=next]").attr("href"); next; next = page("a[rel=next]").attr("href")) {
      visited.push(next);
      const res = await get(next);
      expect(res.status, next).toBe(200);
      page = res.$;
      prices.push(...cardPrices(page));
      titles.push(...cardTitles(page));
    }
    expect(visited).toEqual(["/store?format=pdf&sort=price-low", "/store?format=pdf&sort=price-low&page=2"]);
    expect(new Set(titles).size).toBe(pdfCount);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    expect(page("a[rel=prev]").attr("href")).toBe("/store?format=pdf&sort=price-low");
  });

  it("sorts by title and from dearest, and searches keywords within the other choices", async () => {
    const store = pages.get("/store")!;
    const byTitle = await submit(formAddress(store, { sort: "title" }));
    expect(byTitle.landed).toBe("/store?sort=title");
    const firstTitles = cardTitles(byTitle.$);
    expect(firstTitles).toEqual([...firstTitles].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1)));
    expect(firstTitles[0]).toBe(seed.map((p) => p.title).sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1))[0]);

    const dearest = await submit(formAddress(store, { sort: "price-high" }));
    expect(cardPrices(dearest.$)[0]).toBe(79);

    const books = await submit(formAddress(store, { type: "book", q: "  Ledger " }));
    expect(books.landed).toBe("/store?type=book&q=Ledger");
    expect(cardTitles(books.$)).toEqual([seed.find((p) => p.slug === "the-patient-ledger")!.title]);
    expect(books.$("main p[role=status]").text()).toBe("1 product matching “Ledger”");
    expect(books.$("main input[name=q]").attr("value")).toBe("Ledger");
    expect(books.$("title").text()).toBe("Store: Book matching “Ledger” | Meridian Review");

    const none = await submit(formAddress(books.$, { type: "toolkit" }));
    expect(none.landed).toBe("/store?type=toolkit&q=Ledger");
    expect(none.$("main ol").length).toBe(0);
    expect(none.$("main").text()).toContain("No products match these choices.");
    expect(none.$("main a:contains('Clear all choices')").attr("href")).toBe("/store");
    expect(none.$("nav[aria-label=Pagination]").length).toBe(0);
  });
});

describe("product pages", () => {
  it("offers every format as a choice beside the price, the current one marked, and lists their details", () => {
    for (const [p, $] of canonicalProductPages()) {
      const rows = $("main table:has(th:contains('Line type')) tbody tr");
      const product = seed.find((s) => p.startsWith(`/product/${s.slug}/`))!;
      expect(rows.length, p).toBe(product.availabilities.length);
      const choice = $("section[aria-labelledby=buy-heading] nav[aria-label=Formats] a");
      // A product sold in one format has nothing to choose.
      expect(choice.length, p).toBe(product.availabilities.length > 1 ? product.availabilities.length : 0);
      expect(choice.filter("[aria-current=page]").attr("href"), p).toBe(product.availabilities.length > 1 ? p : undefined);
      expect(rows.filter("[aria-current=true]").length, p).toBe(1);
      rows.each((i, row) => {
        const text = $(row).text();
        const a = product.availabilities[i]!;
        expect(text, p).toContain(a.format);
        expect(text, p).toMatch(/\$\d+\.\d{2}/);
        expect(text, p).toContain(a.status === "F" ? "Available " : "In stock");
      });
    }
  });

  it("hides download details for shipped and bundle lines, and offers them for digital ones", () => {
    for (const [p, $] of canonicalProductPages()) {
      const product = seed.find((s) => p.startsWith(`/product/${s.slug}/`))!;
      const formats = $("section[aria-labelledby=formats-heading] table tbody tr");
      const current = product.availabilities[formats.index(formats.filter("[aria-current=true]"))]!;
      const shows = $("main").text().includes("Download after purchase");
      expect(shows, p).toBe(current.lineType !== "SHIP" && current.lineType !== "BUNDLE");
    }
  });

  it("offers a coming-soon item's date and a Pre-order button", () => {
    const [p, $] = pageOf("machines-at-the-table")[0]!;
    expect($("main").text(), p).toContain(`Available ${specDay(machinesDay)}`);
    expect($("main form[action='/shopping-cart'] button[type=submit]").first().text()).toBe("Pre-order");
  });

  it("posts the spec's cart-add fields, a permissions form where available, and a volume pricing table", () => {
    // Its add forms, not "Better together"'s, which adds several at once.
    const ADD_FORMS = "main form[action='/shopping-cart']:has(input[name=intent][value=add])";
    /** The inputs of the page's nth add-to-cart form, by name. */
    const fields = ($: cheerio.CheerioAPI, n: number) =>
      Object.fromEntries(
        $(ADD_FORMS)
          .eq(n)
          .find("input")
          .map((_, i) => [[$(i).attr("name"), $(i).attr("value")]])
          .get(),
      );
    const [, $] = pageOf("harrow-and-vane-textiles")[0]!;
    expect($(ADD_FORMS).length).toBe(2);
    const item = fields($, 0);
    expect(item).toMatchObject({ intent: "add", type: "Digital", quantity: "1", format: "PDF", referral: DEFAULT_ADD_TO_CART_REFERRAL });
    expect(item.productUrl).toMatch(/^\/product\/harrow-and-vane-textiles\/\d+$/);
    expect(item.productId).toBe(item.productUrl.split("/").pop());
    expect(fields($, 1)).toMatchObject({ type: "Perm", productPrice: "1.50", quantity: "1" });
    expect($("main label:contains('Number of copies')").length).toBe(1);
    // A digital case study is sold one to a customer: no volume tier can be reached, so none is shown.
    expect($("main table:has(caption:contains('Volume pricing'))").length).toBe(0);

    const [, ledger] = pageOf("the-patient-ledger")[0]!;
    expect(fields(ledger, 0)).toMatchObject({ type: "Ship", quantity: "1" });
    expect(ledger("main form input[name=quantity]:not([type=hidden])").length).toBe(1);
    expect(ledger("main form input[value=Perm]").length).toBe(0);
  });

  it("carries a numeric referral from its own address into the add form, else the default", async () => {
    const [p] = pageOf("the-patient-ledger")[0]!;
    const referral = async (query: string) => (await get(`${p}${query}`)).$("main form input[name=referral]").first().attr("value");
    expect(await referral("?referral=03069")).toBe("03069");
    expect(await referral("?referral=03069x")).toBe(DEFAULT_ADD_TO_CART_REFERRAL);
    expect(await referral("")).toBe(DEFAULT_ADD_TO_CART_REFERRAL);
  });

  it("describes the product with JSON-LD Product offers and Open Graph", () => {
    const [p, $] = pageOf("lines-of-flow")[0]!;
    const ld = JSON.parse($('script[type="application/ld+json"]').text());
    expect(ld["@type"]).toBe("Product");
    expect(ld.name).toBe($("h1").text());
    expect(ld.offers).toHaveLength(4);
    expect(ld.offers[0]).toMatchObject({
      "@type": "Offer",
      priceCurrency: "USD",
      price: "35.00",
      availability: "https://schema.org/InStock",
      url: server.url + p,
    });
    expect($('meta[property="og:type"]').attr("content")).toBe("product");
    expect($('meta[property="og:url"]').attr("content")).toBe(server.url + p);
    const [, soon] = pageOf("machines-at-the-table")[0]!;
    expect(JSON.parse(soon('script[type="application/ld+json"]').text()).offers[0]).toMatchObject({
      availability: "https://schema.org/PreOrder",
      availabilityStarts: machinesDay,
    });
  });
});

describe("short and /an/ product links", () => {
  it("moves /product/{id} to the page of the first availability on sale with 301", async () => {
    const res = await fetch(`${server.url}/product/1?referral=02749`, { redirect: "manual" });
    expect(res.status).toBe(301);
    expect(new URL(res.headers.get("location")!, server.url).pathname + new URL(res.headers.get("location")!, server.url).search).toBe(
      `${pageOf(seed[0]!.slug)[0]![0]}?referral=02749`,
    );
  });

  it("opens the product page from the /an/ form of its address", async () => {
    const [p, $] = pageOf("quiet-authority")[1]!;
    const { status, landed, $: an } = await get(`${p}/an/?referral=03069`);
    expect(status).toBe(200);
    expect(landed).toBe(`${p}?referral=03069`);
    expect(an("h1").text()).toBe($("h1").text());
  });

  it("answers 404, not 500, for unknown, mismatched and malformed product addresses", async () => {
    const [ledger] = pageOf("the-patient-ledger")[0]!;
    const quietId = pageOf("quiet-authority")[0]![0].split("/").pop();
    for (const p of [
      "/product/99999",
      "/product/0",
      "/product/not-a-number",
      `/product/${"9".repeat(30)}`,
      "/product/no-such-product/1001",
      `/product/the-patient-ledger/${quietId}`,
      "/product/the-patient-ledger/abc",
      `/product/the-patient-ledger/${"1".repeat(40)}`,
      "/product/The-Patient-Ledger/1001",
      `${ledger}/an/`.replace("the-patient-ledger", "quiet-authority"),
      "/product/%00/1001",
    ]) {
      const { status, $ } = await get(p);
      expect(status, p).toBe(404);
      expect($("h1").text(), p).toBe("Page not found");
    }
  });
});

describe("the article promo", () => {
  it("offers a product with a View Details link in its /an/ form that opens the product page", async () => {
    const latest = (await get("/the-latest")).$;
    const article = latest("main ol article h3 a").first().attr("href")!;
    // A reader whose browser keeps the visitor cookie reads the article, promo and all.
    const $ = await new Reader(server.url).page(article);
    const promo = $("#article-body aside[aria-label='From the store']");
    const link = promo.find("a:contains('View Details')");
    expect(link.attr("href")).toMatch(/^\/product\/[a-z0-9-]+\/\d+\/an\/$/);
    const { status, landed, $: product } = await get(link.attr("href")!);
    expect(status).toBe(200);
    expect(landed).toBe(link.attr("href")!.replace(/\/an\/$/, ""));
    expect(promo.text()).toContain(product("h1").text());
  });
});
