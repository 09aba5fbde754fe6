// Writes on read (ADR 094): npm run build && npx tsx bench/writes-on-read.ts [folder holding build/]
// (DATABASE_URL=postgres://… runs it on PostgreSQL, in databases of its own, dropped at the end.)
// First, for a guest, a registered reader and a subscriber with a browser's User-Agent, the
// statements one article page runs on the built server, reading a new article and re-reading one,
// counted per request id on the `meridian:db:query` channel (tests/helpers/query-log.mjs), with
// those of the meter, popularity, history and the wall view listed. The folder argument counts
// another build's instead (an older commit's, with this repo's other folders linked beside it).
// Then, without the argument, the time of those writes alone, in this process: the statements
// pages ran before ADR 094 against today's, in alternating rounds. A whole page's time varies more
// between runs on a shared machine than these writes cost.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { sql } from "kysely";
import pg from "pg";
import { insertUser } from "~/server/accounts/users";
import { config } from "~/server/config";
import { readDay } from "~/server/content/popularity";
import { openDatabase } from "~/server/db";
import type { Database } from "~/server/db/connection";
import { isPostgres } from "~/server/db/dialect";
import { recordArticleRead } from "~/server/paywall/article-reads";
import { meterPeriod, openOnMeter } from "~/server/paywall/meter";
import { seedDatabase } from "~/server/seed/initialize";
import { untilServing } from "./serving";

const FOLDER = path.resolve(process.argv[2] ?? ".");
const POSTGRES = process.env.DATABASE_URL;
const PORT = 3940;
const BASE = `http://127.0.0.1:${PORT}`;
const WRITE_ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const WRITE_RUNS = Number(process.env.BENCH_RUNS ?? 300);
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36";
const WRITE_ON_READ = /\b(meter_read|article_read|article_read_day|view_history|wall_view)\b|^\s*(begin|commit|rollback)|pg_advisory/i;

type Kind = "guest" | "registered" | "subscriber";
const KINDS: Kind[] = ["guest", "registered", "subscriber"];

/** A browser: its cookies, sent back on every request. */
class Client {
  readonly cookies = new Map<string, string>();

  async request(route: string, init: { form?: Record<string, string>; requestId?: string } = {}): Promise<Response> {
    const headers: Record<string, string> = { "user-agent": BROWSER, "accept-encoding": "br, gzip" };
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    if (init.requestId) headers["x-request-id"] = init.requestId;
    if (init.form) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      headers.origin = BASE;
    }
    const res = await fetch(BASE + route, {
      method: init.form ? "POST" : "GET",
      headers,
      body: init.form ? new URLSearchParams(init.form) : undefined,
      redirect: "manual",
    });
    for (const header of res.headers.getSetCookie()) {
      const [pair] = header.split(";");
      const at = pair!.indexOf("=");
      if (/Max-Age=0/i.test(header)) this.cookies.delete(pair!.slice(0, at));
      else this.cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    return res;
  }

  /** A page as a browser gets it, following the article's first-visit cookie check. */
  async page(route: string, requestId?: string): Promise<void> {
    let res = await this.request(route, { requestId });
    const location = res.headers.get("location") ?? "";
    if (res.status === 302 && location.includes("cookie-check=")) {
      await res.arrayBuffer();
      res = await this.request(location, { requestId });
    }
    if (res.status !== 200) throw new Error(`${route} answered ${res.status}`);
    await res.arrayBuffer();
  }
}

let registrations = 0;
async function reader(kind: Kind, warmUp: string): Promise<Client> {
  const client = new Client();
  if (kind !== "guest") {
    const registered = await client.request("/register", {
      form: {
        firstName: "Bench",
        lastName: "Reader",
        emailAddress: `bench${++registrations}.${process.pid}@example.org`,
        password: "Lantern5!quay",
      },
    });
    if (registered.status !== 303) throw new Error(`registration answered ${registered.status}`);
  }
  if (kind === "subscriber") {
    const checkout = await client.request("/subscriptions/checkout?plan=digital", { form: { countryCode: "GB" } });
    const pay = await client.request(new URL(checkout.headers.get("location")!, BASE).pathname, {
      form: { cardNumber: "4242 4242 4242 4242" },
    });
    const back = new URL(pay.headers.get("location")!, BASE);
    await (await client.request(back.pathname + back.search)).arrayBuffer();
  }
  await client.page(warmUp);
  return client;
}

