import path from "node:path";
import * as cheerio from "cheerio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blockText, parseBody } from "~/server/content/markdown";
import type { ContentTier } from "~/server/db/schema";
import { loadSeedContent } from "~/server/seed/content-source";
import { startDnsServer, type DnsServer } from "~/tests/helpers/dns-server";
import { startBuiltServer, type RunningServer } from "~/tests/helpers/server";
import { selectFromServer } from "~/tests/helpers/server-db";
import { isolatedConnection, type IsolatedConnection } from "~/tests/helpers/test-db";

// The publisher's promise, checked against the production build: the paywalled part of an
// article (everything after the preview) never reaches a browser, feed, API or search snippet
// of a reader who is not entitled to it. Every article of the seed content is requested as
// several readers (a metered-out guest, a client without cookies, a metered-out registered
// reader, a client clearing its cookies, robots and a verified crawler); each
// response is searched, after the same normalisation as the source text, for distinctive
// slices of the article's gated paragraphs.

const GUEST_LIMIT = 4;
const ASCEND_LIMIT = 3;
const REGISTERED_LIMIT = 8;
const PREVIEW_BLOCKS = 3;
const TAGS: Record<ContentTier, string> = { article: "pw-article", top50: "pw-top50", cases: "pw-cases", "visual-library": "pw-visual" };
const PASSWORD = "Lantern5!quay";
const SLICE = 60;
const CONCURRENCY = 4;
const ADDRESS_CEILING = 6;
const CRAWLER_IP = "66.249.66.1";

let server: RunningServer;
let dns: DnsServer;
let database: IsolatedConnection;

// ---------------------------------------------------------------------------------------------
// Text: the same normalisation for the source and for every response.

const NAMED_ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** Undoes JavaScript/JSON string escapes, repeatedly (loader data sits in a JSON string inside a JS string). */
function decodeEscapes(text: string): string {
  for (;;) {
    const next = text.replace(/\\(u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|[\s\S])/g, (_, e: string) => {
      if (e.length === 5 && e[0] === "u") return String.fromCharCode(parseInt(e.slice(1), 16));
      if (e.length === 3 && e[0] === "x") return String.fromCharCode(parseInt(e.slice(1), 16));
      return "nrt".includes(e) ? " " : e;
    });
    if (next === text) return text;
    text = next;
  }
}

/** Undoes HTML character references, repeatedly (HTML kept as a string inside HTML). */
function decodeEntities(text: string): string {
  for (;;) {
    const next = text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, e: string) => {
      if (e[0] !== "#") return NAMED_ENTITIES[e.toLowerCase()] ?? whole;
      const code = e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    });
    if (next === text) return text;
    text = next;
  }
}

/**
 * Lower-case letters and digits separated by single spaces: markup, quotes and punctuation fall
 * away. Tag names go too (so `</li><li>` between two list items is one space, as in the source);
 * attribute values stay, so text in an attribute is still found.
 */
