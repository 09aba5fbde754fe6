import crypto from "node:crypto";
import * as cheerio from "cheerio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PNG_RGB, pngHeader } from "~/tests/helpers/png";
import { startBuiltServer, type RunningServer } from "~/tests/helpers/server";

let server: RunningServer;

interface Crawled {
  path: string;
  status: number;
  title: string;
  description: string | undefined;
  canonical: string | undefined;
  h1Count: number;
  noindex: boolean;
  /** How social networks show a link to the page: og:image and its tags, and twitter:card. */
  social: { image?: string; type?: string; width?: string; height?: string; alt?: string; twitterCard?: string };
}

const crawled = new Map<string, Crawled>();
const brokenLinks: string[] = [];
const MAX_PAGES = 1000;
const PAGES_AT_ONCE = 4;
// The crawl goes round as a search engine's robot does: keeping no cookies, and saying what it is.
const CRAWLER_AGENT = "Mozilla/5.0 (compatible; MeridianSiteCheck/1.0; robot; +https://meridian-review.example/bot)";

/** Breadth first, a few pages at a time, as a polite robot does. */
async function crawl(start: string) {
  const queue = [start];
  const seen = new Set(queue);
  const visit = (path: string) => crawlPage(path, queue, seen);
  while (queue.length > 0 && crawled.size < MAX_PAGES) {
    await Promise.all(queue.splice(0, PAGES_AT_ONCE).map(visit));
  }
}

async function crawlPage(path: string, queue: string[], seen: Set<string>) {
  const res = await fetch(server.url + path, { headers: { "User-Agent": CRAWLER_AGENT } });
  const type = res.headers.get("content-type") ?? "";
  if (res.status !== 200) {
    brokenLinks.push(`${path} -> ${res.status}`);
    return;
  }
  if (!type.startsWith("text/html")) return;
  // A redirect (headline topic links, say) lands on a page that is crawled under its own address.
  const landed = new URL(res.url);
  const finalPath = landed.pathname + landed.search;
  if (finalPath !== path && crawled.has(finalPath)) return;
  const $ = cheerio.load(await res.text());
  crawled.set(finalPath, {
    path: finalPath,
    status: res.status,
    title: $("title").text(),
    description: $('meta[name="description"]').attr("content"),
    canonical: $('link[rel="canonical"]').attr("href"),
    h1Count: $("h1").length,
    noindex: ($('meta[name="robots"]').attr("content") ?? "").includes("noindex"),
    social: {
      image: $('meta[property="og:image"]').attr("content"),
      type: $('meta[property="og:image:type"]').attr("content"),
      width: $('meta[property="og:image:width"]').attr("content"),
      height: $('meta[property="og:image:height"]').attr("content"),
      alt: $('meta[property="og:image:alt"]').attr("content"),
      twitterCard: $('meta[name="twitter:card"]').attr("content"),
    },
  });
  $("a[href]").each((_, a) => {
    const href = $(a).attr("href")!;
    if (href.startsWith("mailto:") || href.startsWith("#")) return;
    const url = new URL(href, server.url + path);
    if (url.origin !== server.url) return;
    // Like a search engine, do not crawl every variant of a nofollow link (the sign-in link
    // carries the page it returns to): check that its page answers, once.
    const target = ($(a).attr("rel") ?? "").includes("nofollow") ? url.pathname : url.pathname + url.search;
    if (!seen.has(target)) {
      seen.add(target);
      queue.push(target);
    }
  });
}

// A guard, not a budget: the crawl is bounded by MAX_PAGES, and a loaded machine may be slow.
beforeAll(async () => {
  server = await startBuiltServer();
  await crawl("/");
}, 900_000);

afterAll(() => server?.stop());

