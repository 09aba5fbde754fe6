import * as cheerio from "cheerio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDnsServer, type DnsServer } from "~/tests/helpers/dns-server";
import { PNG_RGB, pngHeader } from "~/tests/helpers/png";
import { Reader, registeredReader, subscribe } from "~/tests/helpers/reader";
import { startBuiltServer, type RunningServer } from "~/tests/helpers/server";
import { jsonLdOfType, structuredDataProblems } from "~/tests/helpers/structured-data";

// What search engines read of the pages besides their text: schema.org JSON-LD of the types and
// with the properties Google documents (tests/helpers/structured-data.ts), every address in it
// answering, and the paywalled part of an article named only where the page holds it.

const CRAWLER_IP = "66.249.66.1";
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

let server: RunningServer;
let dns: DnsServer;

beforeAll(async () => {
  dns = await startDnsServer({
    ptr: { "1.66.249.66.in-addr.arpa": ["crawl-66-249-66-1.googlebot.com"] },
    a: { "crawl-66-249-66-1.googlebot.com": [CRAWLER_IP] },
  });
  server = await startBuiltServer({ CRAWLER_FULL_TEXT: "1", CRAWLER_DNS_SERVERS: dns.address, CLIENT_IP_HEADER: "x-forwarded-for" });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await dns?.close();
});

const guest = () => new Reader(server.url);
const firstLink = async (from: string, pattern: RegExp) => {
  const $ = await guest().page(from);
  const href = $("main a[href]")
    .map((_, a) => $(a).attr("href"))
    .get()
    .find((h: string) => pattern.test(h));
  expect(href, `a link matching ${pattern} on ${from}`).toBeDefined();
  return href as string;
};

async function png(url: string): Promise<ReturnType<typeof pngHeader>> {
  const res = await fetch(url);
  expect([res.status, res.headers.get("content-type")], url).toEqual([200, "image/png"]);
  return pngHeader(Buffer.from(await res.arrayBuffer()));
}

describe("the home page", () => {
  it("describes the site as a WebSite with a SearchAction whose address template searches it", async () => {
    const site = jsonLdOfType(await guest().page("/"), "WebSite");
    expect(structuredDataProblems(site, server.url)).toEqual([]);
    expect(site).toMatchObject({ name: "Meridian Review", url: `${server.url}/` });
    const action = site.potentialAction as { "@type": string; target: { urlTemplate: string }; "query-input": string };
    expect(action["@type"]).toBe("SearchAction");
    expect(action["query-input"]).toBe("required name=search_term_string");
    expect(action.target.urlTemplate).toContain("{search_term_string}");
    const search = new URL(action.target.urlTemplate.replace("{search_term_string}", "strategy"));
    expect(search.origin).toBe(server.url);
    const results = await guest().page(search.pathname + search.search);
    expect(results("main").text()).toContain("Results for “strategy”");
    expect(results("main a[href^='/product/'], main a[href^='/archive-toc/'], main a[href^='/20']").length).toBeGreaterThan(0);
  });
});

