import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PublishedQuery } from "~/server/db/connection";
import { Reader, registeredReader, subscribe } from "~/tests/helpers/reader";
import { startBuiltServer, type RunningServer } from "~/tests/helpers/server";

// What an article page writes (ADR 094), counted on the production server's query channel
// (tests/helpers/query-log.mjs): one statement for popularity, history and the wall view on every
// page, and the meter's transaction only when it counts an article new to a metered reader's meter.
// A re-read, and a read past the limit, ask the meter with one read-only statement.

const LIMIT = 3;

let server: RunningServer;
let queryLog: string;
let articles: string[];

beforeAll(async () => {
  queryLog = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "queries-")), "queries.jsonl");
  server = await startBuiltServer({
    NODE_OPTIONS: `--import=${pathToFileURL(path.resolve("tests/helpers/query-log.mjs")).href}`,
    QUERY_LOG: queryLog,
    METER_GUEST_LIMIT: String(LIMIT),
    METER_REGISTERED_LIMIT: String(LIMIT),
  });
  const home = await (await fetch(`${server.url}/the-latest`)).text();
  articles = [...new Set([...home.matchAll(/href="(\/\d{4}\/\d{2}\/[a-z0-9-]+)"/g)].map((m) => m[1]!))];
  expect(articles.length).toBeGreaterThanOrEqual(LIMIT + 1);
});

afterAll(async () => {
  await server?.stop();
  fs.rmSync(path.dirname(queryLog), { recursive: true, force: true });
});

const WRITE = /^\s*(insert|update|delete|begin|commit|rollback)\b/i;

/** The page's writes (their first words) and how many of its statements read the meter. */
async function writesOf(reader: Reader, page: string): Promise<{ writes: string[]; meterReads: number }> {
  const requestId = `writes-${randomUUID()}`;
  const res = await reader.request(page, { headers: { "X-Request-Id": requestId } });
  expect(res.status, page).toBe(200);
  await res.arrayBuffer();
  const queries = fs
    .readFileSync(queryLog, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as PublishedQuery)
    .filter((q) => q.requestId === requestId);
  return {
    writes: queries.filter((q) => WRITE.test(q.sql)).map((q) => /^\s*(\w+(?: immediate)?(?: into "\w+")?)/i.exec(q.sql)![1]!.toLowerCase()),
    meterReads: queries.filter((q) => /^\s*select\b[\s\S]*from "?meter_read\b/i.test(q.sql)).length,
  };
}

const begin = process.env.DATABASE_URL ? "begin" : "begin immediate";
const ONE_STATEMENT = { writes: ['insert into "article_read"'], meterReads: 1 };

describe("an article page's writes on read", () => {
  it("are one statement for a guest's and a registered reader's re-read and walled read, and the meter's transaction only for a new article", async () => {
    const [counted, fresh, later, walled] = articles;
    const guest = new Reader(server.url);
    await guest.page(counted!);
    const registered = await registeredReader(server.url);
    await registered.page(counted!);
    for (const reader of [guest, registered]) {
      // The look-up, the transaction (its own count of the meter among its statements), then the page's one insert.
      const newRead = await writesOf(reader, fresh!);
      expect(newRead.writes).toEqual([begin, 'insert into "meter_read"', "commit", 'insert into "article_read"']);
      expect(await writesOf(reader, fresh!)).toEqual(ONE_STATEMENT);
      await reader.page(later!);
      // The meter is full: the look-up refuses the article, and the one insert records the wall met.
      expect(await writesOf(reader, walled!)).toEqual(ONE_STATEMENT);
    }
  });

  it("are one statement for a subscriber, who is not metered", async () => {
    const subscriber = await subscribe(await registeredReader(server.url));
    for (const page of [articles[0]!, articles[0]!]) expect(await writesOf(subscriber, page)).toEqual({ ...ONE_STATEMENT, meterReads: 0 });
  });
});