describe("crawling every public page from the home page", () => {
  it("reaches the page types of the site", () => {
    const paths = [...crawled.keys()];
    expect(crawled.size).toBeGreaterThan(300);
    for (const pattern of [
      /^\/$/,
      /^\/\d{4}\/\d{2}\/[a-z0-9-]+$/,
      /^\/topic\/subject\//,
      /^\/topics$/,
      /^\/the-latest/,
      /^\/big-ideas/,
      /^\/ascend/,
      /^\/webinars/,
      /^\/visual-library/,
      /^\/hbr-analytic-services/,
      /^\/magazine\?year=\d{4}$/,
      /^\/archive-toc\/(BR)?\d{4}$/,
      /^\/podcasts\/[a-z0-9-]+\/\d+-[a-z0-9-]+$/,
      /^\/search/,
    ]) {
      expect(
        paths.some((p) => pattern.test(p)),
        String(pattern),
      ).toBe(true);
    }
  });

  it("finds no broken internal links", () => {
    expect(brokenLinks).toEqual([]);
  });

  it("gives every indexable page a unique title, a description of at most 160 characters, a canonical link and one h1", () => {
    const indexable = [...crawled.values()].filter((p) => !p.noindex);
    const titles = new Map<string, { path: string; canonical: string | undefined }>();
    for (const page of indexable) {
      expect(page.description, page.path).toBeTruthy();
      expect(page.description!.length, page.path).toBeLessThanOrEqual(160);
      expect(page.canonical, page.path).toMatch(new RegExp(`^${server.url}/`));
      expect(page.h1Count, page.path).toBe(1);
      // Variants of one page (e.g. /subscriptions?ab=…) share its title and name it canonical.
      const other = titles.get(page.title);
      if (other?.canonical !== page.canonical) expect(other?.path, `${page.path} has the same title as ${other?.path}`).toBeUndefined();
      titles.set(page.title, { path: page.path, canonical: page.canonical });
    }
  });
});

describe("social previews", () => {
  it("gives every indexable page a 1200 × 630 RGB PNG card, with its type, size and alt text, and a large twitter:card", async () => {
    const indexable = [...crawled.values()].filter((p) => !p.noindex);
    const cards = new Map<string, string[]>();
    for (const page of indexable) {
      const { image, ...tags } = page.social;
      expect(tags, page.path).toEqual({
        type: "image/png",
        width: "1200",
        height: "630",
        alt: expect.stringMatching(/^Meridian Review: \S/),
        twitterCard: "summary_large_image",
      });
      const kind = new RegExp(`^${server.url}/art/card/([a-z-]+)/[A-Za-z0-9-]+\\.png$`).exec(image ?? "")?.[1];
      expect(kind, `${page.path}: og:image ${image}`).toBeDefined();
      cards.set(kind!, [...new Set([...(cards.get(kind!) ?? []), image!])]);
    }
    // Every kind of page has its own card: content by its key, the other pages by their name.
    expect([...cards.keys()].sort()).toEqual([
      "article",
      "episode",
      "issue",
      "page",
      "podcast",
      "product",
      "reading-list",
      "stream",
      "topic",
      "video",
    ]);
    // Each card the fixed pages name, and two of every other kind, as a network fetches them.
    const fetched = [...cards].flatMap(([kind, urls]) => (kind === "page" || kind === "stream" ? urls : urls.slice(0, 2)));
    for (const url of fetched) {
      const res = await fetch(url);
      expect([res.status, res.headers.get("content-type")], url).toEqual([200, "image/png"]);
      expect(pngHeader(Buffer.from(await res.arrayBuffer())), url).toEqual({ width: 1200, height: 630, bitDepth: 8, colourType: PNG_RGB });
    }
  });

  it("answers 404 for a card no page has", async () => {
    for (const path of [
      "/art/card/article/no-such-article.png",
      "/art/card/page/no-such-page.png",
      "/art/card/nothing/x.png",
      "/art/card/page/home.svg",
      "/art/card/episode/99999.png",
    ]) {
      expect((await fetch(server.url + path)).status, path).toBe(404);
    }
  });
});

describe("images", () => {
  it("loads the largest image of the home page and of an article at once and first, and the others lazily", async () => {
    const $home = cheerio.load(await (await fetch(server.url)).text());
    const images = $home("main img").toArray();
    const first = $home(images[0]);
    expect(first.attr("fetchpriority")).toBe("high");
    expect(first.attr("loading")).toBeUndefined();
    const rest = images.slice(1).map((img) => $home(img));
    expect(rest.length).toBeGreaterThan(3);
    for (const img of rest) {
      expect(img.attr("fetchpriority")).toBeUndefined();
      expect(img.attr("loading")).toBe("lazy");
    }

    const article = $home("main article h3 a").first().attr("href")!;
    const $article = cheerio.load(await (await fetch(server.url + article)).text());
    const hero = $article("main img").first();
    expect(hero.attr("alt")).toMatch(/^Abstract illustration accompanying/);
    expect(hero.attr("fetchpriority")).toBe("high");
    expect(hero.attr("loading")).toBeUndefined();
  });
});

