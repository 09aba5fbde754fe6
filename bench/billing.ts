// Renewal day: npm run build && npm run bench:billing [-- --subscriptions N]
//   BENCH_DATABASES=sqlite,postgres (default both), BENCH_POSTGRES_URL (where the throwaway
//   PostgreSQL database is made).
// For each database: a freshly seeded site plus N readers (100,000 by default) whose renewing
// Digital subscription, paid with a saved sandbox card, falls due on the same day. The production
// server (one process per core) starts; guest pages (home and an article) are timed while it is
// idle; then the sandbox clock is moved on past that day and the renewals run as production runs
// them: by the server's scheduled-jobs processes, a minute after start (ADR 069). Guest
// pages are timed all through the run. Prints the run's time, renewals/s, receipts sent, and page
// p50/p99 idle and during, against the targets: the run under 10 minutes, the page p99 within
// 1.5x of idle. Requests go to 127.0.0.1 only; the run is bounded in time and stops by itself.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { connect, type Database } from "~/server/db/connection";
import { createSandboxProvider } from "~/server/payments/sandbox";
import { articlePath } from "~/shared/urls";
import { freePort } from "~/tests/helpers/free-port";
import { seedDueSubscriptions } from "~/tests/helpers/due-subscriptions";
import { returningGuest, USER_AGENT } from "./browser";
import { percentile } from "./latency";
import { cleanUp, createDatabase, ENGINE_NAMES, seed, type BenchDatabase, type Engine } from "./search-setup";
import { untilServing } from "./serving";
import { FIRST_RUN_MS } from "~/server/jobs/schedule";

const ENGINES = (process.env.BENCH_DATABASES ?? "sqlite,postgres").split(",").map((e) => e.trim()) as Engine[];
const SUBSCRIPTIONS = subscriptionsArg(process.argv.slice(2));
/** Guest readers at once, each pausing between pages as a reader does. */
const READERS = 4;
const PAUSE_MS = 100;
const IDLE_REQUESTS = 600;
const WARM_UP_MS = 10_000;
const TARGET_SECONDS = 600;
const TARGET_RATIO = 1.5;
/** A run still going after this long is reported as unfinished. */
const GIVE_UP_MS = 40 * 60_000;
const DAY_SECONDS = 86_400;

function subscriptionsArg(argv: string[]): number {
  const at = argv.indexOf("--subscriptions");
  if (at < 0) return 100_000;
  const n = Number(argv[at + 1]);
  if (!Number.isInteger(n) || n < 1 || n > 10_000_000)
    throw new Error("usage: npm run bench:billing -- --subscriptions N (1 to 10,000,000)");
  return n;
}

const agent = new http.Agent({ keepAlive: true });

/** The pages a returning guest reads, with their visitor cookie. */
interface Guest {
  urls: string[];
  cookie: string;
}

/** One guest page, its time in milliseconds; a status other than 200 stops the bench. */
function page(url: string, cookie: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const headers = { "User-Agent": USER_AGENT, cookie };
    const req = http.get(url, { agent, headers, signal: AbortSignal.timeout(30_000) }, (res) => {
      res.resume();
      res.on("error", reject);
      res.on("end", () =>
        res.statusCode === 200 ? resolve(performance.now() - started) : reject(new Error(`${url} answered ${res.statusCode}`)),
      );
    });
    req.on("error", reject);
  });
}

/** READERS guests reading the pages in turn until `until()` says stop (or `total` pages are read); their times. */
async function readGuestPages({ urls, cookie }: Guest, until: () => boolean, total = Infinity): Promise<number[]> {
  const times: number[] = [];
  let issued = 0;
  await Promise.all(
    Array.from({ length: READERS }, async (_, reader) => {
      for (let k = reader; !until() && issued < total; k++) {
        issued++;
        times.push(await page(urls[k % urls.length]!, cookie));
        await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
      }
    }),
  );
  return times.sort((a, b) => a - b);
}