describe("an article", () => {
  it("is a NewsArticle with dateModified, and among its images a PNG of at least 1200 pixels across", async () => {
    const $ = await guest().page(await firstLink("/the-latest", /^\/\d{4}\/\d{2}\//));
    const article = jsonLdOfType($, "NewsArticle");
    expect(structuredDataProblems(article, server.url)).toEqual([]);
    expect(article.dateModified! >= article.datePublished!).toBe(true);
    const pngs = (article.image as string[]).filter((u) => u.endsWith(".png"));
    expect(pngs).toHaveLength(1);
    expect(await png(pngs[0]!)).toMatchObject({ width: 1200, colourType: PNG_RGB });
  });
});

describe("an article's paywalled part", () => {
  /** The article's JSON-LD part and what its selector picks out of the page. */
  const gatedPart = ($: cheerio.CheerioAPI) => {
    const article = jsonLdOfType($, "NewsArticle");
    const part = article.hasPart as { isAccessibleForFree: boolean; cssSelector: string } | undefined;
    return { article, part, picked: part ? $(part.cssSelector) : null };
  };
  let path: string;
  beforeAll(async () => {
    path = await firstLink("/the-latest", /^\/\d{4}\/\d{2}\//);
  });

  it("is named by a selector that picks out the gated text wherever the page serves it: a guest with reads left, a subscriber, a verified crawler", async () => {
    const crawler = await fetch(server.url + path, { headers: { "User-Agent": GOOGLEBOT, "X-Forwarded-For": CRAWLER_IP } });
    const readers: [string, cheerio.CheerioAPI][] = [
      ["a guest with reads left", await guest().page(path)],
      ["a subscriber", await (await subscribe(await registeredReader(server.url))).page(path)],
      ["a verified crawler", cheerio.load(await crawler.text())],
    ];
    const texts = new Set<string>();
    for (const [who, $] of readers) {
      expect($("[data-wall]"), who).toHaveLength(0);
      const { article, part, picked } = gatedPart($);
      expect(article.isAccessibleForFree, who).toBe(false);
      expect(part, who).toMatchObject({ "@type": "WebPageElement", isAccessibleForFree: false });
      expect(picked!.length, `${who}: elements ${part!.cssSelector} picks`).toBe(1);
      expect(picked!.closest("#article-body").length, who).toBe(1);
      const text = picked!.text().replace(/\s+/g, " ").trim();
      expect(text.length, who).toBeGreaterThan(500);
      texts.add(text);
    }
    // The same text for all three: the part after the preview, whole.
    expect(texts.size).toBe(1);
  });

  it("is not claimed where the wall stands in its place", async () => {
    const robot = await fetch(server.url + path, { headers: { "User-Agent": "curl/8.5.0" } });
    const $ = cheerio.load(await robot.text());
    expect($("[data-wall]")).toHaveLength(1);
    const { article, part } = gatedPart($);
    expect(article.isAccessibleForFree).toBe(false);
    expect(part).toBeUndefined();
    expect(structuredDataProblems(article, server.url)).toEqual([]);
  });
});

describe("a product", () => {
  it("is a Product whose image is a PNG of its cover, at least 500 pixels each side, in RGB", async () => {
    const $ = await guest().page(await firstLink("/store", /^\/product\//));
    const product = jsonLdOfType($, "Product");
    expect(structuredDataProblems(product, server.url)).toEqual([]);
    const [image] = product.image as string[];
    const header = await png(image!);
    expect(header.width).toBeGreaterThanOrEqual(500);
    expect(header.height).toBeGreaterThanOrEqual(500);
    expect(header.colourType).toBe(PNG_RGB);
  });
});

describe("the magazine", () => {
  it("is a Periodical listing each issue a year's page shows, as a PublicationIssue at that issue's page", async () => {
    for (const page of ["/magazine", "/magazine?year=1987"]) {
      const $ = await guest().page(page);
      const magazine = jsonLdOfType($, "Periodical");
      expect(structuredDataProblems(magazine, server.url), page).toEqual([]);
      expect(magazine).toMatchObject({ name: "Meridian Review", url: `${server.url}/magazine`, startDate: "1956" });
      const issues = magazine.hasPart as { "@type": string; url: string }[];
      const shown = [
        ...new Set(
          $("main a[href^='/archive-toc/']")
            .map((_, a) => `${server.url}${$(a).attr("href")}`)
            .get(),
        ),
      ];
      expect(issues.map((i) => i.url).sort(), page).toEqual(shown.sort());
      expect(new Set(issues.map((i) => i["@type"]))).toEqual(new Set(["PublicationIssue"]));
    }
  });

  it("describes an issue as a PublicationIssue of the Periodical, with the articles of it the site has", async () => {
    const path = await firstLink("/magazine", /^\/archive-toc\//);
    const $ = await guest().page(path);
    const issue = jsonLdOfType($, "PublicationIssue");
    expect(structuredDataProblems(issue, server.url)).toEqual([]);
    expect(issue).toMatchObject({
      issueNumber: path.split("/").pop(),
      name: $("h1").text(),
      url: server.url + path,
      isPartOf: { "@type": "Periodical", url: `${server.url}/magazine` },
    });
    const linked = $("main ol a")
      .map((_, a) => `${server.url}${$(a).attr("href")}`)
      .get();
    expect((issue.hasPart as { url: string }[]).map((a) => a.url)).toEqual(linked);
  });
});