describe("scripts", () => {
  it("asks for the page's scripts after what the first paint needs", async () => {
    const $home = cheerio.load(await (await fetch(server.url)).text());
    const preloads = $home('link[rel="modulepreload"]').toArray();
    expect(preloads.length).toBeGreaterThan(3);
    for (const link of preloads) expect($home(link).attr("fetchpriority"), $home(link).attr("href")).toBe("low");
    expect($home('link[rel="stylesheet"]').attr("fetchpriority")).toBeUndefined();
  });
});

describe("statuses and redirects", () => {
  it("redirects an article with the wrong year or month to its canonical URL with 301", async () => {
    const article = [...crawled.keys()].find((p) => /^\/\d{4}\/\d{2}\/[a-z0-9-]+$/.test(p))!;
    const [, year, month, slug] = article.split("/");
    const res = await fetch(`${server.url}/${Number(year) - 3}/${month}/${slug}`, { redirect: "manual" });
    expect(res.status).toBe(301);
    expect(new URL(res.headers.get("location")!, server.url).pathname).toBe(article);
  });

  it("answers 404 inside the site chrome for unknown articles, issues, topics and addresses", async () => {
    for (const path of [
      "/2025/01/no-such-article",
      "/archive-toc/BR9999",
      "/archive-toc/not-a-code",
      "/topic/subject/no-such-topic",
      "/topic/no-such-topic",
      "/no/such/page",
      "/the-latest?page=999",
    ]) {
      const res = await fetch(server.url + path);
      expect(res.status, path).toBe(404);
      const $ = cheerio.load(await res.text());
      expect($("h1").text(), path).toBe("Page not found");
      expect($("nav[aria-label=Sections] a").length, path).toBeGreaterThan(5);
    }
  });

  it("redirects headline topic links to the topic page", async () => {
    const res = await fetch(`${server.url}/topic/leadership-%26-managing-people`, { redirect: "manual" });
    expect(res.status).toBe(301);
    expect(res.headers.get("location")).toMatch(/\/topic\/subject\/leadership-and-managing-people$/);
  });

  it("sends the issue finder's no-JS form to the chosen issue, or the first issue of the year", async () => {
    const chosen = await fetch(`${server.url}/magazine/find?year=1987&month=2`, { redirect: "manual" });
    expect(chosen.headers.get("location")).toMatch(/\/archive-toc\/8705$/);
    const fallback = await fetch(`${server.url}/magazine/find?year=1987&month=42`, { redirect: "manual" });
    expect(fallback.headers.get("location")).toMatch(/\/archive-toc\/8701$/);
    expect((await fetch(`${server.url}/magazine/find?year=1850`, { redirect: "manual" })).status).toBe(404);
  });

  it("treats malformed paging and search input as a reader would expect, never a 500", async () => {
    expect((await fetch(`${server.url}/the-latest?page=abc&loaded=-4`)).status).toBe(200);
    expect((await fetch(`${server.url}/search?q=${"x".repeat(5000)}`)).status).toBe(200);
    expect((await fetch(`${server.url}/search?q=%25%27%22%3Cscript%3E`)).status).toBe(200);
    expect((await fetch(`${server.url}/magazine?year=1900`)).status).toBe(404);
    expect((await fetch(`${server.url}/art/article/..%2F..%2Fetc.svg`)).status).toBe(404);
    expect((await fetch(`${server.url}/preferences/text-size`)).status).toBe(405);
  });

  it("keeps the text-size preference and refuses to redirect off-site", async () => {
    const res = await fetch(`${server.url}/preferences/text-size`, {
      method: "POST",
      body: new URLSearchParams({ size: "large", redirectTo: "//evil.example/" }),
      redirect: "manual",
    });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/");
    const cookie = res.headers.get("set-cookie")!.split(";")[0]!;
    const page = await fetch(`${server.url}/topics`, { headers: { cookie } });
    expect(
      cheerio
        .load(await page.text())("html")
        .attr("data-text-size"),
    ).toBe("large");
  });
});