function normalise(text: string): string {
  return decodeEntities(decodeEscapes(text).replace(/<\/?[a-zA-Z][\w:-]*/g, " "))
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/** SLICE characters from the middle of a normalised text. */
function middleSlice(text: string): string {
  const start = Math.floor((text.length - SLICE) / 2);
  return text.slice(start, start + SLICE);
}

// ---------------------------------------------------------------------------------------------
// The seed articles, read with the project's own parser.

interface Article {
  slug: string;
  path: string;
  tier: ContentTier;
  ascend: boolean;
  /** Probes of the free preview (the first PREVIEW_BLOCKS blocks), normalised. */
  preview: string[];
  /** Distinctive slices of the gated paragraphs, normalised. */
  gated: string[];
  /** A word of a gated paragraph to search for, and whether the search should list the article. */
  searchWord: string;
  searchListsIt: boolean;
}

function loadArticles(): Omit<Article, "path">[] {
  const content = loadSeedContent(path.resolve("content"));
  const parsed = content.articles.map((a) => ({ seed: a, blocks: parseBody(a.body) }));
  const publicFields = (a: (typeof parsed)[number]) => normalise([a.seed.title, a.seed.dek, a.seed.subDek, a.seed.summary].join(" \n "));
  // What any page may show: titles, deks, summaries, previews and author bios of every article.
  const publicText = [
    ...parsed.map(
      (a) =>
        `${publicFields(a)} | ${a.blocks
          .slice(0, PREVIEW_BLOCKS)
          .map((b) => normalise(blockText(b)))
          .join(" | ")}`,
    ),
    ...content.authors.map((a) => normalise(`${a.name} ${a.role} ${a.bio}`)),
  ].join(" | ");
  const gatedOf = (a: (typeof parsed)[number]) =>
    a.blocks
      .slice(PREVIEW_BLOCKS)
      .map((b) => normalise(blockText(b)))
      .filter((t) => t.length >= 100);
  const allGated = parsed.map((a) => gatedOf(a).join(" | "));
  // Each body's words by their first five letters, read once: matching every word of every body
  // against each candidate took minutes at 67 articles.
  const bodyPrefixes = parsed.map(
    (p) =>
      new Set(
        normalise(p.seed.body)
          .split(" ")
          .map((b) => b.slice(0, 5)),
      ),
  );

  return parsed.map((a, index) => {
    const gatedTexts = gatedOf(a);
    const otherGated = allGated.filter((_, i) => i !== index).join(" | ");
    const gated = gatedTexts.map(middleSlice).filter((s) => !publicText.includes(s) && !otherGated.includes(s));
    const preview = a.blocks
      .slice(0, PREVIEW_BLOCKS)
      .map((b) => normalise(blockText(b)))
      .map((t) => (t.length > SLICE ? middleSlice(t) : t));

    // Search reads whole bodies, so a word of a gated paragraph finds this article: a walled
    // reader then sees its result, which must carry no gated text. The word in fewest bodies
    // keeps the article on the first page of results.
    // Rarity is judged by the word's first five letters, as stemming joins "acting" to "act".
    const candidates = [...new Set(gatedTexts.join(" ").split(" "))].filter((w) => w.length >= 7 && /^[a-z]+$/.test(w));
    const ranked = candidates
      .map((w) => ({ w, hits: bodyPrefixes.filter((prefixes) => prefixes.has(w.slice(0, 5))).length }))
      .sort((x, y) => x.hits - y.hits || x.w.localeCompare(y.w));
    const best = ranked[0]!;
    return {
      slug: a.seed.slug,
      tier: a.seed.tier,
      ascend: a.seed.streams.includes("ascend"),
      preview,
      gated,
      searchWord: best.w,
      searchListsIt: best.hits <= 5,
    };
  });
}

let articles: Article[] = [];
const allSlices = () => articles.flatMap((a) => a.gated.map((slice) => ({ slice, owner: a.slug })));

/** Which gated slices (of any article) a normalised text contains, described for a failure message. */
function leaksIn(where: string, normalised: string): string[] {
  return allSlices()
    .filter(({ slice }) => normalised.includes(slice))
    .map(({ slice, owner }) => `${where}: "${slice}" (gated text of ${owner})`);
}

// ---------------------------------------------------------------------------------------------
// HTTP: readers with cookie jars of their own.

class CookieJar {
  private readonly cookies = new Map<string, string>();

  absorb(res: Response): void {
    for (const header of res.headers.getSetCookie()) {
      const [pair = ""] = header.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (value === "" || /max-age=0\b/i.test(header)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  get(name: string): string | undefined {
    return this.cookies.get(name);
  }

  set(name: string, value: string): void {
    this.cookies.set(name, value);
  }

  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  clone(): CookieJar {
    const copy = new CookieJar();
    for (const [k, v] of this.cookies) copy.set(k, v);
    return copy;
  }
}

interface Hop {
  status: number;
  location: string;
  cacheControl: string;
  text: string;
}

interface Fetched {
  url: string;
  status: number;
  cacheControl: string;
  /** Every Set-Cookie on the way, redirects included. */
  setCookie: string[];
  /** The redirects followed to get here. */
  hops: Hop[];
  text: string;
  /** The guest-page cache's word on the last answer: "hit", "miss", or "" for a page it does not keep. */
  pageCache: string;
}

/**
 * fetch, retrying a GET once when a kept-alive connection turns out closed before any answer, as
 * browsers do (undici does not). Seen now and then in CI on a loaded machine, with no failed
 * answer in the server's log; it is not an answer a page gave.
 */
async function fetchAsBrowser(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    if (cause?.code !== "UND_ERR_SOCKET" || cause.message !== "other side closed") throw error;
    return fetch(url, init);
  }
}

/**
 * GET as a reader, following redirects as a browser does: with their jar (kept up to date on every
 * hop), or as a client that keeps no cookies at all (`curl -L`). `headers` go with every hop.
 */
async function get(path: string, jar: CookieJar | null, headers: Record<string, string> = {}): Promise<Fetched> {
  const hops: Hop[] = [];
  const setCookie: string[] = [];
  let url = path;
  for (;;) {
    const res = await fetchAsBrowser(server.url + url, {
      redirect: "manual",
      headers: { ...headers, ...(jar ? { Cookie: jar.header() } : {}) },
    });
    jar?.absorb(res);
    setCookie.push(...res.headers.getSetCookie());
    const location = res.headers.get("location");
    const cacheControl = res.headers.get("cache-control") ?? "";
    // A single-fetch data request is redirected with a 202 that names the next page: the browser
    // then asks for that page's data.
    const dataRedirect = res.status === 202 && url.includes(".data");
    if (((res.status >= 300 && res.status < 400) || dataRedirect) && location && hops.length < 3) {
      hops.push({ status: res.status, location, cacheControl, text: await res.text() });
      const next = new URL(location, server.url + url);
      expect(next.origin, `${path}: redirect off site`).toBe(server.url);
      url = (dataRedirect ? `${next.pathname}.data` : next.pathname) + next.search;
      continue;
    }
    return {
      url: path,
      status: res.status,
      cacheControl,
      setCookie,
      hops,
      text: await res.text(),
      pageCache: res.headers.get("x-page-cache") ?? "",
    };
  }
}

/** The article page and its single-fetch data (`.data`), as one reader. */
interface ArticleVisit {
  article: Article;
  html: Fetched;
  data: Fetched;
  $: cheerio.CheerioAPI;
  /** The wall's kind (data-wall), or undefined when the full article was served. */
  wall: string | undefined;
}

async function visit(article: Article, jar: CookieJar | null, query = "", headers: Record<string, string> = {}): Promise<ArticleVisit> {
  const html = await get(article.path + query, jar, headers);
  const data = await get(`${article.path}.data${query}`, jar, headers);
  expect(html.status, html.url).toBe(200);
  expect(data.status, data.url).toBe(200);
  const $ = cheerio.load(html.text);
  const walls = $("[data-wall]");
  expect(walls.length, `${html.url}: walls`).toBeLessThanOrEqual(1);
  return { article, html, data, $, wall: walls.attr("data-wall") };
}

/** Opens one article as the reader (the HTML document only, as a browser's first visit). */
async function open(article: Article, jar: CookieJar | null): Promise<{ $: cheerio.CheerioAPI; res: Fetched; wall: string | undefined }> {
  const res = await get(article.path, jar);
  expect(res.status, res.url).toBe(200);
  const $ = cheerio.load(res.text);
  return { $, res, wall: $("[data-wall]").attr("data-wall") };
}

/** Runs fn over items, a few at a time. */
async function mapLimit<T, R>(items: T[], fn: (item: T, index: number) => Promise<R>, limit = CONCURRENCY): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!, i);
      }
    }),
  );
  return out;
}

const once = <T>(fn: () => Promise<T>) => {
  let promise: Promise<T> | undefined;
  return () => (promise ??= fn());
};

