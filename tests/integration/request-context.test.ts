import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PublishedQuery } from "~/server/db/connection";
import { registeredReader, type Reader } from "~/tests/helpers/reader";
import { startBuiltServer, type RunningServer } from "~/tests/helpers/server";

// Who is asking is looked up once per request (ADR 062): the production server, with every query
// it runs written to a file with its request's id (tests/helpers/query-log.mjs), is asked for a
// signed-in reader's pages, and the reads of the session table for each request are counted.

let server: RunningServer;
let queryLog: string;

beforeAll(async () => {
  queryLog = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "queries-")), "queries.jsonl");
  server = await startBuiltServer({
    NODE_OPTIONS: `--import=${pathToFileURL(path.resolve("tests/helpers/query-log.mjs")).href}`,
    QUERY_LOG: queryLog,
  });
});

afterAll(async () => {
  await server?.stop();
  fs.rmSync(path.dirname(queryLog), { recursive: true, force: true });
});

/** How many times the server read the session table to answer one request for `page`. */
async function sessionLookUps(reader: Reader, page: string): Promise<number> {
  const requestId = `session-count-${randomUUID()}`;
  const res = await reader.request(page, { headers: { "X-Request-Id": requestId } });
  expect(res.status, page).toBe(200);
  await res.arrayBuffer();
  const queries = fs
    .readFileSync(queryLog, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as PublishedQuery);
  return queries.filter((q) => q.requestId === requestId && /^select .* from "user_session"/i.test(q.sql)).length;
}

describe("a signed-in reader's request", () => {
  it("looks the reader's session up once for an article page and for the home page", async () => {
    const reader = await registeredReader(server.url);
    const home = await (await reader.request("/")).text();
    const article = home.match(/href="(\/\d{4}\/\d{2}\/[a-z0-9-]+)"/)?.[1];
    expect(article).toBeDefined();

    expect(await sessionLookUps(reader, article!)).toBe(1);
    expect(await sessionLookUps(reader, "/")).toBe(1);
  });
});