/** Pages that only lead back to another, and the query value that names it. */
const WAYPOINTS: Record<string, string> = { "/sign-in": "redirectTo", "/register": "redirectTo", "/menu": "return" };
const isWaypoint = (pathname: string) => Object.hasOwn(WAYPOINTS, pathname);

describe("sign-in, registration and menu pages", () => {
  it("link to one another without wrapping one in another, so a link checker finds a few of them, not ever more", async () => {
    // As a link checker goes: breadth first, every link (nofollow too), here those to these pages.
    const article = [...crawled.keys()].find((p) => /^\/\d{4}\/\d{2}\/[a-z0-9-]+$/.test(p))!;
    let level = ["/", article];
    const seen = new Set(level);
    for (let depth = 0; depth < 5 && level.length > 0; depth++) {
      const next: string[] = [];
      for (const path of level) {
        const $ = cheerio.load(await (await fetch(server.url + path)).text());
        $("a[href]").each((_, a) => {
          const url = new URL($(a).attr("href")!, server.url + path);
          const target = url.pathname + url.search;
          if (url.origin !== server.url || !isWaypoint(url.pathname) || seen.has(target)) return;
          seen.add(target);
          next.push(target);
        });
      }
      level = next;
    }
    const nested = [...seen].filter((path) => {
      const url = new URL(path, server.url);
      const back = isWaypoint(url.pathname) ? url.searchParams.get(WAYPOINTS[url.pathname]!) : null;
      return back !== null && isWaypoint(new URL(back, server.url).pathname);
    });
    expect(nested).toEqual([]);
    // The crawl ran out of new pages.
    expect(level).toEqual([]);
  });

  it("are kept out of search engines: robots.txt disallows them, and each says noindex, nofollow", async () => {
    const robots = await (await fetch(`${server.url}/robots.txt`)).text();
    const disallowed = [...robots.matchAll(/^Disallow: (\S+)$/gm)].map((m) => m[1]!);
    for (const path of ["/sign-in?redirectTo=%2Ftopics", "/register?redirectTo=%2Ftopics", "/menu?return=%2Ftopics", "/sign-in"]) {
      expect(
        disallowed.some((prefix) => path.startsWith(prefix)),
        path,
      ).toBe(true);
      const $ = cheerio.load(await (await fetch(server.url + path)).text());
      expect($('meta[name="robots"]').attr("content"), path).toBe("noindex, nofollow");
    }
  });
});

