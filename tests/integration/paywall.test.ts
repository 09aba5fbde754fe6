import path from "node:path";
import * as cheerio from "cheerio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blockText, parseBody } from "../../server/content/markdown";
import type { ContentTier } from "../../server/db/schema";
import { loadSeedContent } from "../../server/seed/content-source";
import { startBuiltServer, type RunningServer } from "../helpers/server";

// The publisher's promise, checked against the production build: the paywalled part of an
// article (everything after the preview) never reaches a browser, feed, API or search snippet
// of a reader who is not entitled to it. Every article of the seed content is requested as
// three readers (a metered-out guest, a fresh guest, a metered-out registered reader); each
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

let server: RunningServer;

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
  const searchedFields = (a: (typeof parsed)[number]) => normalise([a.seed.title, a.seed.dek, a.seed.summary].join(" \n "));
  // What any page may show: titles, deks, summaries, previews and author bios of every article.
  const publicText = [
    ...parsed.map((a) => `${publicFields(a)} | ${a.blocks.slice(0, PREVIEW_BLOCKS).map((b) => normalise(blockText(b))).join(" | ")}`),
    ...content.authors.map((a) => normalise(`${a.name} ${a.role} ${a.bio}`)),
  ].join(" | ");
  const gatedOf = (a: (typeof parsed)[number]) =>
    a.blocks
      .slice(PREVIEW_BLOCKS)
      .map((b) => normalise(blockText(b)))
      .filter((t) => t.length >= 100);
  const allGated = parsed.map((a) => gatedOf(a).join(" | "));

  return parsed.map((a, index) => {
    const gatedTexts = gatedOf(a);
    const otherGated = allGated.filter((_, i) => i !== index).join(" | ");
    const gated = gatedTexts.map(middleSlice).filter((s) => !publicText.includes(s) && !otherGated.includes(s));
    const preview = a.blocks
      .slice(0, PREVIEW_BLOCKS)
      .map((b) => normalise(blockText(b)))
      .map((t) => (t.length > SLICE ? middleSlice(t) : t));

    // Search looks at titles, deks and summaries: a gated word that is also in those finds this
    // article, so its result card is there to leak. The rarest such word keeps it on page one.
    const fields = searchedFields(a);
    const candidates = [...new Set(gatedTexts.join(" ").split(" "))].filter((w) => w.length >= 6 && /^[a-z]+$/.test(w));
    const listed = candidates
      .filter((w) => fields.split(" ").includes(w))
      .map((w) => ({ w, hits: parsed.filter((p) => searchedFields(p).includes(w)).length }))
      .sort((x, y) => x.hits - y.hits || x.w.localeCompare(y.w));
    const best = listed[0];
    const searchWord = best && best.hits <= 10 ? best.w : candidates.sort((x, y) => y.length - x.length || x.localeCompare(y))[0]!;
    return {
      slug: a.seed.slug,
      tier: a.seed.tier,
      ascend: a.seed.streams.includes("ascend"),
      preview,
      gated,
      searchWord,
      searchListsIt: Boolean(best && best.hits <= 10),
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

interface Fetched {
  url: string;
  status: number;
  cacheControl: string;
  setCookie: string[];
  text: string;
}

/** GET as a reader: with their jar (kept up to date), or as a stranger with no cookies at all. */
async function get(path: string, jar: CookieJar | null): Promise<Fetched> {
  const res = await fetch(server.url + path, { redirect: "manual", headers: jar ? { Cookie: jar.header() } : {} });
  jar?.absorb(res);
  return { url: path, status: res.status, cacheControl: res.headers.get("cache-control") ?? "", setCookie: res.headers.getSetCookie(), text: await res.text() };
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

async function visit(article: Article, jar: CookieJar | null, query = ""): Promise<ArticleVisit> {
  const html = await get(article.path + query, jar);
  const data = await get(`${article.path}.data${query}`, jar);
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

const gatedText = ($: cheerio.CheerioAPI) => normalise($(".paywalled-content").html() ?? "");
const bodyText = ($: cheerio.CheerioAPI) => normalise($("#article-body").html() ?? "");

/** The full article was served: no wall, and every gated slice of it inside the gated wrapper. */
function expectFullContent(page: { $: cheerio.CheerioAPI; wall: string | undefined }, article: Article, who: string): void {
  expect(page.wall, `${who} ${article.path}: wall`).toBeUndefined();
  const inside = gatedText(page.$);
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

/** A stranger per request: no cookies at all, so every request is a first free read. */
const freshGuests = once(() => mapLimit(articles, (a) => visit(a, null)));

/** A registered reader who used up the registered meter (8 articles), then requests every article. */
const meteredOutRegistered = once(async () => {
  const jar = new CookieJar();
  await register(jar, "metered.out@example.org");
  const counted = nonAscend().slice(-REGISTERED_LIMIT);
  for (const a of counted) expectFullContent(await open(a, jar), a, "registered reader using up the meter");
  const visits = await mapLimit(articles, (a) => visit(a, jar));
  return { jar, counted: new Set(counted.map((a) => a.slug)), visits };
});

beforeAll(async () => {
  server = await startBuiltServer({
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
  });
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
}, 120_000);

afterAll(async () => {
  await server?.stop();
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
  beforeAll(() => meteredOutGuest(), 120_000);

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

  it("keeps the wall up whatever the query: other wall screens, a reading list, a made-up gift link", async () => {
    const { jar, visits } = await meteredOutGuest();
    const walled = visits.filter((v) => v.wall).map((v) => v.article);
    const queries = ["?paywall=sign-in", "?paywall=forgot-password", "?list=your-first-years-as-a-manager", "?list=from-first-customer-to-scale", `?gift=${"A".repeat(43)}`];
    const variants = await mapLimit(walled, (a, i) => visit(a, jar, queries[i % queries.length]));
    for (const v of variants) expect(v.wall, v.html.url).toBe("registration");
    expect(variants.flatMap((v) => walledProblems(v, "metered-out guest"))).toEqual([]);
  });
});

describe("a fresh guest (no cookies) is entitled to a first free read", () => {
  beforeAll(() => freshGuests(), 120_000);

  it("serves every article in full, in the page and in the loader data, and gives a new HttpOnly, SameSite=Lax visitor cookie", async () => {
    for (const v of await freshGuests()) {
      expectFullContent(v, v.article, "fresh guest");
      // The leak detector finds the gated text where it would leak: inline loader data and .data.
      const scripts = normalise(
        v.$("script:not([src])")
          .map((_, s) => v.$(s).html())
          .get()
          .join(" | "),
      );
      const data = normalise(v.data.text);
      expect(v.article.gated.filter((s) => !scripts.includes(s)), `${v.article.path}: gated text in inline loader data`).toEqual([]);
      expect(v.article.gated.filter((s) => !data.includes(s)), `${v.article.path}: gated text in .data`).toEqual([]);
      for (const res of [v.html, v.data]) {
        const cookie = res.setCookie.find((c) => c.startsWith("mr_visitor="));
        expect(cookie, `${res.url}: visitor cookie`).toBeTruthy();
        expect(cookie).toMatch(/;\s*HttpOnly/i);
        expect(cookie).toMatch(/;\s*SameSite=Lax/i);
      }
    }
  });
});

describe("a registered reader who has used up the meter never receives gated text", () => {
  beforeAll(() => meteredOutRegistered(), 120_000);

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
  beforeAll(() => meteredOutGuest(), 120_000);

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

  it("keeps gated text out of search results and their .data, searching for words of gated paragraphs", async () => {
    const { jar } = await meteredOutGuest();
    const problems = (
      await mapLimit(articles, async (a) => {
        const q = `?q=${encodeURIComponent(a.searchWord)}`;
        const page = await get(`/search${q}`, jar);
        const data = await get(`/search.data${q}`, jar);
        expect(page.status, page.url).toBe(200);
        expect(data.status, data.url).toBe(200);
        const listed = cheerio.load(page.text)(`main a[href="${a.path}"]`).length > 0;
        return [
          ...leaksIn(page.url, normalise(page.text)),
          ...leaksIn(data.url, normalise(data.text)),
          ...(a.searchListsIt && !listed ? [`${page.url}: does not list ${a.path}, so its card went unchecked`] : []),
        ];
      })
    ).flat();
    expect(problems).toEqual([]);
    expect(articles.filter((a) => a.searchListsIt).length).toBeGreaterThanOrEqual(articles.length / 2);
  });

  it("keeps gated text out of every article's meta tags and JSON-LD, which marks the gated part", async () => {
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
      const json = JSON.parse(ld.text()) as { isAccessibleForFree: unknown; hasPart: { isAccessibleForFree: unknown; cssSelector: unknown } };
      expect(json.isAccessibleForFree, v.article.path).toBe(false);
      expect(json.hasPart, v.article.path).toMatchObject({ isAccessibleForFree: false, cssSelector: ".paywalled-content" });
      problems.push(...leaksIn(`${v.article.path} (JSON-LD)`, normalise(ld.text())));
    }
    expect(problems).toEqual([]);
  });
});

describe("the meter, as a reader meets it", () => {
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

  it("opens no more than the allowance when a guest requests many new articles at once", async () => {
    const jar = new CookieJar();
    await quota(jar); // the visitor cookie first, so every request is the same guest
    const burst = nonAscend().slice(0, 3 * GUEST_LIMIT);
    const pages = await Promise.all(burst.map((a) => open(a, jar)));
    const full = pages.filter((p) => !p.wall);
    expect(full.length).toBeLessThanOrEqual(GUEST_LIMIT);
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
      for (const a of pool.slice(GUEST_LIMIT + 1, 2 * GUEST_LIMIT)) expectFullContent(await open(a, attacker), a, "guest with a tampered cookie");
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
  beforeAll(() => Promise.all([meteredOutGuest(), freshGuests(), meteredOutRegistered()]), 120_000);

  it("sends Cache-Control private or no-store on walled and unwalled pages and their .data", async () => {
    const visits = [...(await meteredOutGuest()).visits, ...(await freshGuests()), ...(await meteredOutRegistered()).visits];
    expect(visits.some((v) => v.wall)).toBe(true);
    expect(visits.some((v) => !v.wall)).toBe(true);
    const bad = visits
      .flatMap((v) => [v.html, v.data])
      .filter((r) => !/(^|,)\s*(private|no-store)\s*(,|$)/i.test(r.cacheControl) || /\b(public|s-maxage)\b/i.test(r.cacheControl))
      .map((r) => `${r.url}: Cache-Control "${r.cacheControl}"`);
    expect(bad).toEqual([]);
  });
});
