import * as cheerio from "cheerio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type Database } from "~/server/db/connection";
import { indexArticles } from "~/server/search/documents";
import { everywhere, HOSTILE, problems, SAFE_HREF } from "~/tests/helpers/hostile-markdown";
import { Reader } from "~/tests/helpers/reader";
import { startBuiltServer, type RunningServer } from "~/tests/helpers/server";
import { jsonLdOfType } from "~/tests/helpers/structured-data";
import { isolatedConnection, type IsolatedConnection } from "~/tests/helpers/test-db";

// An article whose every text an attacker wrote (issue 38, "Security"), as the production build
// serves it: the body within the Markdown subset, the title and the rest only ever text, in the
// page, its meta tags and JSON-LD, its social card, search results and the RSS feed.

const WORD = "quillfeather";
const TITLE = `</script><script>alert(1)</script> ]]> <!-- ${WORD} "x" & 'y' \u2028 \u202Eevil\u000B`;
const SUMMARY = `<img src=x onerror=alert(1)> ${WORD} </title><script>alert(2)</script>`;
const BIO = `<svg onload=alert(1)> & <a href="javascript:alert(1)">bio</a>`;
const BODY = [
  `First ${WORD} paragraph, with [a study](https://example.org/study?a=1&b=2) and [a topic](/topics/strategy).`,
  ...HOSTILE.map(([, source]) => everywhere(source)),
].join("\n\n");

let server: RunningServer;
let connection: IsolatedConnection;
let db: Database;
let path: string;

beforeAll(async () => {
  connection = await isolatedConnection("hostile");
  db = connect(connection);
  const article = await db
    .selectFrom("article")
    .select(["id", "slug", "year", "month"])
    .where("tier", "=", "article")
    .orderBy("published", "desc")
    .orderBy("id", "desc")
    .executeTakeFirstOrThrow();
  await db
    .updateTable("article_record")
    .set({ title: TITLE, dek: SUMMARY, summary: SUMMARY, body: BODY })
    .where("id", "=", article.id)
    .execute();
  const author = await db.selectFrom("article_author").select("author_id").where("article_id", "=", article.id).executeTakeFirstOrThrow();
  await db.updateTable("author").set({ bio: BIO }).where("id", "=", author.author_id).execute();
  await indexArticles(db, { fromId: article.id, toId: article.id });
  path = `/${article.year}/${String(article.month).padStart(2, "0")}/${article.slug}`;
  server = await startBuiltServer({}, "production", connection);
}, 120_000);

afterAll(async () => {
  await db?.destroy();
  await server?.stop();
  await connection?.drop();
});

/**
 * What an attacker's text would have made of a page, anywhere in it: an event handler, a script
 * address, the payloads' own elements, or a script that runs a payload (the route's data script
 * holds the payloads too, as JSON strings).
 */
function injected($: cheerio.CheerioAPI): string[] {
  const found: string[] = [];
  $("*").each((_, el) => {
    const { name, attribs } = el as unknown as { name: string; attribs: Record<string, string> };
    if (["iframe", "object", "embed"].includes(name)) found.push(`<${name}>`);
    if (name === "img" && attribs.src === "x") found.push("<img src=x>");
    for (const [attribute, value] of Object.entries(attribs)) {
      if (attribute.startsWith("on")) found.push(`${name} ${attribute}`);
      if (/^\s*(javascript|vbscript|data):/i.test(value)) found.push(`${name} ${attribute}=${value}`);
    }
  });
  $("script").each((_, el) => {
    const script = $(el).html() ?? "";
    if (/^\s*alert\(\d\)/.test(script)) found.push(`script ${script}`);
    if ($(el).attr("type") === "application/ld+json") JSON.parse(script);
  });
  return found;
}

describe("an article an attacker wrote", () => {
  it("shows its body within the subset, its links to http(s) and the site only", async () => {
    const $ = await new Reader(server.url).page(path);
    const body = $("#article-body");
    const partClass = body.children("div").first().attr("class")!;
    const parts = body.find("div").filter((_, div) => $(div).attr("class") === partClass);
    // The preview and, as a guest with free reads has it, the text either side of the promo.
    expect(parts).toHaveLength(3);
    const quoteClass = body.find("blockquote").first().attr("class")!;
    for (const part of parts.toArray()) expect(problems($(part).html()!, quoteClass)).toEqual([]);
    expect(body.find("blockquote").length).toBeGreaterThan(0);
    const hrefs = body
      .find("a[href]")
      .map((_, a) => $(a).attr("href"))
      .get();
    expect(hrefs.slice(0, 2)).toEqual(["https://example.org/study?a=1&b=2", "/topics/strategy"]);
    expect(hrefs.every((href: string) => SAFE_HREF.test(href))).toBe(true);
    expect(body.text()).toContain("<script>alert(1)</script>");
    expect(body.text()).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(injected($)).toEqual([]);
  });

  it("keeps its title, summary and author's bio text in the page, its meta tags and its JSON-LD", async () => {
    const $ = await new Reader(server.url).page(path);
    expect(injected($)).toEqual([]);
    expect($("h1").first().text()).toBe(TITLE);
    expect($("title").text()).toBe(`${TITLE} | Meridian Review`);
    expect($('meta[property="og:title"]').attr("content")).toBe(TITLE);
    expect($('meta[name="description"]').attr("content")).toBe(SUMMARY);
    expect($("main").text()).toContain(BIO);
    const jsonLd = jsonLdOfType($, "NewsArticle");
    expect(jsonLd).toMatchObject({ headline: TITLE, description: SUMMARY });
    const card = await fetch($('meta[property="og:image"]').attr("content")!);
    expect([card.status, card.headers.get("content-type")]).toEqual([200, "image/png"]);
  });

  it("is found by search, its snippet and title as text", async () => {
    const $ = await new Reader(server.url).page(`/search?q=${WORD}`);
    expect(injected($)).toEqual([]);
    expect($("main").text()).toContain(TITLE.slice(0, 40));
    expect($(`main a[href="${path}"]`).length).toBeGreaterThan(0);
  });

  it("is in the RSS feed as text", async () => {
    const res = await fetch(`${server.url}/feeds/latest.xml`);
    expect(res.status).toBe(200);
    const $ = cheerio.load(await res.text(), { xml: true });
    const item = $("item").filter((_, el) => $(el).find("link").text().endsWith(path));
    expect(item.find("title").text()).toBe(TITLE.replace("\u000B", ""));
    expect(item.find("description").text()).toBe(SUMMARY);
    expect(item.find("script, img")).toHaveLength(0);
  });
});
