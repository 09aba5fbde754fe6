import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PublishedQuery } from "~/server/db/connection";
import { registeredReader, subscribe, type Reader } from "~/tests/helpers/reader";
import { startBuiltServer, type RunningServer } from "~/tests/helpers/server";

// Who is asking is looked up once per request (ADR 062), in one statement with the reader's
// account, cart, dismissals and subscriptions (ADR 095): the production server, with every query
// it runs written to a file with its request's id (tests/helpers/query-log.mjs), is asked for a
// signed-in reader's pages, and each request's statements are looked at.

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

/** The statements the server ran to answer one request for `page`. */
async function statements(reader: Reader, page: string): Promise<string[]> {
  const requestId = `statements-${randomUUID()}`;
  const res = await reader.request(page, { headers: { "X-Request-Id": requestId } });
  expect(res.status, page).toBe(200);
  await res.arrayBuffer();
  return fs
    .readFileSync(queryLog, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as PublishedQuery)
    .filter((q) => q.requestId === requestId)
    .map((q) => q.sql);
}

const reading = (run: string[], table: string) => run.filter((sql) => sql.includes(`"${table}"`));

describe("a signed-in reader's request", () => {
  it("reads the session with the account, cart, dismissals and subscriptions in one statement, and the follows in one", async () => {
    const registered = await registeredReader(server.url);
    const home = await (await registered.request("/")).text();
    const article = home.match(/href="(\/\d{4}\/\d{2}\/[a-z0-9-]+)"/)?.[1];
    expect(article).toBeDefined();

    const subscriber = await subscribe(await registeredReader(server.url));
    // The page after paying completes the checkout, and reads the reader again (subscriberChanged).
    await subscriber.request("/");
    for (const reader of [registered, subscriber])
      for (const page of [article!, "/", "/my-account"]) {
        const run = await statements(reader, page);
        const session = reading(run, "user_session");
        expect(session, page).toHaveLength(1);
        for (const table of ["app_user", "cart", "dismissal", "subscription", "invoice"])
          expect(reading(run, table), `${page}: ${table}`).toEqual(session);
        expect(reading(run, "follow"), page).toHaveLength(1);
      }
  });
});
