import crypto from "node:crypto";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { inlineScriptHashes, PageCache, pageKey } from "~/server/http/page-cache";

const NONCE = "q1w2e3r4t5y6u7i8o9p0aA==";
const page = (words: string) =>
  `<!DOCTYPE html><html><head><script nonce="${NONCE}" src="/assets/entry.js" type="module"></script></head>` +
  `<body><p>${words}</p><script nonce="${NONCE}">window.__ctx = ${JSON.stringify(words)};</script>` +
  `<script type="application/ld+json" nonce="${NONCE}">{"@type":"Article"}</script></body></html>`;
const sha256 = (text: string) => `'sha256-${crypto.createHash("sha256").update(text).digest("base64")}'`;

describe("the guest-page cache", () => {
  it("keeps a page without its nonce, with a hash for each inline script, and compresses it once it is asked for again", async () => {
    const cache = new PageCache({ maxBytes: 1_000_000, maxAgeMs: 60_000 });
    cache.store("k", page("Markets in 1956"), NONCE);
    // Stored, it is the document alone: nothing is compressed for a page asked for once.
    await cache.settled("k");
    const plainBytes = cache.size.bytes;
    expect(plainBytes).toBe(Buffer.byteLength(page("Markets in 1956").replaceAll(` nonce="${NONCE}"`, "")));
    const kept = cache.get("k")!;
    await cache.settled("k");
    expect(cache.size.bytes).toBeGreaterThan(plainBytes);
    const html = kept.html.toString();
    expect(html).not.toContain(NONCE);
    expect(html).toBe(page("Markets in 1956").replaceAll(` nonce="${NONCE}"`, ""));
    expect(kept.scriptHashes).toEqual([sha256('window.__ctx = "Markets in 1956";'), sha256('{"@type":"Article"}')]);
    expect(zlib.brotliDecompressSync(kept.br!).toString()).toBe(html);
    expect(zlib.gunzipSync(kept.gzip!).toString()).toBe(html);
  });

  it("hashes identical inline scripts once", () => {
    expect(inlineScriptHashes("<script>a()</script><script>a()</script><script>b()</script>")).toEqual([sha256("a()"), sha256("b()")]);
  });

  it("gives different keys to different parts, even when their text run together is the same", () => {
    expect(pageKey("/a", '{"x":1}')).toBe(pageKey("/a", '{"x":1}'));
    expect(pageKey("/a", '{"x":1}')).not.toBe(pageKey("/a", '{"x":2}'));
    expect(pageKey("/ab", "c")).not.toBe(pageKey("/a", "bc"));
  });

  it("forgets a page once it is older than its lifetime", async () => {
    let now = 1_000;
    const cache = new PageCache({ maxBytes: 1_000_000, maxAgeMs: 300_000, now: () => now });
    cache.store("k", page("x"), NONCE);
    now += 300_000;
    expect(cache.get("k")).toBeDefined();
    now += 1;
    expect(cache.get("k")).toBeUndefined();
    expect(cache.size).toEqual({ pages: 0, bytes: 0 });
  });

  it("stays within its bytes by dropping the least recently used page, and never keeps a page too big for it", async () => {
    const text = (k: string) => page(k.repeat(2000));
    /** Stored and asked for once, so that it holds its compressed copies too. */
    const keep = async (cache: PageCache, k: string) => {
      cache.store(k, text(k), NONCE);
      cache.get(k);
      await cache.settled(k);
    };
    const measure = new PageCache({ maxBytes: 1_000_000, maxAgeMs: 60_000 });
    await keep(measure, "a");
    const entry = measure.size.bytes; // the document and its two compressed copies
    const cache = new PageCache({ maxBytes: entry * 5.5, maxAgeMs: 60_000 });
    for (const k of ["a", "b", "c", "d", "e"]) await keep(cache, k);
    expect(cache.get("a")).toBeDefined();
    await keep(cache, "f");
    expect(["a", "b", "c", "d", "e", "f"].filter((k) => cache.get(k))).toEqual(["a", "c", "d", "e", "f"]);
    expect(cache.size.bytes).toBeLessThanOrEqual(entry * 5.5);

    cache.store("huge", page("h".repeat(entry * 2)), NONCE);
    expect(cache.get("huge")).toBeUndefined();
  });
});
