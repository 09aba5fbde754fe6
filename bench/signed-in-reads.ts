// What a page costs in SQL before it renders: npm run build && npm run bench:reads
// (with DATABASE_URL=postgres://… on PostgreSQL, in a schema of its own that it drops at the end).
// Runs the production build in this process on a fresh database, as a guest, a registered reader
// and a subscriber (each following a topic), and prints for an article, home and /my-account the
// statements each request runs (reads, then all, counted per request id on the
// meridian:db:query channel, ADR 093; BENCH_SHOW=1 lists them), then the time of the root loader
// with the request context it makes (the session, user and entitlement reads) per request: wall
// time, and CPU time with, on PostgreSQL, its server process's (the pool is held to one
// connection for that, so the loader's parallel reads run one after another there).
import diagnostics from "node:diagnostics_channel";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { AppLoadContext, ServerBuild } from "@remix-run/node";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-reads-"));
const schema = process.env.DATABASE_URL ? `bench_reads_${process.pid}` : undefined;
Object.assign(process.env, {
  NODE_ENV: "production",
  DATA_DIR: dataDir,
  SITE_URL: "http://localhost:3000",
  LOG_REQUESTS: "off",
  PAYMENT_PROVIDER: "sandbox",
  ...(schema ? { DATABASE_SCHEMA: schema, DATABASE_POOL_SIZE: "1" } : {}),
});

const { createRequestHandler } = await import("@remix-run/node");
const { inRequestScope } = await import("~/server/log");
const { QUERY_CHANNEL } = await import("~/server/db/connection");

if (!fs.existsSync("build/server/index.js")) throw new Error("run `npm run build` first");
const build = (await import(`${process.cwd()}/build/server/index.js`)) as unknown as ServerBuild;
const getLoadContext = (build.entry.module as unknown as { getLoadContext(r: Request, c: AppLoadContext): AppLoadContext }).getLoadContext;
const handle = createRequestHandler(build, "production");
const rootLoader = build.routes.root!.module.loader!;
const BASE = "http://localhost:3000";
const AGENT = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36";

const statements = new Map<string, string[]>();
diagnostics.subscribe(QUERY_CHANNEL, (message) => {
  const { sql, requestId } = message as { sql: string; requestId?: string };
  if (requestId) statements.set(requestId, [...(statements.get(requestId) ?? []), sql]);
});

let requests = 0;

class Browser {
  readonly cookies = new Map<string, string>();

