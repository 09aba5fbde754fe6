import { createElement, type ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ContentCache } from "~/server/content/content-cache";
import { blocksToHtml, parseBody, type Block } from "~/server/content/markdown";
import type { Database } from "~/server/db/connection";

// What the article body rendered as React elements before it was rendered to HTML on the server.
function asElements(blocks: Block[]): ReactElement {
  const h = createElement;
  return h(
    "div",
    null,
    blocks.map((b, i) => {
      switch (b.type) {
        case "heading":
          return h("h2", { key: i }, b.text);
        case "list":
          return h(
            "ul",
            { key: i },
            b.items.map((item, j) => h("li", { key: j }, item)),
          );
        case "quote":
          return h("blockquote", { key: i, className: "quote" }, h("p", null, b.text));
        case "paragraph":
          return h("p", { key: i }, b.text);
      }
    }),
  );
}

describe("article body HTML", () => {
  const body = [
    "Intro with <script>alert(1)</script> & \"quotes\" and 'apostrophes'.",
    "## A <b>heading</b>",
    "- first <img src=x onerror=alert(1)>\n- second & third",
    "> A pull quote with </p><p>markup",
    "Last paragraph.",
  ].join("\n\n");

  it("is the markup React renders for the same blocks", () => {
    const blocks = parseBody(body);
    const html = blocksToHtml(blocks, { quoteClass: "quote" });
    expect(`<div>${html}</div>`).toBe(renderToStaticMarkup(asElements(blocks)));
  });

  it("escapes every text, so the source cannot add elements or attributes", () => {
    const html = blocksToHtml(parseBody(body), { quoteClass: '"><script>' });
    expect(html).not.toMatch(/<(script|img|b)\b/);
    expect(html).not.toContain("</p><p>markup");
    expect(html.match(/<[a-z0-9]+/g)).toEqual(["<p", "<h2", "<ul", "<li", "<li", "<blockquote", "<p", "<p"]);
  });
});

describe("content cache", () => {
  const dbA = {} as Database;
  const dbB = {} as Database;

  it("loads once per key and database", async () => {
    const cache = new ContentCache<number>(10, 60_000);
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.get(dbA, "x", load)).toBe(1);
    expect(await cache.get(dbA, "x", load)).toBe(1);
    expect(await cache.get(dbB, "x", load)).toBe(2);
  });

  it("keeps at most its size, dropping the least recently used", async () => {
    const cache = new ContentCache<string>(2, 60_000);
    let loads = 0;
    const load = (v: string) => async () => (loads++, v);
    await cache.get(dbA, "a", load("a"));
    await cache.get(dbA, "b", load("b"));
    await cache.get(dbA, "a", load("a")); // a is now the most recent
    await cache.get(dbA, "c", load("c")); // drops b
    expect(loads).toBe(3);
    await cache.get(dbA, "a", load("a"));
    expect(loads).toBe(3);
    await cache.get(dbA, "b", load("b"));
    expect(loads).toBe(4);
  });

  it("does not keep a failed load or an expired entry", async () => {
    let now = 1_000;
    const cache = new ContentCache<number>(10, 60_000, { now: () => now });
    await expect(cache.get(dbA, "x", () => Promise.reject(new Error("down")))).rejects.toThrow("down");
    let loads = 0;
    await cache.get(dbA, "x", async () => ++loads);
    now += 59_999;
    await cache.get(dbA, "x", async () => ++loads);
    expect(loads).toBe(1);
    now += 2;
    await cache.get(dbA, "x", async () => ++loads);
    expect(loads).toBe(2);
  });
});