/** A database of its own on PostgreSQL (the server migrates and seeds it), or a data folder for SQLite. */
async function database(label: string): Promise<{ env: Record<string, string>; drop: () => Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-writes-"));
  if (!POSTGRES) return { env: { DATA_DIR: dataDir }, drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
  const name = `bench_writes_${process.pid}_${label}`;
  const admin = new pg.Client({ connectionString: POSTGRES });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(POSTGRES);
  url.pathname = `/${name}`;
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: url.toString() },
    async drop() {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function startServer(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["build/server.js"], {
    cwd: FOLDER,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(PORT),
      HOST: "127.0.0.1",
      SITE_URL: BASE,
      WEB_CONCURRENCY: "1",
      JOBS_PROCESSES: "0",
      LOG_REQUESTS: "off",
      RATE_LIMIT_PER_IP: "10000000",
      // Room on every meter for the new articles each reader opens; the address ceiling as configured by default.
      METER_GUEST_LIMIT: "1000",
      METER_ASCEND_LIMIT: "1000",
      METER_REGISTERED_LIMIT: "1000",
      ...env,
    },
    stdio: "ignore",
  });
  return untilServing(child, PORT);
}

async function stopServer(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

/** Article addresses from the sitemap, in its order. */
async function articlePaths(): Promise<string[]> {
  const xml = await (await fetch(`${BASE}/sitemaps/articles-1.xml`)).text();
  return [...xml.matchAll(/<loc>[^<]*?(\/\d{4}\/\d{2}\/[a-z0-9-]+)<\/loc>/g)].map((m) => m[1]!);
}

/**
 * Every article opened once first, by a guest of its own: the server keeps articles in memory after
 * their first request, so the figures are a reader's, not a cold article's.
 */
async function warmArticles(articles: string[]): Promise<void> {
  const warmer = await reader("guest", articles[0]!);
  for (const route of articles) await warmer.page(route);
}

async function countStatements(): Promise<void> {
  const log = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "bench-queries-")), "queries.jsonl");
  const db = await database("count");
  const server = await startServer({
    ...db.env,
    NODE_OPTIONS: `--import=${pathToFileURL(path.resolve("tests/helpers/query-log.mjs")).href}`,
    QUERY_LOG: log,
  });
  try {
    const articles = await articlePaths();
    await warmArticles(articles);
    console.log("Statements per article page (all / those of the meter, popularity, history and the wall view):");
    for (const [i, kind] of KINDS.entries()) {
      const client = await reader(kind, articles[10 * i]!);
      const fresh = articles[10 * i + 1]!;
      for (const [label, id] of [
        ["new article", `${kind}-new`],
        ["re-read", `${kind}-again`],
      ] as const) {
        await client.page(fresh, `bench-${id}-${process.pid}`);
        const queries = fs
          .readFileSync(log, "utf8")
          .split("\n")
          .filter(Boolean)
          .map((line) => JSON.parse(line) as { sql: string; requestId?: string })
          .filter((q) => q.requestId === `bench-${id}-${process.pid}`);
        const writes = queries.filter((q) => WRITE_ON_READ.test(q.sql)).map((q) => q.sql.replace(/\s+/g, " ").slice(0, 48));
        console.log(`  ${`${kind}, ${label}:`.padEnd(26)} ${String(queries.length).padStart(2)} / ${writes.length}  ${writes.join(" | ")}`);
      }
    }
  } finally {
    await stopServer(server);
    await db.drop();
    fs.rmSync(path.dirname(log), { recursive: true, force: true });
  }
}

/** A page: an article new on the reader's meter, one already on it, or one past the meter's limit (a wall). */
type Case = "new article" | "re-read" | "walled";