describe("crawlers and feeds", () => {
  const xml = async (url: string) => cheerio.load(await (await fetch(url)).text(), { xml: true });

  /** Every URL of the sitemap files the index lists. */
  async function sitemapLocs(): Promise<string[]> {
    const index = await xml(`${server.url}/sitemap.xml`);
    const files = index("sitemap loc")
      .map((_, el) => index(el).text())
      .get();
    expect(files).toEqual([`${server.url}/sitemaps/pages.xml`, `${server.url}/sitemaps/articles-1.xml`]);
    const locs: string[] = [];
    for (const file of files) {
      const $ = await xml(file);
      locs.push(
        ...$("loc")
          .map((_, el) => $(el).text())
          .get(),
      );
    }
    return locs;
  }

  it("lists every article and canonical page in the sitemap files, and they answer 200", async () => {
    const locs = await sitemapLocs();
    const articlesInCrawl = [...crawled.keys()].filter((p) => /^\/\d{4}\/\d{2}\/[a-z0-9-]+$/.test(p));
    for (const article of articlesInCrawl) expect(locs).toContain(server.url + article);
    expect(locs.length).toBeGreaterThan(500);
    for (const loc of locs.filter((_, i) => i % 25 === 0)) {
      expect((await fetch(loc)).status, loc).toBe(200);
    }
    expect((await fetch(`${server.url}/sitemaps/articles-2.xml`)).status).toBe(404);
    expect((await fetch(`${server.url}/sitemaps/articles-0.xml`)).status).toBe(404);
    expect((await fetch(`${server.url}/sitemaps/other.xml`)).status).toBe(404);
  });

  it("lists in the sitemap every page a crawler may index: one that answers 200, is not noindex and names itself canonical", async () => {
    const locs = new Set(await sitemapLocs());
    const indexable = [...crawled.values()].filter((p) => !p.noindex && p.canonical === server.url + p.path);
    expect(indexable.length).toBeGreaterThan(300);
    expect(indexable.map((p) => p.path).filter((path) => !locs.has(server.url + path))).toEqual([]);
  });

  it("points robots.txt at the sitemap", async () => {
    expect(await (await fetch(`${server.url}/robots.txt`)).text()).toContain(`Sitemap: ${server.url}/sitemap.xml`);
  });

  it("serves an RSS feed of the latest articles with summaries, not full text", async () => {
    const res = await fetch(`${server.url}/feeds/latest.xml`);
    expect(res.headers.get("content-type")).toContain("application/rss+xml");
    const $ = cheerio.load(await res.text(), { xml: true });
    expect($("item").length).toBeGreaterThanOrEqual(30);
    const description = $("item description").first().text();
    expect(description.length).toBeLessThan(800);
  });

  it("describes articles with JSON-LD NewsArticle and Open Graph tags", async () => {
    const article = [...crawled.keys()].find((p) => /^\/\d{4}\/\d{2}\//.test(p))!;
    const $ = cheerio.load(await (await fetch(server.url + article)).text());
    const ld = JSON.parse($('script[type="application/ld+json"]').text());
    expect(ld["@type"]).toBe("NewsArticle");
    expect(ld.headline).toBe($("h1").text());
    expect($('meta[property="og:title"]').attr("content")).toBe(ld.headline);
    expect($('meta[property="og:image"]').attr("content")).toBe(`${server.url}/art/card/article/${article.split("/").pop()}.png`);
  });

  it("shares each section and topic page with a card of its own, not its newest story's", async () => {
    const topic = [...crawled.keys()].find((p) => p.startsWith("/topic/subject/"))!;
    for (const [path, card] of [
      ["/the-latest", "/art/card/stream/the-latest.png"],
      ["/big-ideas", "/art/card/stream/big-ideas.png"],
      [topic, `/art/card/topic/${topic.split("/").pop()}.png`],
    ]) {
      const $ = cheerio.load(await (await fetch(server.url + path!)).text());
      expect($('meta[property="og:image"]').attr("content"), path).toBe(server.url + card);
      expect($('meta[property="og:image:alt"]').attr("content"), path).toBe(`Meridian Review: ${$("h1").text()}`);
    }
  });
});

describe("health endpoints", () => {
  it("say the process is alive and ready, and are never cached", async () => {
    for (const [path, body] of [
      ["/healthz", "ok\n"],
      ["/readyz", "ready\n"],
    ]) {
      const res = await fetch(server.url + path!);
      expect([res.status, await res.text()], path).toEqual([200, body]);
      expect(res.headers.get("cache-control"), path).toBe("no-store");
    }
  });
});

describe("security headers", () => {
  it("allows a rendered page's scripts by a nonce new on every response, which every script carries", async () => {
    // The sign-in page is rendered every time (the guest-page cache keeps no private page).
    const res = await fetch(server.url + "/sign-in");
    const csp = res.headers.get("content-security-policy")!;
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(csp).toContain("frame-ancestors 'self'");
    expect(csp).not.toContain("unsafe-inline");
    const $ = cheerio.load(await res.text());
    $("script").each((_, s) => {
      if ($(s).attr("src") || $(s).attr("type") === "application/ld+json") return;
      expect($(s).attr("nonce")).toBe(nonce);
    });
    const again = (await fetch(server.url + "/sign-in")).headers.get("content-security-policy")!;
    expect(again).not.toBe(csp);
  });

  it("allows a page from the guest-page cache's scripts by their hashes alone", async () => {
    await (await fetch(server.url + "/")).text();
    const res = await fetch(server.url + "/");
    expect(res.headers.get("x-page-cache")).toBe("hit");
    const csp = res.headers.get("content-security-policy")!;
    expect(csp).not.toMatch(/nonce-|unsafe-inline/);
    const $ = cheerio.load(await res.text());
    const inline = $("script:not([src])").toArray();
    expect(inline.length).toBeGreaterThan(0);
    for (const s of inline) {
      expect($(s).attr("nonce")).toBeUndefined();
      const hash = crypto.createHash("sha256").update($(s).html()!).digest("base64");
      expect(csp).toContain(`'sha256-${hash}'`);
    }
  });

  it("sends the basic headers on pages, data requests and resource routes", async () => {
    for (const path of ["/", "/the-latest.data", "/sitemap.xml", "/art/article/x.svg", "/no-such-page"]) {
      const res = await fetch(server.url + path);
      expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(res.headers.get("referrer-policy"), path).toBe("strict-origin-when-cross-origin");
      expect(res.headers.get("content-security-policy"), path).toContain("frame-ancestors");
    }
  });
});

describe("maintenance mode", () => {
  it("renders the maintenance view for streams when the switch is on", async () => {
    // The store's default window (test servers turn it off), whose hours the spec quotes.
    const maintenance = await startBuiltServer({ MAINTENANCE_MODE: "1", STORE_MAINTENANCE_WINDOW: "07:30-10:00" });
    try {
      const res = await fetch(`${maintenance.url}/the-latest`);
      expect(res.status).toBe(503);
      const $ = cheerio.load(await res.text());
      expect($("[role=status]").text()).toContain("Ordering and order history are unavailable from 7:30am to 10am EST");
      expect($("ol li article").length).toBe(0);
      expect((await fetch(`${maintenance.url}/topics`)).status, maintenance.errors()).toBe(200);
    } finally {
      await maintenance.stop();
    }
  }, 120_000);
});

describe("when the database cannot be reached", () => {
  it("answers 503 (try again shortly) inside the site chrome with the customer-service message, and keeps serving what needs no database", async () => {
    const broken = await startBuiltServer({ DATABASE_URL: "postgres://postgres@127.0.0.1:1/unreachable" });
    try {
      const res = await fetch(`${broken.url}/the-latest`, { headers: { "X-Request-Id": "lb-7f3a9c" } });
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("30");
      expect(res.headers.get("x-request-id")).toBe("lb-7f3a9c");
      const html = await res.text();
      // The cause, with its stack, is in the server's log under the balancer's request id…
      const logged = broken
        .errors()
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line) as { level: string; requestId?: string; error?: { message: string; stack: string } })
        .find((entry) => entry.requestId === "lb-7f3a9c" && entry.level === "error");
      expect(logged?.error?.stack).toMatch(/\n\s+at /);
      // …and never on the reader's page.
      expect(html).not.toContain(logged!.error!.message);
      expect(html).not.toMatch(/\n\s+at /);
      const $ = cheerio.load(html);
      expect($("h1").text()).toBe("Something went wrong");
      expect($("main").text()).toContain(
        "We are sorry. We are unable to process your request at this time. Customer Service is available 24/7.",
      );
      expect($("nav[aria-label=Sections] a").length).toBeGreaterThan(5);
      expect($("title").text()).toContain("Something went wrong");
      // A page's data asked for by the browser's JS, and a form posted, are told the same.
      const data = await fetch(`${broken.url}/the-latest.data`);
      expect([data.status, data.headers.get("retry-after")]).toEqual([503, "30"]);
      const posted = await fetch(`${broken.url}/sign-in`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: broken.url, "Sec-Fetch-Site": "same-origin" },
        body: "username=reader%40example.com&password=x",
      });
      expect(posted.status).toBe(503);
      expect((await fetch(`${broken.url}/robots.txt`)).status).toBe(200);
      // What a load balancer asks: the process is alive, but not ready to take readers.
      expect((await fetch(`${broken.url}/healthz`)).status).toBe(200);
      const ready = await fetch(`${broken.url}/readyz`);
      expect([ready.status, await ready.text()]).toEqual([503, "not ready\n"]);
    } finally {
      await broken.stop();
    }
  }, 120_000);
});

describe("configuration", () => {
  it("refuses to start with an invalid setting and names the variable", async () => {
    await expect(startBuiltServer({ MAINTENANCE_MODE: "sometimes" })).rejects.toThrow(/MAINTENANCE_MODE/);
  }, 120_000);
});