interface QuotaJson {
  limit: number;
  count: number;
  remaining: number;
  metered: boolean;
}

async function quota(jar: CookieJar, meter: "quota" | "ascend-quota" = "quota"): Promise<QuotaJson> {
  const res = await get(`/service/user/${meter}`, jar);
  expect(res.status).toBe(200);
  return JSON.parse(res.text) as QuotaJson;
}

/** The article content service's answer (POST /api/article/piano/content), as one reader. */
interface ContentCall {
  status: number;
  setCookie: string[];
  text: string;
  body: { guid: string | null; content: string; fullContent: boolean; wall: string | null };
}

async function contentCall(article: Article, jar: CookieJar | null, headers: Record<string, string> = {}): Promise<ContentCall> {
  const [, year, month, seotitle] = /^\/(\d{4})\/(\d{1,2})\/([a-z0-9-]+)$/.exec(article.path) ?? [];
  expect(seotitle, article.path).toBeTruthy();
  const res = await fetch(
    `${server.url}/api/article/piano/content?${new URLSearchParams({ year: year!, month: month!, seotitle: seotitle! })}`,
    {
      method: "POST",
      redirect: "manual",
      headers: { ...headers, "Content-Type": "application/json", ...(jar ? { Cookie: jar.header() } : {}) },
      body: JSON.stringify({ contentKey: "k", pageSlug: seotitle, pageAdUnitLocations: [] }),
    },
  );
  jar?.absorb(res);
  const text = await res.text();
  expect(res.status, `${article.path}: content service`).toBe(200);
  return { status: res.status, setCookie: res.headers.getSetCookie(), text, body: JSON.parse(text) as ContentCall["body"] };
}

/** Leaks and omissions of one walled content-service answer: nothing gated anywhere in it, the preview in `content`. */
function walledContentProblems(article: Article, call: ContentCall, who: string): string[] {
  const where = `${who} ${article.path} (content service)`;
  const content = normalise(call.body.content);
  return [
    ...(call.body.fullContent ? [`${where}: answered as full content`] : []),
    ...leaksIn(where, normalise(call.text)),
    ...article.preview.filter((p) => !content.includes(p)).map((p) => `${where}: preview "${p}" missing`),
  ];
}

let ipCounter = 0;

async function register(jar: CookieJar, email: string): Promise<void> {
  ipCounter += 1;
  const res = await fetch(`${server.url}/register`, {
    method: "POST",
    redirect: "manual",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: server.url,
      "X-Forwarded-For": `203.0.113.${ipCounter}`,
      Cookie: jar.header(),
    },
    body: new URLSearchParams({ firstName: "Ida", lastName: "Marsh", emailAddress: email, password: PASSWORD }),
  });
  expect(res.status).toBe(303);
  jar.absorb(res);
  expect(jar.get("mr_session")).toBeTruthy();
}

const bodyText = ($: cheerio.CheerioAPI) => normalise($("#article-body").html() ?? "");

/** The article's JSON-LD (one document), with the part it marks as paywalled, if any. */
const articleLd = ($: cheerio.CheerioAPI) =>
  JSON.parse($('script[type="application/ld+json"]').text()) as {
    isAccessibleForFree: unknown;
    hasPart?: { isAccessibleForFree: unknown; cssSelector: string };
  };

/**
 * The full article was served: no wall, and every gated slice of it inside the gated wrapper,
 * which is the one element the JSON-LD's paywalled part selects.
 */
function expectFullContent(page: { $: cheerio.CheerioAPI; wall: string | undefined }, article: Article, who: string): void {
  expect(page.wall, `${who} ${article.path}: wall`).toBeUndefined();
  const part = articleLd(page.$).hasPart;
  expect(part, `${who} ${article.path}: JSON-LD hasPart`).toMatchObject({ isAccessibleForFree: false, cssSelector: ".paywalled-content" });
  const selected = page.$(part!.cssSelector);
  expect(selected.length, `${who} ${article.path}: elements the JSON-LD's cssSelector selects`).toBe(1);
  const inside = normalise(selected.html() ?? "");
  expect(
    article.gated.filter((s) => !inside.includes(s)),
    `${who} ${article.path}: gated text missing from .paywalled-content`,
  ).toEqual([]);
}

/** Leaks and omissions of one walled visit: nothing gated in the HTML or its data, the preview in both. */
function walledProblems(v: ArticleVisit, who: string): string[] {
  const where = `${who} ${v.article.path}`;
  const html = normalise(v.html.text);
  const data = normalise(v.data.text);
  const body = bodyText(v.$);
  return [
    ...leaksIn(`${where} (HTML)`, html),
    ...leaksIn(`${where} (.data)`, data),
    ...v.article.preview.filter((p) => !body.includes(p)).map((p) => `${where}: preview "${p}" missing from the HTML body`),
    ...v.article.preview.filter((p) => !data.includes(p)).map((p) => `${where}: preview "${p}" missing from .data`),
    ...(normalise(v.$(".paywalled-content").text()) ? [`${where}: .paywalled-content has text`] : []),
  ];
}

// ---------------------------------------------------------------------------------------------
// The three readers' crawls, made once and shared by the checks below.

const nonAscend = () => articles.filter((a) => !a.ascend && a.tier === "article");
const ascendArticles = () => articles.filter((a) => a.ascend);

/** A guest who used up both meters (4 articles, 3 Ascend pages), then requests every article. */
const meteredOutGuest = once(async () => {
  const jar = new CookieJar();
  const counted = [...nonAscend().slice(0, GUEST_LIMIT), ...ascendArticles().slice(0, ASCEND_LIMIT)];
  for (const a of counted) expectFullContent(await open(a, jar), a, "guest using up the meters");
  const visits = await mapLimit(articles, (a) => visit(a, jar));
  return { jar, counted: new Set(counted.map((a) => a.slug)), visits };
});

/** A client that keeps no cookies (curl, a browser blocking cookies), following every redirect. */
const cookielessClient = once(() => mapLimit(articles, (a) => visit(a, null)));