/** One page's writes on read, as a variant runs them. */
interface Page {
  kind: Kind;
  case: Case;
  /** The meter's key: a fresh one makes the article new on it. */
  key: string;
  network: string | null;
  userId: string | null;
  articleId: number;
  /** The meter's limit: 1 for a walled page, whose meter holds another article. */
  limit: number;
}

const CEILING = 500;

/** The statements every article page ran before ADR 094 (server/paywall/meter.ts, walls.ts, popularity.ts, library/history.ts then). */
async function previousWrites(db: Database, page: Page, now: Date): Promise<void> {
  const walled = page.case === "walled";
  if (page.kind !== "subscriber") {
    const scope = { meter_key: page.key, period: meterPeriod(now), meter: "article" as const };
    const thisRead = { ...scope, article_id: page.articleId };
    await db.transaction().execute(async (tx) => {
      if (isPostgres(tx)) {
        if (page.network)
          await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`meter-address|${page.network}|${scope.period}`}, 0))`.execute(tx);
        await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`meter|${page.key}|${scope.period}|article`}, 0))`.execute(tx);
      }
      const inserted = await tx
        .insertInto("meter_read")
        .values({ ...thisRead, read_at: now.toISOString(), client_address: page.network })
        .onConflict((oc) => oc.columns(["meter_key", "period", "meter", "article_id"]).doNothing())
        .executeTakeFirst();
      await tx
        .selectFrom("meter_read")
        .select((eb) => eb.fn.countAll().as("n"))
        .where((eb) => eb.and(scope))
        .executeTakeFirstOrThrow();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return;
      if (page.network) {
        await tx
          .selectFrom("meter_read")
          .select((eb) => eb.fn.countAll().as("n"))
          .where("client_address", "=", page.network)
          .where("period", "=", scope.period)
          .executeTakeFirstOrThrow();
      }
      if (walled)
        await tx
          .deleteFrom("meter_read")
          .where((eb) => eb.and(thisRead))
          .execute();
    });
  }
  if (walled) {
    await db
      .insertInto("wall_view")
      .values({ day: readDay(now), wall: page.userId ? "subscribe" : "registration", ab_tag: "bench", viewer: page.key })
      .onConflict((oc) => oc.columns(["wall", "ab_tag", "viewer", "day"]).doNothing())
      .execute();
  } else {
    await db
      .insertInto("article_read_day")
      .values({ article_id: page.articleId, day: readDay(now), reads: 1 })
      .onConflict((oc) => oc.columns(["article_id", "day"]).doUpdateSet((eb) => ({ reads: eb("article_read_day.reads", "+", 1) })))
      .execute();
  }
  if (page.userId) {
    await db
      .insertInto("view_history")
      .values({ user_id: page.userId, content_type: "article", content_id: page.articleId, viewed_at: now.toISOString() })
      .onConflict((oc) => oc.columns(["user_id", "content_type", "content_id"]).doUpdateSet({ viewed_at: now.toISOString() }))
      .execute();
  }
}

/** The same page's writes today: the meter's look-up (and its transaction for a new article), then one statement. */
async function currentWrites(db: Database, page: Page, now: Date): Promise<void> {
  const walled = page.case === "walled";
  if (page.kind !== "subscriber") {
    const ceiling = page.network ? { address: page.network, limit: CEILING } : undefined;
    await openOnMeter(db, { key: page.key, meter: "article", articleId: page.articleId, limit: page.limit, ceiling }, now);
  }
  const wall = walled ? { wall: page.userId ? ("subscribe" as const) : ("registration" as const), abTag: "bench", viewer: page.key } : null;
  await recordArticleRead(db, { articleId: page.articleId, popular: !walled, userId: page.userId, wall }, now);
}

/** CPU ms so far of this process (where SQLite runs) and of PostgreSQL's backends for this database, from /proc. */
async function cpuSoFar(db: Database): Promise<number> {
  const own = process.cpuUsage();
  let ticks = 0;
  if (POSTGRES) {
    const { rows } = await sql<{ pid: number }>`select pid from pg_stat_activity where datname = current_database()`.execute(db);
    for (const { pid } of rows) {
      const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    }
  }
  return (own.user + own.system) / 1000 + (ticks * 1000) / 100;
}

