import * as cheerio from "cheerio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type Database } from "~/server/db/connection";
import { Reader, registeredReader, subscribe } from "~/tests/helpers/reader";
import { startBuiltServer, type RunningServer } from "~/tests/helpers/server";
import { isolatedConnection, type IsolatedConnection } from "~/tests/helpers/test-db";

// Gift links expire GIFT_LINK_DAYS after they were made. The link's age is set in the server's
// own database (as if it had been made weeks ago), rather than waiting.

let server: RunningServer;
let db: Database;
let database: IsolatedConnection;

beforeAll(async () => {
  database = await isolatedConnection("gift");
  server = await startBuiltServer(
    {
      RATE_LIMIT_PER_IP: "100000",
      RATE_LIMIT_PER_ACCOUNT: "1000",
      METER_GUEST_LIMIT: "1",
      GIFT_LINK_DAYS: "14",
    },
    "production",
    database,
  );
  db = connect(database);
}, 120_000);

afterAll(async () => {
  await db?.destroy();
  await server?.stop();
  await database.drop();
});

async function articlePaths(): Promise<string[]> {
  const $ = cheerio.load(await (await fetch(`${server.url}/the-latest`)).text());
  return $("main ol article h3 a")
    .map((_, a) => $(a).attr("href")!)
    .get();
}

async function giftLink(giver: Reader, path: string): Promise<string> {
  const res = await giver.request("/api/article-gift/give-gift", {
    form: { url: `${server.url}${path}` },
    headers: { Accept: "application/json" },
  });
  expect(res.status).toBe(200);
  const url = new URL(((await res.json()) as { articleGiftURL: string }).articleGiftURL);
  return url.pathname + url.search;
}

const EXPIRED = "This gift link has expired.";

describe("gift links", () => {
  it("open the article for 14 days; after that the reader meets the wall and is told the link has expired", async () => {
    const [first, second, third] = await articlePaths();
    const giver = await subscribe(await registeredReader(server.url));
    const fresh = await giftLink(giver, second!);
    const old = await giftLink(giver, third!);
    const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
    await db
      .updateTable("gift_link")
      .set({ created_at: daysAgo(15) })
      .where("article_id", "in", db.selectFrom("article").select("id").where("slug", "=", third!.split("/").pop()!))
      .execute();

    // A guest whose one free read of the month is spent.
    const guest = new Reader(server.url);
    expect((await guest.page(first!))("#article-body .paywalled-content")).toHaveLength(1);
    const $walled = await guest.page(second!);
    expect($walled("#paywall")).toHaveLength(1);

    const $fresh = await guest.page(fresh);
    expect($fresh("#article-body .paywalled-content")).toHaveLength(1);
    expect($fresh("main").text()).not.toContain(EXPIRED);

    const $old = await guest.page(old);
    expect($old("[role=status]").filter((_, e) => $old(e).text() === EXPIRED)).toHaveLength(1);
    expect($old("#paywall")).toHaveLength(1);
    expect($old("#article-body .paywalled-content")).toHaveLength(0);
  });
});