/** A registered reader who used up the registered meter (8 articles), then requests every article. */
const meteredOutRegistered = once(async () => {
  const jar = new CookieJar();
  await register(jar, "metered.out@example.org");
  const counted = nonAscend().slice(-REGISTERED_LIMIT);
  for (const a of counted) expectFullContent(await open(a, jar), a, "registered reader using up the meter");
  const visits = await mapLimit(articles, (a) => visit(a, jar));
  return { jar, counted: new Set(counted.map((a) => a.slug)), visits };
});

// Setting up seeds a fresh database behind its own server and reads every article as several
// readers: on a loaded 2-core CI machine beside the other integration files, over two minutes.
const SETUP_LIMIT_MS = 300_000;

beforeAll(async () => {
  database = await isolatedConnection("pay");
  dns = await startDnsServer({
    ptr: { "1.66.249.66.in-addr.arpa": ["crawl-66-249-66-1.googlebot.com"], "3.2.0.192.in-addr.arpa": ["crawl-192-0-2-3.googlebot.com"] },
    a: { "crawl-66-249-66-1.googlebot.com": [CRAWLER_IP], "crawl-192-0-2-3.googlebot.com": ["203.0.113.99"] },
  });
  server = await startBuiltServer(
    {
      METER_ADDRESS_CEILING: String(ADDRESS_CEILING),
      CRAWLER_FULL_TEXT: "1",
      CRAWLER_DNS_SERVERS: dns.address,
      METER_GUEST_LIMIT: String(GUEST_LIMIT),
      METER_ASCEND_LIMIT: String(ASCEND_LIMIT),
      METER_REGISTERED_LIMIT: String(REGISTERED_LIMIT),
      PAYWALL_PREVIEW_PARAGRAPHS: String(PREVIEW_BLOCKS),
      PAYWALL_TAGS: Object.entries(TAGS)
        .map(([tier, tag]) => `${tier}=${tag}`)
        .join(","),
      SEED_ARTICLES: "0",
      CLIENT_IP_HEADER: "x-forwarded-for",
      RATE_LIMIT_PER_IP: "100000",
      RATE_LIMIT_PER_ACCOUNT: "1000",
    },
    "production",
    database,
  );
  const sitemap = await (await fetch(`${server.url}/sitemaps/articles-1.xml`)).text();
  const paths = new Map(
    [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => {
      const p = new URL(m[1]!).pathname;
      return [p.split("/").pop()!, p] as const;
    }),
  );
  articles = loadArticles().map((a) => ({ ...a, path: paths.get(a.slug) ?? `(not in the sitemap: ${a.slug})` }));
  // The sitemap lists exactly the seed articles.
  expect([...paths.keys()].sort()).toEqual(articles.map((a) => a.slug).sort());
}, SETUP_LIMIT_MS);

afterAll(async () => {
  await server?.stop();
  await dns?.close();
  await database.drop();
});

describe("the seed content the checks rely on", () => {
  it("gives every article distinctive gated slices and a preview, in every tier, Ascend included", () => {
    expect(articles.length).toBeGreaterThanOrEqual(30);
    for (const a of articles) {
      expect(a.gated.length, a.slug).toBeGreaterThanOrEqual(3);
      expect(a.preview.length, a.slug).toBe(PREVIEW_BLOCKS);
    }
    expect(new Set(articles.map((a) => a.tier))).toEqual(new Set(Object.keys(TAGS)));
    expect(ascendArticles().length).toBeGreaterThan(ASCEND_LIMIT);
    expect(nonAscend().length).toBeGreaterThanOrEqual(GUEST_LIMIT + REGISTERED_LIMIT);
  });
});

describe("a guest who has used up both meters never receives gated text", () => {
  beforeAll(() => meteredOutGuest(), SETUP_LIMIT_MS);

  it("meets the registration wall on every article not already counted, and reads counted ones in full", async () => {
    const { visits, counted } = await meteredOutGuest();
    for (const v of visits) {
      if (counted.has(v.article.slug)) expectFullContent(v, v.article, "metered-out guest (counted article)");
      else expect(v.wall, v.article.path).toBe("registration");
    }
    expect(visits.filter((v) => v.wall).length).toBe(articles.length - GUEST_LIMIT - ASCEND_LIMIT);
  });

  it("finds no gated text in the HTML (loader data in inline scripts included) or the .data of any walled article, and the preview in both", async () => {
    const { visits } = await meteredOutGuest();
    const walled = visits.filter((v) => v.wall);
    expect(walled.length).toBeGreaterThan(0);
    expect(walled.flatMap((v) => walledProblems(v, "metered-out guest"))).toEqual([]);
  });

  it("gets no gated text from the article content service for any walled article, only the preview, and the whole of a counted one", async () => {
    const { jar, counted } = await meteredOutGuest();
    const calls = await mapLimit(articles, async (a) => ({ a, call: await contentCall(a, jar.clone()) }));
    const walled = calls.filter(({ a }) => !counted.has(a.slug));
    expect(walled.length).toBe(articles.length - GUEST_LIMIT - ASCEND_LIMIT);
    expect(walled.flatMap(({ a, call }) => walledContentProblems(a, call, "metered-out guest"))).toEqual([]);
    for (const { call } of walled) expect([call.body.wall, call.body.guid]).toEqual(["registration", null]);
    // A read already counted stays open, through the service as on the page.
    for (const { a, call } of calls.filter(({ a }) => counted.has(a.slug))) {
      const content = normalise(call.body.content);
      expect(
        a.gated.filter((g) => !content.includes(g)),
        a.path,
      ).toEqual([]);
    }
  });

  it("keeps the wall up whatever the query: other wall screens, a reading list, a made-up gift link", async () => {
    const { jar, visits } = await meteredOutGuest();
    const walled = visits.filter((v) => v.wall).map((v) => v.article);
    const queries = [
      "?paywall=sign-in",
      "?paywall=forgot-password",
      "?list=your-first-years-as-a-manager",
      "?list=from-first-customer-to-scale",
      `?gift=${"A".repeat(43)}`,
    ];
    const variants = await mapLimit(walled, (a, i) => visit(a, jar, queries[i % queries.length]));
    for (const v of variants) expect(v.wall, v.html.url).toBe("registration");
    expect(variants.flatMap((v) => walledProblems(v, "metered-out guest"))).toEqual([]);
  });
});