async function timeWrites(): Promise<void> {
  const target = await database("writes");
  const db = await openDatabase({ dataDir: target.env.DATA_DIR!, databaseUrl: target.env.DATABASE_URL });
  try {
    await seedDatabase(db, config().contentDir);
    const [articleId, otherId] = (await db.selectFrom("article").select("id").orderBy("id").limit(2).execute()).map((r) => r.id);
    const account = async (name: string) =>
      (await insertUser(db, {
        firstName: name,
        lastName: "Bench",
        email: `${name}.${process.pid}@example.org`,
        password: "Lantern5!quay",
        optIn: false,
      }))!.id;
    const userIds: Record<Kind, string | null> = {
      guest: null,
      registered: await account("registered"),
      subscriber: await account("subscriber"),
    };
    const now = new Date();
    let fresh = 0;
    /** A re-read and a walled page use the reader's own meter; a new article, a meter (and for a guest an address) of its own. */
    const pageFor = (kind: Kind, which: Case): Page => {
      const n = which === "new article" ? ++fresh : 0;
      return {
        kind,
        case: which,
        key: `${kind === "guest" ? "v" : "u"}:bench-${kind}-${which === "walled" ? "walled" : n}`,
        network: kind === "guest" ? `198.51.${n >> 8}.${n & 255}` : null,
        userId: userIds[kind],
        articleId: articleId!,
        limit: which === "walled" ? 1 : 1_000_000,
      };
    };
    const cases = (kind: Kind): Case[] => (kind === "subscriber" ? ["new article", "re-read"] : ["new article", "re-read", "walled"]);
    for (const kind of KINDS) {
      const walled = pageFor(kind, "walled");
      if (kind !== "subscriber") await currentWrites(db, { ...walled, case: "new article", articleId: otherId! }, now);
    }
    const variants = { before: previousWrites, after: currentWrites };
    const times = new Map<string, number[]>();
    /** CPU ms per label, summed over its rounds. */
    const cpu = new Map<string, number>();
    // Rounds alternate the variants, so that the machine's load falls on both alike; the first warms up and is not kept.
    for (let round = 0; round <= WRITE_ROUNDS; round++) {
      for (const kind of KINDS) {
        for (const which of cases(kind)) {
          for (const [name, writes] of Object.entries(variants)) {
            const label = `${kind}, ${which}, ${name}`;
            const list = round === 0 ? [] : (times.get(label) ?? []);
            const cpuBefore = await cpuSoFar(db);
            for (let i = 0; i < WRITE_RUNS; i++) {
              const page = pageFor(kind, which);
              const started = performance.now();
              await writes(db, page, now);
              list.push(performance.now() - started);
            }
            if (round === 0) continue;
            cpu.set(label, (cpu.get(label) ?? 0) + (await cpuSoFar(db)) - cpuBefore);
            times.set(label, list);
          }
        }
      }
    }
    console.log(
      `\nThe writes on read alone, in process, ${WRITE_ROUNDS} rounds of ${WRITE_RUNS} pages each: median µs per page, and CPU µs per page ` +
        `(this process${POSTGRES ? " and PostgreSQL's backends" : ""}):`,
    );
    const figure = (label: string) => {
      const list = times.get(label)!.sort((a, b) => a - b);
      return `${(list[Math.floor(list.length / 2)]! * 1000).toFixed(0)}, CPU ${((cpu.get(label)! * 1000) / list.length).toFixed(0)}`;
    };
    for (const kind of KINDS) {
      for (const which of cases(kind)) {
        const label = `${kind}, ${which}`;
        console.log(
          `  ${`${label}:`.padEnd(26)} before ${figure(`${label}, before`).padStart(14)}   after ${figure(`${label}, after`).padStart(14)}`,
        );
      }
    }
  } finally {
    await db.destroy();
    await target.drop();
  }
}

console.log(
  `${FOLDER}/build on ${POSTGRES ? "PostgreSQL" : "SQLite"}; load average ${os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(" ")}`,
);
await countStatements();
if (process.argv[2] === undefined) await timeWrites();