  request(pathname: string, form?: Record<string, string>): Promise<{ response: Response; requestId: string }> {
    const requestId = `bench-${++requests}`;
    const headers: Record<string, string> = { "User-Agent": AGENT, Cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ") };
    if (form) Object.assign(headers, { "Content-Type": "application/x-www-form-urlencoded", Origin: BASE, Host: "localhost:3000" });
    const request = new Request(BASE + pathname, { method: form ? "POST" : "GET", headers, body: form && new URLSearchParams(form) });
    return inRequestScope(requestId, async () => {
      const response = await handle(request, getLoadContext(request, { clientAddress: "127.0.0.1" }));
      await response.arrayBuffer();
      for (const header of response.headers.getSetCookie()) {
        const [pair] = header.split(";");
        const at = pair!.indexOf("=");
        if (/Max-Age=0/i.test(header)) this.cookies.delete(pair!.slice(0, at));
        else this.cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
      }
      return { response, requestId };
    });
  }

  async follow(pathname: string, form?: Record<string, string>): Promise<Response> {
    let { response } = await this.request(pathname, form);
    for (let hops = 0; hops < 5 && response.status >= 300 && response.status < 400; hops++) {
      const next = new URL(response.headers.get("location")!, BASE);
      ({ response } = await this.request(next.pathname + next.search));
    }
    return response;
  }
}

const html = async (pathname: string) => (await handle(new Request(BASE + pathname, { headers: { "User-Agent": AGENT } }))).text();

async function signedIn(topic: string, subscriber: boolean): Promise<Browser> {
  const browser = new Browser();
  const { response } = await browser.request("/register", {
    firstName: "Bench",
    lastName: "Reader",
    emailAddress: `bench-${requests}-${Date.now()}@example.org`,
    password: "Bench#reader7",
  });
  if (response.status !== 303 || !browser.cookies.has("mr_session")) throw new Error(`registration answered ${response.status}`);
  if ((await browser.request("/follow", { intent: "follow", kind: "topic", target: topic, redirectTo: "/" })).response.status !== 303)
    throw new Error("could not follow a topic");
  if (subscriber) {
    const checkout = await browser.request("/subscriptions/checkout?plan=digital", { countryCode: "GB" });
    const pay = await browser.request(new URL(checkout.response.headers.get("location")!, BASE).pathname, {
      cardNumber: "4242 4242 4242 4242",
    });
    const back = new URL(pay.response.headers.get("location")!, BASE);
    await browser.follow(back.pathname + back.search);
  }
  return browser;
}

const ticksMs = (pid: number) => {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // USER_HZ is 100 on Linux
};

/** The PostgreSQL server processes serving this process's connections, found by their client ports. */
async function ownBackends(): Promise<number[]> {
  const sockets = new Set<string>();
  for (const fd of fs.readdirSync("/proc/self/fd")) {
    let target: string;
    try {
      target = fs.readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      continue; // the directory listing's own descriptor, closed already
    }
    const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
    if (inode) sockets.add(inode);
  }
  const server = Number(new URL(process.env.DATABASE_URL!).port || 5432);
  const ports: number[] = [];
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"])
    for (const line of fs.readFileSync(table, "utf8").trim().split("\n").slice(1)) {
      const [, local, remote, , , , , , , inode] = line.trim().split(/\s+/);
      if (sockets.has(inode!) && parseInt(remote!.split(":").at(-1)!, 16) === server) ports.push(parseInt(local!.split(":").at(-1)!, 16));
    }
  const pg = await import("pg");
  const client = new pg.default.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  const { rows } = await client.query<{ pid: number }>(
    "select pid from pg_stat_activity where client_port = any($1) and pid <> pg_backend_pid()",
    [ports],
  );
  await client.end();
  return rows.map((r) => r.pid);
}

const isRead = (sql: string) => /^\s*(select|with)\b/i.test(sql);

async function counted(browser: Browser, pathname: string): Promise<string> {
  const { response, requestId } = await browser.request(pathname);
  // The content caches' look at their generation (once a second at most) is no part of a page.
  const run = (statements.get(requestId) ?? []).filter((sql) => !sql.includes('from "content_generation"'));
  if (process.env.BENCH_SHOW)
    console.log(
      pathname,
      run.map((s) => s.slice(0, 150)),
    );
  return `${run.filter(isRead).length}/${run.length}${response.status === 200 ? "" : ` (${response.status})`}`;
}

/**
 * The root loader, with a request context made for each call, timed in rounds of 200 calls: the
 * lowest round median of wall time, and the lowest round's CPU time per call, this process's and
 * its database server process's (the machine is shared: the quietest round is the one to compare).
 */
async function rootLoaderMs(browser: Browser, pathname: string, rounds = 5, n = 200): Promise<[wall: number, cpu: number, db: number]> {
  const cookie = [...browser.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  const call = () => {
    const request = new Request(BASE + pathname, { headers: { "User-Agent": AGENT, Cookie: cookie } });
    return rootLoader({ request, params: {}, context: getLoadContext(request, { clientAddress: "127.0.0.1" }) });
  };
  for (let i = 0; i < 50; i++) await call();
  const backends = schema ? await ownBackends() : [];
  const dbMs = () => backends.reduce((sum, pid) => sum + ticksMs(pid), 0);
  let wall = Infinity;
  let cpu = Infinity;
  let db = Infinity;
  for (let round = 0; round < rounds; round++) {
    const times: number[] = [];
    const used = process.cpuUsage();
    const dbBefore = dbMs();
    for (let i = 0; i < n; i++) {
      const start = performance.now();
      await call();
      times.push(performance.now() - start);
    }
    const { user, system } = process.cpuUsage(used);
    times.sort((a, b) => a - b);
    wall = Math.min(wall, times[n >> 1]!);
    cpu = Math.min(cpu, (user + system) / 1000 / n);
    db = Math.min(db, (dbMs() - dbBefore) / n);
  }
  return [wall, cpu, db];
}

try {
  const latest = await html("/the-latest");
  const article = latest.match(/href="(\/\d{4}\/\d{2}\/[a-z0-9-]+)"/)?.[1];
  const topicPage = await html("/topic/subject/strategy");
  const topic = topicPage.match(/name="target" value="(\d+)"/)?.[1];
  if (!article || !topic) throw new Error("no article or topic to read");

  const guest = new Browser();
  await guest.follow(article);
  const readers: [string, Browser][] = [
    ["guest", guest],
    ["registered", await signedIn(topic, false)],
    ["subscriber", await signedIn(topic, true)],
  ];
  const pages: [string, string][] = [
    ["article", article],
    ["home", "/"],
    ["my-account", "/my-account"],
  ];
  console.log(`${process.env.DATABASE_URL ? "PostgreSQL" : "SQLite"}: statements per request, reads/all (article ${article})`);
  console.log(["reader", ...pages.map(([name]) => name)].map((c) => c.padEnd(14)).join(""));
  for (const [name, browser] of readers) {
    for (const [, pathname] of pages) await browser.request(pathname);
    const row = [name];
    for (const [, pathname] of pages) row.push(await counted(browser, pathname));
    console.log(row.map((c) => c.padEnd(14)).join(""));
  }
  console.log(`root loader with its request context, ms per request: wall (median) / CPU${schema ? " / database server CPU" : ""}`);
  console.log(["reader", ...pages.map(([name]) => name)].map((c) => c.padEnd(22)).join(""));
  for (const [name, browser] of readers) {
    const row = [name];
    for (const [, pathname] of pages) {
      const [wall, cpu, db] = await rootLoaderMs(browser, pathname);
      row.push([wall, cpu, ...(schema ? [db] : [])].map((ms) => ms.toFixed(2)).join(" / "));
    }
    console.log(row.map((c) => c.padEnd(22)).join(""));
  }
} finally {
  if (schema) {
    const pg = await import("pg");
    const client = new pg.default.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    await client.query(`DROP SCHEMA ${schema} CASCADE`);
    await client.end();
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
}
// The build's database (its own copy of the module that opened it) stays open: exit without it.
process.exit(0);