describe("the guest-page cache, which is on", () => {
  it("serves a page kept from one guest's render to another guest with the same access, and never across access", async () => {
    // An article the metered-out guest has not read, so it is walled for them.
    const article = nonAscend().at(-1)!;
    const { jar: walledJar, counted } = await meteredOutGuest();
    expect(counted.has(article.slug)).toBe(false);
    // Each guest reads another article first: a new visitor's first page has an address of its
    // own (the cookie check's), and so a cache entry of its own.
    const guests = [new CookieJar(), new CookieJar()];
    for (const jar of guests) expectFullContent(await open(nonAscend()[0]!, jar), nonAscend()[0]!, "a new guest");
    const first = await open(article, guests[0]!);
    const second = await open(article, guests[1]!);
    expectFullContent(first, article, "a guest");
    expectFullContent(second, article, "another guest");
    expect([first.res.pageCache, second.res.pageCache]).toEqual(["miss", "hit"]);

    const walled = [await visit(article, walledJar), await visit(article, walledJar)];
    for (const v of walled) expect(walledProblems(v, "the metered-out guest, from the cache")).toEqual([]);
    expect(walled[1]!.html.pageCache).toBe("hit");
    // The meter counted the read the cache served, as it did the one rendered.
    for (const jar of guests) expect((await quota(jar)).count).toBe(2);
  });
});

