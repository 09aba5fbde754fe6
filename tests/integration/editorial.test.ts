import * as cheerio from "cheerio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type Database } from "~/server/db/connection";
import { COMMAND_LINE } from "~/server/desk/audit";
import { createArticle, publishArticle, saveArticle, unpublishArticle, type DeskArticle } from "~/server/desk/articles";
import type { ArticleFields } from "~/shared/article-fields";
import { newArticleFields } from "~/tests/helpers/article-fields";
import { Reader, registeredReader } from "~/tests/helpers/reader";
import { createApiKey } from "~/server/desk/api-keys";
import { startBuiltServer, type RunningServer } from "~/tests/helpers/server";
import { isolatedConnection, type IsolatedConnection } from "~/tests/helpers/test-db";

// What readers get at an article's addresses once the desk has moved or withdrawn it (ADR 076),
// from the production build: the test changes articles in the server's database through the
// editorial domain, then asks the server. Each address is asked for only after its change, so
// no cache of the server's stands between (caches follow changes within a second; tests/db/editorial).

let server: RunningServer;
/** A second instance on the same database, as behind a load balancer. */
let other: RunningServer;
let connection: IsolatedConnection;
let database: Database;
let base: ArticleFields;

beforeAll(async () => {
  connection = await isolatedConnection("editorial");
  [server, other] = await Promise.all([startBuiltServer({}, "production", connection), startBuiltServer({}, "production", connection)]);
  database = connect(connection);
  const today = new Date().toISOString().slice(0, 10);
  // Each article gets its own title and slug where it is made.
  base = await newArticleFields(database, { title: "", slug: "", published: today, body: "One paragraph.\n\nAnother paragraph." });
}, 120_000);

afterAll(async () => {
  await database?.destroy();
  await Promise.all([server?.stop(), other?.stop()]);
  await connection?.drop();
});

async function published(title: string, slug: string): Promise<DeskArticle> {
  const created = await createArticle(database, COMMAND_LINE, { ...base, title, slug }, new Date());
  if (!created.ok) throw new Error(JSON.stringify(created));
  const live = await publishArticle(database, COMMAND_LINE, created.article.id, {}, new Date());
  if (!live.ok) throw new Error(JSON.stringify(live));
  return live.article;
}

const get = (path: string) => fetch(server.url + path, { redirect: "manual" });

describe("an article's addresses after the desk changed it", () => {
  it("answers 410 with the site's own page for a withdrawn article, where an unknown address gets 404", async () => {
    const article = await published("A Piece Soon Withdrawn", "a-piece-soon-withdrawn");
    const down = await unpublishArticle(database, COMMAND_LINE, article.id, new Date());
    expect(down.ok).toBe(true);

    const gone = await get(article.path);
    expect(gone.status).toBe(410);
    const $ = cheerio.load(await gone.text());
    expect($("h1").text()).toBe("Article withdrawn");
    expect($("main").text()).toContain("This article has been withdrawn");
    expect($("title").text()).toMatch(/^Article withdrawn \| /);
    expect($('meta[name="robots"]').attr("content")).toBe("noindex");

    const missing = await get(article.path.replace("soon-withdrawn", "never-written"));
    expect(missing.status).toBe(404);
    const $404 = cheerio.load(await missing.text());
    // The same page around the message: header, navigation and footer as a 404's.
    for (const part of ["header", "nav", "footer", 'link[rel="stylesheet"]']) expect($(part).length, part).toBe($404(part).length);
  });

  it("answers 301 from an old address to where a renamed article is now, and 404 for a draft's address", async () => {
    const article = await published("A Piece About To Move", "a-piece-about-to-move");
    const moved = await saveArticle(
      database,
      COMMAND_LINE,
      article.id,
      article.version,
      { ...base, title: "A Piece That Moved", slug: "a-piece-that-moved" },
      new Date(),
    );
    if (!moved.ok) throw new Error(JSON.stringify(moved));

    const old = await get(article.path);
    expect(old.status).toBe(301);
    expect(new URL(old.headers.get("location")!, server.url).pathname).toBe(moved.article.path);
    const $ = await new Reader(server.url).page(moved.article.path);
    expect($("h1").first().text()).toBe("A Piece That Moved");

    const draft = await createArticle(
      database,
      COMMAND_LINE,
      { ...base, title: "A Draft Nobody Sees", slug: "a-draft-nobody-sees" },
      new Date(),
    );
    if (!draft.ok) throw new Error(JSON.stringify(draft));
    expect((await get(draft.article.path)).status).toBe(404);
  });
});

describe("an article published through the Admin API of one instance", () => {
  it("is on the other instance's home page, stream, topic page, search, sitemap and feed, for guests and signed-in readers, and its page meters a guest, within 5 seconds", async () => {
    const { key } = await createApiKey(database, COMMAND_LINE, "Two instances", ["editor"], new Date());
    const call = (path: string, body: unknown) =>
      fetch(server.url + path, {
        method: "POST",
        headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
    // The other instance has every page in its caches, from before the article exists.
    const topicPath = new URL(
      (await new Reader(other.url).page("/topics"))(`a:contains("${base.topics[0]}")`).first().attr("href")!,
      other.url,
    ).pathname;
    const pages = ["/", "/the-latest", topicPath, "/search?q=lighthouse+keepers", "/feeds/latest.xml"];
    for (const path of pages) expect((await fetch(other.url + path)).status, path).toBe(200);
    // Signed-in readers' pages are kept too (ADR 096): two readers, so the second's are hits.
    const readers = [await registeredReader(other.url), await registeredReader(other.url)];
    for (const reader of readers) for (const page of ["/", "/the-latest"]) expect((await reader.request(page)).status).toBe(200);
    expect((await readers[1]!.request("/the-latest")).headers.get("x-page-cache")).toBe("hit");

    const title = "What Lighthouse Keepers Knew About Shift Work";
    const made = await call("/desk/api/articles", { ...base, title, slug: "what-lighthouse-keepers-knew" });
    expect(made.status).toBe(201);
    const { id } = (await made.json()) as { id: number };
    const published = await call(`/desk/api/articles/${id}/publish`, {});
    expect(published.status).toBe(200);
    const { url } = (await published.json()) as { url: string };
    const path = new URL(url).pathname;

    const seenOnOther = async () => {
      const found: string[] = [];
      for (const page of pages) if ((await (await fetch(other.url + page)).text()).includes(path)) found.push(page);
      for (const page of ["/", "/the-latest"])
        if (!(await (await readers[1]!.request(page)).text()).includes(path)) found.push(`signed in: ${page}`);
      return found;
    };
    await expect.poll(seenOnOther, { timeout: 5_000, interval: 200 }).toEqual(pages);
    const sitemaps = (await (await fetch(`${other.url}/sitemap.xml`)).text()).match(/[^<>]*articles-\d+\.xml/g)!;
    const inSitemap = await Promise.all(
      sitemaps.map(async (file) => (await (await fetch(new URL(file, other.url))).text()).includes(path)),
    );
    expect(inSitemap).toContain(true);

    // A guest reading it on the other instance is counted by the meter, as on a seed article.
    const guest = new Reader(other.url);
    const meterLine = ($: cheerio.CheerioAPI) =>
      $("body")
        .text()
        .match(/You have (\d+) free articles? left this month/)?.[1];
    const first = await guest.page(path);
    expect(first("h1").first().text()).toBe(title);
    expect(meterLine(first)).toBe("3");
  });
});
