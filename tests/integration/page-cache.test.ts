import crypto from "node:crypto";
import http from "node:http";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as cheerio from "cheerio";
import { latestArticles } from "~/tests/helpers/api-site";
import { registeredReader, type Reader } from "~/tests/helpers/reader";
import { startBuiltServer, type RunningServer } from "~/tests/helpers/server";

let server: RunningServer;

beforeAll(async () => {
  server = await startBuiltServer();
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The bytes as sent (fetch would undo the Content-Encoding, and hide which one came). */
  body: Buffer;
}

function get(path: string, encoding = "br", method = "GET"): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(server.url + path, { method, headers: { "Accept-Encoding": encoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject).end();
  });
}

function decoded(answer: Answer): string {
  const encoding = answer.headers["content-encoding"];
  const { body } = answer;
  return (encoding === "br" ? zlib.brotliDecompressSync(body) : encoding === "gzip" ? zlib.gunzipSync(body) : body).toString();
}

const inlineScripts = (html: string) => [...html.matchAll(/<script\b(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
const sha256 = (text: string) => `'sha256-${crypto.createHash("sha256").update(text).digest("base64")}'`;
const scriptSources = (answer: Answer) =>
  /script-src ([^;]*)/.exec(String(answer.headers["content-security-policy"]))?.[1]?.split(" ") ?? [];

/**
 * Asks for a page until the cache answers with its compressed copy, made on the thread pool after
 * the first render. The deadline only guards against a hang; a loaded machine just takes longer.
 */
async function untilPrecompressed(path: string, encoding: string): Promise<Answer> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const answer = await get(path, encoding);
    if (answer.headers["x-page-cache"] === "hit" && answer.headers["content-length"]) return answer;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${path} was never served precompressed (${encoding})`);
}

describe("the guest-page cache, over HTTP", () => {
  it("renders a guest's page once, then sends the same document with its scripts allowed by hash instead of a nonce", async () => {
    const first = await get("/topics", "identity");
    expect(first.headers["x-page-cache"]).toBe("miss");
    const rendered = decoded(first);
    const nonce = /'nonce-([^']+)'/.exec(String(first.headers["content-security-policy"]))?.[1];
    expect(nonce).toBeTruthy();

    const hit = await get("/topics", "identity");
    expect(hit.headers["x-page-cache"]).toBe("hit");
    const served = decoded(hit);
    expect(served).toBe(rendered.replaceAll(` nonce="${nonce}"`, ""));
    // What a browser enforces: no nonce to reuse, and every inline script allowed by its hash.
    const sources = scriptSources(hit);
    expect(sources.some((s) => s.startsWith("'nonce-"))).toBe(false);
    const scripts = inlineScripts(served);
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.map(sha256).filter((h) => !sources.includes(h))).toEqual([]);
  });

  it("sends a kept page compressed once, in brotli or gzip as the browser asks, and answers HEAD with its length alone", async () => {
    const plain = decoded(await get("/the-latest", "identity"));
    for (const encoding of ["br", "gzip"]) {
      const answer = await untilPrecompressed("/the-latest", encoding);
      expect(answer.headers["content-encoding"]).toBe(encoding);
      expect(answer.headers.vary).toMatch(/Accept-Encoding/i);
      expect(Number(answer.headers["content-length"])).toBe(answer.body.length);
      expect(decoded(answer)).toBe(plain.replace(/ nonce="[^"]+"/g, ""));
    }
    const head = await get("/the-latest", "br", "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers["x-page-cache"]).toBe("hit");
    expect(head.body.length).toBe(0);
  });

  it("keeps no private page, and no page that failed", async () => {
    for (const path of ["/sign-in", "/shopping-cart", "/my-library"]) {
      expect((await get(path)).headers["x-page-cache"], path).toBeUndefined();
    }
    for (let i = 0; i < 2; i++) {
      const missing = await get("/topic/no-such-topic-anywhere");
      expect(missing.status).toBe(404);
      expect(missing.headers["x-page-cache"]).toBeUndefined();
    }
  });
});

describe("a signed-in reader's page, kept once for every reader of a kind (ADR 096)", () => {
  const article = "/2026/10/leading-a-team-across-eight-time-zones";
  // Everything a display name may hold that HTML, a script or a JSON string would need escaped.
  const trickyName = `</script><b>"Nell" & 'Co'\u2028\\x`;

  async function open(reader: Reader, path = article) {
    let res = await reader.request(path);
    if (res.status === 302) res = await reader.request(res.headers.get("location")!);
    expect(res.status).toBe(200);
    const html = await res.text();
    const nonce = /'nonce-([^']+)'/.exec(res.headers.get("content-security-policy") ?? "")?.[1];
    const $ = cheerio.load(html);
    const layer = JSON.parse(/^window\.meridianDataLayer=(.*);$/s.exec($("script[data-analytics]").html() ?? "")![1]!) as {
      user: { username: string; userState: string; quota: { remaining: number } | null };
    };
    // The route data for hydration, as turbo-stream wrote it: a flat array of its values.
    const enqueued = /streamController\.enqueue\(("(?:[^"\\]|\\.)*")\)/.exec(html)![1]!;
    const hydration = JSON.parse(JSON.parse(enqueued) as string) as unknown[];
    return { html, $, cache: res.headers.get("x-page-cache"), nonce, layer, hydration };
  }

  const emailOf = async (reader: Reader) =>
    cheerio
      .load(await (await reader.request("/my-account")).text())("input[name=emailAddress]")
      .attr("value")!;

  it("renders the page once, and gives each reader their own name, data layer and nonce", async () => {
    const first = await registeredReader(server.url);
    const second = await registeredReader(server.url);
    const [firstEmail, secondEmail] = [await emailOf(first), await emailOf(second)];
    const renamed = await first.request("/my-account", {
      form: { intent: "profile", displayName: trickyName, emailAddress: firstEmail, industry: "", jobTitle: "", companySize: "" },
    });
    expect(renamed.status).toBe(303);

    const firstPage = await open(first);
    const secondPage = await open(second);
    const again = await open(first);
    expect(firstPage.cache).toBe("miss");
    expect([secondPage.cache, again.cache]).toEqual(["hit", "hit"]);

    for (const [page, email, name, other] of [
      [again, firstEmail, trickyName, secondEmail],
      [secondPage, secondEmail, "Nell Ransome", firstEmail],
    ] as const) {
      expect(page.$('a[href="/my-account"]').first().text()).toBe(name);
      expect(page.$('a[href="/my-account"]').first().attr("aria-label")).toBe(`My account: ${name}`);
      expect(page.layer.user).toMatchObject({ username: email, userState: "Registered", quota: { remaining: 7 } });
      expect(page.hydration).toContain(name);
      expect(page.html).not.toContain(other);
      expect(page.html).not.toMatch(/[\uE000-\uF8FF]/);
      // Every inline script runs under this response's own nonce, and no other.
      expect(page.nonce).toBeTruthy();
      expect(new Set([...page.html.matchAll(/ nonce="([^"]+)"/g)].map((m) => m[1]))).toEqual(new Set([page.nonce]));
    }
    expect(again.nonce).not.toBe(firstPage.nonce);
    // A navigation's data carries the values themselves: no render is there to fill marks.
    const navigation = await (await second.request("/the-latest.data")).text();
    expect(navigation).toContain(secondEmail);
    expect(navigation).not.toMatch(/[\uE000-\uF8FF]/);
    expect(secondPage.html).not.toContain("Nell&quot;");
    expect(again.html).not.toContain("<b>");
  });

  it("keeps one page for readers at different counts, each shown their own", async () => {
    const ahead = await registeredReader(server.url);
    const fresh = await registeredReader(server.url);
    // An article no reader has opened yet, so its first render is this test's.
    const [target, ...others] = (await latestArticles(server.url)).map((a) => a.path).filter((path) => path !== article);
    for (const path of others.slice(0, 3)) expect((await ahead.request(path)).status).toBe(200);

    const aheadPage = await open(ahead, target);
    const freshPage = await open(fresh, target);
    expect([aheadPage.cache, freshPage.cache]).toEqual(["miss", "hit"]);
    const remaining = [aheadPage.layer.user.quota!.remaining, freshPage.layer.user.quota!.remaining];
    expect(remaining).toEqual([4, 7]);
    for (const [page, left] of [
      [aheadPage, 4],
      [freshPage, 7],
    ] as const) {
      const counter = `You have ${left} free articles left this month.`;
      expect(page.$("[data-counter] span").first().text()).toBe(counter);
      expect(page.hydration).toContain(counter);
      expect(page.hydration).toContainEqual(expect.stringContaining(`"remaining":${left}`));
      expect(page.html).not.toMatch(/[\uE000-\uF8FF]/);
    }
  });
});