describe("a client that keeps no cookies never receives gated text", () => {
  beforeAll(() => cookielessClient(), SETUP_LIMIT_MS);

  it("is sent once to the cookie check, with a new HttpOnly, SameSite=Lax visitor cookie and nothing gated on the way", async () => {
    for (const v of await cookielessClient()) {
      expect(
        v.html.hops.map((h) => h.status),
        v.html.url,
      ).toEqual([302]);
      const [hop] = v.html.hops;
      expect(hop!.location).toMatch(new RegExp(`^${v.article.path}\\?cookie-check=\\d+$`));
      expect(hop!.cacheControl).toMatch(/no-store/);
      expect(leaksIn(`${v.html.url} (redirect)`, normalise(hop!.text))).toEqual([]);
      const cookie = v.html.setCookie.find((c) => c.startsWith("mr_visitor="));
      expect(cookie, `${v.html.url}: visitor cookie`).toBeTruthy();
      expect(cookie).toMatch(/;\s*HttpOnly/i);
      expect(cookie).toMatch(/;\s*SameSite=Lax/i);
    }
  });

  it("meets the registration wall on every article, told that free articles need cookies, with nothing gated in the HTML or .data", async () => {
    const visits = await cookielessClient();
    for (const v of visits) {
      expect(v.wall, v.html.url).toBe("registration");
      expect(v.$("[data-cookies-needed]").text(), v.html.url).toMatch(/^Free articles need cookies/);
    }
    expect(visits.flatMap((v) => walledProblems(v, "client without cookies"))).toEqual([]);
  });

  it("gets the wall, not a redirect, when it says it is a robot, and whatever cookie it forges", async () => {
    const robots = ["curl/8.5.0", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", ""];
    const forged = new CookieJar();
    forged.set("mr_visitor", "forged-visitor-id-0000.c2lnbmF0dXJl");
    const visits = await mapLimit(articles.slice(0, 9), (a, i) =>
      visit(a, i % 2 ? forged.clone() : null, "", { "User-Agent": robots[i % robots.length]!, "X-Forwarded-For": "198.51.100.200" }),
    );
    for (const v of visits) {
      expect(v.html.hops, v.html.url).toEqual([]);
      expect(v.wall, v.html.url).toBe("registration");
    }
    expect(visits.flatMap((v) => walledProblems(v, "robot"))).toEqual([]);
  });

  it("gets no gated text from the article content service, without a cookie or with a forged one, and a visitor cookie to come back with", async () => {
    const forged = new CookieJar();
    forged.set("mr_visitor", "forged-visitor-id-0000.c2lnbmF0dXJl");
    const cookieless = await mapLimit(articles, (a) => contentCall(a, null));
    const withForged = await mapLimit(articles, (a) => contentCall(a, forged.clone()));
    expect(articles.flatMap((a, i) => walledContentProblems(a, cookieless[i]!, "client without cookies"))).toEqual([]);
    expect(articles.flatMap((a, i) => walledContentProblems(a, withForged[i]!, "forged visitor cookie"))).toEqual([]);
    for (const call of [...cookieless, ...withForged]) {
      expect(call.body.wall).toBe("registration");
      expect(call.setCookie.find((c) => c.startsWith("mr_visitor="))).toMatch(/;\s*HttpOnly/i);
    }
  });

  it("writes no meter rows, however many articles it asks for", async () => {
    await cookielessClient();
    const count = async () =>
      Number(
        (
          await selectFromServer<{ n: number }>(
            database,
            "SELECT COUNT(*) AS n FROM meter_read WHERE client_address IS NULL AND meter_key LIKE ?",
            ["v:%"],
          )
        )[0]!.n,
      );
    const before = await count();
    await mapLimit(articles, (a) => visit(a, null));
    expect(await count()).toBe(before);
  });
});

describe("a browser that keeps cookies", () => {
  it("reads its first article at once, after one redirect that sets the visitor cookie", async () => {
    const jar = new CookieJar();
    const [first] = nonAscend();
    const page = await open(first!, jar);
    expect(page.res.hops.map((h) => h.status)).toEqual([302]);
    expectFullContent(page, first!, "new reader");
    expect(page.$("[data-cookies-needed]")).toHaveLength(0);
    // From then on the cookie comes back, and no redirect is needed.
    const second = nonAscend()[1]!;
    const next = await open(second, jar);
    expect(next.res.hops).toEqual([]);
    expectFullContent(next, second, "new reader's second article");
  });

  it("is taken for a new visitor again when it follows an old cookie-check link someone shared", async () => {
    const jar = new CookieJar();
    const a = nonAscend()[2]!;
    const page = await get(`${a.path}?cookie-check=1700000000000`, jar);
    expect(page.hops.map((h) => h.status)).toEqual([302]);
    expectFullContent(
      { $: cheerio.load(page.text), wall: cheerio.load(page.text)("[data-wall]").attr("data-wall") },
      a,
      "reader of a shared link",
    );
  });
});

describe("a client that clears its cookies after every read", () => {
  it("reads no more than its network's monthly ceiling, then meets the wall with nothing gated", async () => {
    const from = { "X-Forwarded-For": "192.0.2.50" };
    const pages = [];
    for (const a of nonAscend().slice(0, ADDRESS_CEILING + 4)) {
      const res = await get(a.path, new CookieJar(), from);
      pages.push({ a, res, $: cheerio.load(res.text) });
    }
    const full = pages.filter((p) => p.$("[data-wall]").length === 0);
    expect(full.map((p) => p.a.slug)).toEqual(
      nonAscend()
        .slice(0, ADDRESS_CEILING)
        .map((a) => a.slug),
    );
    expect(pages.slice(ADDRESS_CEILING).flatMap((p) => leaksIn(`ceiling ${p.a.path}`, normalise(p.res.text)))).toEqual([]);
    // Another network is not held back by it.
    const other = await open(nonAscend()[ADDRESS_CEILING + 5]!, new CookieJar());
    expect(other.wall).toBeUndefined();
  });
});

describe("a search engine's crawler, when the site lets verified crawlers index the full text", () => {
  const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

  it("reads every article in full from an address whose DNS names it Googlebot, with the paywall marked in JSON-LD", async () => {
    const visits = await mapLimit(articles, (a) => visit(a, null, "", { "User-Agent": GOOGLEBOT, "X-Forwarded-For": CRAWLER_IP }));
    for (const v of visits) {
      expect(v.html.hops).toEqual([]);
      expectFullContent(v, v.article, "verified Googlebot");
      expect(articleLd(v.$).isAccessibleForFree).toBe(false);
    }
  });

  it("walls a client that only says it is Googlebot", async () => {
    const visits = await mapLimit(articles.slice(0, 6), (a) =>
      visit(a, null, "", { "User-Agent": GOOGLEBOT, "X-Forwarded-For": "192.0.2.3" }),
    );
    for (const v of visits) expect(v.wall, v.html.url).toBe("registration");
    expect(visits.flatMap((v) => walledProblems(v, "false Googlebot"))).toEqual([]);
  });
});

describe("a registered reader who has used up the meter never receives gated text", () => {
  beforeAll(() => meteredOutRegistered(), SETUP_LIMIT_MS);

  it("meets the subscribe wall on every article not already counted, with a call to action tagged by the article's tier", async () => {
    const { visits, counted, jar } = await meteredOutRegistered();
    expect(await quota(jar)).toEqual({ limit: REGISTERED_LIMIT, count: REGISTERED_LIMIT, remaining: 0, metered: true });
    const tiersWalled = new Set<ContentTier>();
    for (const v of visits) {
      if (counted.has(v.article.slug)) {
        expectFullContent(v, v.article, "metered-out registered reader (counted article)");
        continue;
      }
      expect(v.wall, v.article.path).toBe("subscribe");
      const cta = v.$('[data-wall="subscribe"] a[href^="/subscriptions?ab="]');
      expect(cta.length, v.article.path).toBe(1);
      expect(cta.attr("href"), v.article.path).toBe(`/subscriptions?ab=${TAGS[v.article.tier]}`);
      tiersWalled.add(v.article.tier);
    }
    expect(tiersWalled).toEqual(new Set(Object.keys(TAGS)));
    expect(new Set(Object.values(TAGS)).size).toBe(4);
  });

  it("finds no gated text in the HTML or the .data of any walled article, and the preview in both", async () => {
    const { visits } = await meteredOutRegistered();
    const walled = visits.filter((v) => v.wall);
    expect(walled.length).toBe(articles.length - REGISTERED_LIMIT);
    expect(walled.flatMap((v) => walledProblems(v, "metered-out registered reader"))).toEqual([]);
  });
});

describe("feeds, search and page metadata carry no gated text", () => {
  beforeAll(() => meteredOutGuest(), SETUP_LIMIT_MS);

  it("keeps gated text out of the RSS feed", async () => {
    const { jar } = await meteredOutGuest();
    const feed = await get("/feeds/latest.xml", jar);
    expect(feed.status).toBe(200);
    expect(feed.text.match(/<item>/g)?.length ?? 0).toBeGreaterThanOrEqual(10);
    expect(leaksIn("/feeds/latest.xml", normalise(feed.text))).toEqual([]);
  });

  it("keeps gated text out of the home, stream and topic pages and the newest issues' contents (HTML and .data)", async () => {
    const { jar } = await meteredOutGuest();
    const sitemap = await get("/sitemaps/pages.xml", jar);
    const locs = [...sitemap.text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!.replace(/&amp;/g, "&")));
    const issues = locs.filter((u) => u.pathname.startsWith("/archive-toc/")).slice(0, 3);
    const pages = [...locs.filter((u) => !u.pathname.startsWith("/archive-toc/")), ...issues];
    expect(pages.length).toBeGreaterThan(10);
    const problems = (
      await mapLimit(pages, async (u) => {
        const p = u.pathname + u.search;
        const html = await get(p, jar);
        const data = await get(`${u.pathname === "/" ? "/_root" : u.pathname}.data${u.search}`, jar);
        expect(html.status, p).toBe(200);
        expect(data.status, data.url).toBe(200);
        return [...leaksIn(p, normalise(html.text)), ...leaksIn(`${p} (.data)`, normalise(data.text))];
      })
    ).flat();
    expect(problems).toEqual([]);
  });

  it("keeps gated text out of search results, their .data and auto-suggest, searching for words and phrases of gated paragraphs", async () => {
    const { jar } = await meteredOutGuest();
    const problems = (
      await mapLimit(articles, async (a) => {
        // Articles only: issues and products that share the word's stem would push the card down.
        const q = `?q=${encodeURIComponent(a.searchWord)}&type=article`;
        const page = await get(`/search${q}`, jar);
        const data = await get(`/search.data${q}`, jar);
        expect(page.status, page.url).toBe(200);
        expect(data.status, data.url).toBe(200);
        const listed = cheerio.load(page.text)(`main a[href="${a.path}"]`).length > 0;
        // A gated paragraph's own words, as a phrase: the search that would surface it.
        const phrase = a.gated[0]?.split(" ").slice(0, 5).join(" ");
        const phrased = phrase ? await get(`/search?q=${encodeURIComponent(`"${phrase}"`)}`, jar) : null;
        const suggested = await get(`/service/search/auto-suggest?term=${encodeURIComponent(a.searchWord)}`, jar);
        expect(suggested.status, suggested.url).toBe(200);
        return [
          ...leaksIn(page.url, normalise(page.text)),
          ...leaksIn(data.url, normalise(data.text)),
          ...(phrased ? leaksIn(phrased.url, normalise(phrased.text)) : []),
          ...leaksIn(suggested.url, normalise(suggested.text)),
          ...(a.searchListsIt && !listed ? [`${page.url}: does not list ${a.path}, so its card went unchecked`] : []),
        ];
      })
    ).flat();
    expect(problems).toEqual([]);
    expect(articles.filter((a) => a.searchListsIt).length).toBeGreaterThanOrEqual(articles.length * 0.9);
  });

  it("keeps gated text out of every article's meta tags and JSON-LD, which marks the gated part only where it is served", async () => {
    const { visits } = await meteredOutGuest();
    const problems: string[] = [];
    for (const v of visits) {
      const { $ } = v;
      expect($('meta[name="description"]').attr("content"), v.article.path).toBeTruthy();
      expect($('meta[property="og:description"]').attr("content"), v.article.path).toBeTruthy();
      const metas = $("meta[content]")
        .map((_, m) => $(m).attr("content"))
        .get()
        .join(" | ");
      problems.push(...leaksIn(`${v.article.path} (meta)`, normalise(metas)));
      const ld = $('script[type="application/ld+json"]');
      expect(ld.length, v.article.path).toBe(1);
      const json = articleLd($);
      expect(json.isAccessibleForFree, v.article.path).toBe(false);
      // Where the wall stands in the gated part's place, there is no part for a selector to name.
      if (v.wall) expect(json.hasPart, v.article.path).toBeUndefined();
      else expect($(json.hasPart!.cssSelector), v.article.path).toHaveLength(1);
      problems.push(...leaksIn(`${v.article.path} (JSON-LD)`, normalise(ld.text())));
    }
    expect(problems).toEqual([]);
  });
});

