import crypto from "node:crypto";
import http from "node:http";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