interface Server {
  child: ChildProcess;
  base: string;
  /** When it was spawned (performance.now()). */
  startedAt: number;
  /** The renewal reports the server processes logged ("Renewals as of …"). */
  reports: string[];
  errors: () => string;
  stop: () => Promise<void>;
}

async function startServer(database: BenchDatabase): Promise<Server> {
  const port = await freePort();
  const startedAt = performance.now();
  const child = spawn(process.execPath, ["build/server.js"], {
    env: {
      ...database.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      PAYMENT_PROVIDER: "sandbox",
      BILLING_RENEWALS: "on",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const reports: string[] = [];
  let pending = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    const lines = (pending + chunk.toString()).split("\n");
    pending = lines.pop()!;
    for (const line of lines) if (line.includes("Renewals as of")) reports.push((JSON.parse(line) as { msg: string }).msg);
  });
  let errors = "";
  child.stderr!.on("data", (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-4000)));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  };
  try {
    await untilServing(child, port);
  } catch (error) {
    await stop();
    throw error;
  }
  return { child, base: `http://127.0.0.1:${port}`, startedAt, reports, errors: () => errors, stop };
}

const count = async (db: Database, query: (db: Database) => { executeTakeFirstOrThrow(): Promise<{ n: unknown }> }) =>
  Number((await query(db).executeTakeFirstOrThrow()).n);

const fmt = (n: number, digits = 0) => n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });

async function bench(engine: Engine): Promise<boolean> {
  const name = ENGINE_NAMES[engine];
  const database = await createDatabase(engine);
  await seed(database, 0);
  const db = connect({ dataDir: database.dataDir, databaseUrl: database.databaseUrl });
  try {
    const seedStarted = performance.now();
    const dueAt = new Date(Date.now() + DAY_SECONDS * 1000);
    await seedDueSubscriptions(db, { count: SUBSCRIPTIONS, dueAt });
    // The planner's statistics, as a live database's autovacuum keeps them after a bulk load (it
    // may be off on a test machine). Without them PostgreSQL took the renewal index, every row
    // sharing one key, for each conditional update by id: 25 renewals/s instead of 280.
    if (engine === "postgres") await sql`ANALYZE`.execute(db);
    console.log(
      `${name}: seeded ${fmt(SUBSCRIPTIONS)} renewing subscriptions due on ${dueAt.toISOString().slice(0, 10)} in ` +
        `${fmt((performance.now() - seedStarted) / 1000, 1)} s`,
    );
    const article = await db.selectFrom("article").select(["year", "month", "slug"]).orderBy("id").executeTakeFirstOrThrow();
    const server = await startServer(database);
    try {
      const urls = ["/", articlePath(article)].map((p) => server.base + p);
      return await renewalDay(db, database, server, { urls, cookie: await returningGuest(server.base, articlePath(article)) }, name);
    } finally {
      await server.stop();
    }
  } finally {
    await db.destroy();
  }
}