describe("the meter, as a reader meets it", () => {
  it("counts a read toward Most Popular when the article opens, and none when the wall stands in its way", async () => {
    const reads = async (a: Article) =>
      Number(
        (
          await selectFromServer<{ n: number }>(
            database,
            "SELECT COALESCE(SUM(d.reads), 0) AS n FROM article_read_day d JOIN article ON article.id = d.article_id WHERE article.slug = ?",
            [a.slug],
          )
        )[0]!.n,
      );
    const jar = new CookieJar();
    const list = nonAscend();
    const first = list[0]!;
    const before = await reads(first);
    expectFullContent(await open(first, jar), first, "guest");
    expect(await reads(first)).toBe(before + 1);
    for (const a of list.slice(1, GUEST_LIMIT)) await open(a, jar);
    const walled = list[GUEST_LIMIT]!;
    const walledBefore = await reads(walled);
    expect((await open(walled, jar)).wall).toBe("registration");
    expect(await reads(walled)).toBe(walledBefore);
  });

  it("counts down 4, 3, 2, 1, 0 on the quota endpoint, then walls a new article", async () => {
    const jar = new CookieJar();
    const [first, second, third, fourth, fifth] = nonAscend();
    expect(await quota(jar)).toEqual({ limit: GUEST_LIMIT, count: 0, remaining: 4, metered: true });
    const remaining: number[] = [];
    for (const a of [first!, second!, third!, fourth!]) {
      expectFullContent(await open(a, jar), a, "guest");
      remaining.push((await quota(jar)).remaining);
    }
    expect(remaining).toEqual([3, 2, 1, 0]);
    expect((await open(fifth!, jar)).wall).toBe("registration");
    expect(await quota(jar)).toEqual({ limit: GUEST_LIMIT, count: GUEST_LIMIT, remaining: 0, metered: true });
  });

  it("does not use a free read to re-open an article already counted, before or after the meter runs out", async () => {
    const jar = new CookieJar();
    const [first, ...others] = nonAscend();
    expectFullContent(await open(first!, jar), first!, "guest");
    expect((await quota(jar)).count).toBe(1);
    expectFullContent(await open(first!, jar), first!, "guest re-opening");
    expect((await quota(jar)).count).toBe(1);
    for (const a of others.slice(0, GUEST_LIMIT - 1)) await open(a, jar);
    expect((await quota(jar)).count).toBe(GUEST_LIMIT);
    expectFullContent(await open(first!, jar), first!, "metered-out guest re-opening");
    expect((await quota(jar)).count).toBe(GUEST_LIMIT);
    expect((await open(others[GUEST_LIMIT]!, jar)).wall).toBe("registration");
  });

  it("meters Ascend articles on a separate quota of 3", async () => {
    const jar = new CookieJar();
    const ascend = ascendArticles();
    expect(await quota(jar, "ascend-quota")).toEqual({ limit: ASCEND_LIMIT, count: 0, remaining: ASCEND_LIMIT, metered: true });
    const remaining: number[] = [];
    for (const a of ascend.slice(0, ASCEND_LIMIT)) {
      expectFullContent(await open(a, jar), a, "guest reading Ascend");
      remaining.push((await quota(jar, "ascend-quota")).remaining);
    }
    expect(remaining).toEqual([2, 1, 0]);
    expect((await quota(jar)).count).toBe(0);
    expect((await open(ascend[ASCEND_LIMIT]!, jar)).wall).toBe("registration");
    // The article meter is untouched: a non-Ascend article still opens, on its own meter.
    const other = nonAscend()[0]!;
    expectFullContent(await open(other, jar), other, "guest after Ascend");
    expect(await quota(jar)).toMatchObject({ count: 1, remaining: GUEST_LIMIT - 1 });
    expect(await quota(jar, "ascend-quota")).toMatchObject({ count: ASCEND_LIMIT, remaining: 0 });
  });

  it("opens exactly the allowance when a guest requests many new articles at once", async () => {
    const jar = new CookieJar();
    await quota(jar); // the visitor cookie first, so every request is the same guest
    const burst = nonAscend().slice(0, 3 * GUEST_LIMIT);
    const pages = await Promise.all(burst.map((a) => open(a, jar)));
    const full = pages.filter((p) => !p.wall);
    expect(full.length).toBe(GUEST_LIMIT);
    expect((await quota(jar)).count).toBe(full.length);
    expect(pages.flatMap((p, i) => (p.wall ? leaksIn(burst[i]!.path, normalise(p.res.text)) : []))).toEqual([]);
  });

  it("treats a tampered visitor cookie as a fresh visitor, with no more than a fresh visitor's allowance", async () => {
    const jar = new CookieJar();
    const pool = nonAscend();
    for (const a of pool.slice(0, GUEST_LIMIT)) await open(a, jar);
    const original = jar.get("mr_visitor")!;
    expect(original).toBeTruthy();
    expect((await open(pool[GUEST_LIMIT]!, jar)).wall).toBe("registration");

    // Changes one letter or digit (not one of a %XX escape) at or after `from`.
    const flip = (value: string, from: number) => {
      let at = from;
      while (!/[A-Za-z0-9]/.test(value[at]!) || value[at - 1] === "%" || value[at - 2] === "%") at++;
      return value.slice(0, at) + (value[at] === "A" ? "B" : "A") + value.slice(at + 1);
    };
    const dot = original.indexOf(".");
    // One character changed in the signed id, then one in the signature.
    for (const tampered of [flip(original, Math.floor(dot / 2)), flip(original, dot + 5)]) {
      expect(tampered).not.toBe(original);
      const attacker = jar.clone();
      attacker.set("mr_visitor", tampered);
      const first = await open(pool[GUEST_LIMIT]!, attacker);
      const renewed = first.res.setCookie.find((c) => c.startsWith("mr_visitor="));
      expect(renewed, "a new visitor cookie").toBeTruthy();
      const fresh = attacker.get("mr_visitor")!;
      expect(fresh).not.toBe(tampered);
      expect(fresh).not.toBe(original);
      expectFullContent(first, pool[GUEST_LIMIT]!, "guest with a tampered cookie");
      expect(await quota(attacker)).toMatchObject({ count: 1, remaining: GUEST_LIMIT - 1 });
      // A fresh visitor's allowance, and no more.
      for (const a of pool.slice(GUEST_LIMIT + 1, 2 * GUEST_LIMIT))
        expectFullContent(await open(a, attacker), a, "guest with a tampered cookie");
      const walled = await open(pool[2 * GUEST_LIMIT]!, attacker);
      expect(walled.wall).toBe("registration");
      expect(leaksIn("tampered cookie wall", normalise(walled.res.text))).toEqual([]);
      expect(await quota(attacker)).toMatchObject({ count: GUEST_LIMIT, remaining: 0 });
    }
    // The original visitor's meter is unchanged by all this.
    expect(await quota(jar)).toMatchObject({ count: GUEST_LIMIT, remaining: 0 });
  });

  it("carries a guest's reads over at registration: 3 read, then count 3 of 8", async () => {
    const jar = new CookieJar();
    for (const a of nonAscend().slice(0, 3)) expectFullContent(await open(a, jar), a, "guest before registering");
    expect(await quota(jar)).toMatchObject({ limit: GUEST_LIMIT, count: 3 });
    await register(jar, "carried.over@example.org");
    expect(await quota(jar)).toEqual({ limit: REGISTERED_LIMIT, count: 3, remaining: REGISTERED_LIMIT - 3, metered: true });
    // An article read as a guest is already counted on the account.
    expectFullContent(await open(nonAscend()[0]!, jar), nonAscend()[0]!, "newly registered reader");
    expect((await quota(jar)).count).toBe(3);
  });
});

describe("no shared cache keeps an article page", () => {
  beforeAll(() => Promise.all([meteredOutGuest(), cookielessClient(), meteredOutRegistered()]), SETUP_LIMIT_MS);

  it("sends Cache-Control private or no-store on walled and unwalled pages and their .data", async () => {
    const visits = [...(await meteredOutGuest()).visits, ...(await cookielessClient()), ...(await meteredOutRegistered()).visits];
    expect(visits.some((v) => v.wall)).toBe(true);
    expect(visits.some((v) => !v.wall)).toBe(true);
    const bad = visits
      .flatMap((v) => [v.html, v.data])
      .filter((r) => !/(^|,)\s*(private|no-store)\s*(,|$)/i.test(r.cacheControl) || /\b(public|s-maxage)\b/i.test(r.cacheControl))
      .map((r) => `${r.url}: Cache-Control "${r.cacheControl}"`);
    expect(bad).toEqual([]);
  });
});