async function renewalDay(db: Database, database: BenchDatabase, server: Server, guest: Guest, name: string): Promise<boolean> {
  // Idle: warmed up, then timed, all before the housekeeping's first run (on a loaded machine,
  // fewer pages than asked).
  const idleUntil = server.startedAt + FIRST_RUN_MS - 10_000;
  const warmUntil = Math.min(idleUntil, performance.now() + WARM_UP_MS);
  await readGuestPages(guest, () => performance.now() >= warmUntil, 300);
  const idle = await readGuestPages(guest, () => performance.now() >= idleUntil, IDLE_REQUESTS);
  if (performance.now() > idleUntil + 5_000 || idle.length < 50)
    throw new Error(`only ${idle.length} idle pages before the housekeeping's first run: the machine is too busy`);

  // The day comes: the sandbox's clock moves past it (what `npm run sandbox:clock` does before it
  // renews), and the scheduled jobs renew what fell due.
  await createSandboxProvider(db, { siteUrl: server.base, webhookSecret: "unused" }).advanceClock(2 * DAY_SECONDS);
  const renewed = (d: Database) =>
    count(d, (q) =>
      q
        .selectFrom("invoice")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("kind", "=", "renewal")
        .where("receipt_sent_at", "is not", null),
    );
  const charged = (d: Database) => count(d, (q) => q.selectFrom("sandbox_charge").select((eb) => eb.fn.countAll().as("n")));
  let startedAt: number | undefined;
  let endedAt: number | undefined;
  let lastProgress = performance.now();
  const giveUpAt = performance.now() + FIRST_RUN_MS + GIVE_UP_MS;
  const watching = (async () => {
    while (endedAt === undefined && performance.now() < giveUpAt) {
      if (server.child.exitCode !== null) throw new Error(`the server exited: ${server.errors()}`);
      if (startedAt === undefined && (await charged(db)) > 0) startedAt = performance.now();
      if (startedAt !== undefined) {
        const done = await renewed(db);
        if (done >= SUBSCRIPTIONS) endedAt = performance.now();
        else if (performance.now() - lastProgress >= 30_000) {
          lastProgress = performance.now();
          const s = (lastProgress - startedAt) / 1000;
          console.log(`  … ${fmt(s)} s: ${fmt(await charged(db))} charged, ${fmt(done)} receipts sent (${fmt(done / s, 1)}/s)`);
        }
      }
      await new Promise((resolve) => setTimeout(resolve, startedAt === undefined ? 100 : 1_000));
    }
  })();
  // Guest pages from the moment the run can start until it is over.
  const [during] = await Promise.all([readGuestPages(guest, () => endedAt !== undefined || performance.now() >= giveUpAt), watching]);

  const charges = await charged(db);
  const receipts = await renewed(db);
  const outbox = path.join(database.dataDir, "mail");
  const files = fs.existsSync(outbox) ? fs.readdirSync(outbox).length : 0;
  const seconds = ((endedAt ?? performance.now()) - (startedAt ?? performance.now())) / 1000;
  const p = (times: number[], q: number) => fmt(percentile(times, q), 1);
  const ratio = percentile(during, 99) / percentile(idle, 99);
  const finished = endedAt !== undefined;
  console.log(
    `${name}: ${finished ? "renewed" : "UNFINISHED after"} ${fmt(receipts)} of ${fmt(SUBSCRIPTIONS)} in ${fmt(seconds, 1)} s ` +
      `(${fmt(receipts / seconds, 1)} renewals/s); ${fmt(charges)} charges, ${fmt(receipts)} receipts sent (${fmt(files)} mails in the outbox)`,
  );
  for (const report of server.reports) console.log(`  server: ${report}`);
  console.log(`  guest pages idle:   ${fmt(idle.length)} pages, p50 ${p(idle, 50)} ms, p99 ${p(idle, 99)} ms`);
  console.log(`  guest pages during: ${fmt(during.length)} pages, p50 ${p(during, 50)} ms, p99 ${p(during, 99)} ms`);
  const fast = finished && seconds < TARGET_SECONDS;
  const smooth = ratio <= TARGET_RATIO;
  console.log(
    `  p99 during/idle ${fmt(ratio, 2)} (target <= ${TARGET_RATIO}: ${smooth ? "met" : "MISSED"}); ` +
      `run ${fmt(seconds, 1)} s (target < ${TARGET_SECONDS} s: ${fast ? "met" : "MISSED"})\n`,
  );
  return fast && smooth;
}

async function main() {
  if (!fs.existsSync("build/server.js")) throw new Error("run `npm run build` first");
  console.log(
    `${os.cpus().length} cores; ${fmt(SUBSCRIPTIONS)} subscriptions due on one day; ${READERS} guest readers, ${PAUSE_MS} ms between pages\n`,
  );
  let met = true;
  for (const engine of ENGINES) met = (await bench(engine)) && met;
  process.exitCode = met ? 0 : 1;
}

for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.once(signal, () => {
    void cleanUp().then(() => process.exit(130));
  });

main()
  .catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  })
  .finally(() => cleanUp());
