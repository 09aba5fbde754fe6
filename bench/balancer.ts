// One instance against two behind HAProxy, on one PostgreSQL database: npm run build && npm run bench:balancer
//   BENCH_SECONDS per run (default 15), BENCH_CONNECTIONS (default 32), BENCH_POSTGRES_URL for the
//   server to create the throwaway database on (default postgres://postgres@127.0.0.1:5432/postgres).
// Starts `deploy/cluster.ts` with INSTANCES=1, then 2 (one process each, so the second instance is
// the only added capacity), and loads a few guest pages through the balancer. Prints req/s and
// latency per page and the ratio of two instances to one.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { once } from "node:events";
import { freePort } from "~/tests/helpers/free-port";
import { browserFetch } from "./browser";
import { load, type LoadResult } from "./latency";
import { cleanUp, createDatabase } from "./search-setup";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const PAGES = ["/", "/the-latest", "/topics"];

async function startCluster(instances: number, databaseUrl: string, dataDir: string) {
  const [port, statsPort] = [await freePort(), await freePort()];
  const child = spawn(process.execPath, ["node_modules/tsx/dist/cli.mjs", "deploy/cluster.ts"], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      INSTANCES: String(instances),
      WEB_CONCURRENCY: "1",
      HOST: "127.0.0.1",
      PORT: String(port),
      STATS_PORT: String(statsPort),
      FIRST_INSTANCE_PORT: String(20_000 + (process.pid % 1000) * 10),
      LOG_REQUESTS: "off",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const stats = `http://127.0.0.1:${statsPort}/stats;csv`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the cluster exited with ${child.exitCode}`);
    const csv = await fetch(stats)
      .then((r) => r.text())
      .catch(() => "");
    const up = csv.split("\n").filter((row) => row.startsWith("instances,app") && row.includes(",UP,")).length;
    if (up === instances) break;
    if (Date.now() > deadline) throw new Error("the instances did not come up");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { base: `http://127.0.0.1:${port}`, child };
}

async function stopCluster(child: ChildProcess): Promise<void> {
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  await exited;
}

async function measure(base: string): Promise<Record<string, LoadResult>> {
  const results: Record<string, LoadResult> = {};
  for (const page of PAGES) {
    for (let i = 0; i < 20; i++) await (await browserFetch(base + page)).arrayBuffer();
    results[page] = await load(base + page, CONNECTIONS, SECONDS);
  }
  return results;
}

async function main() {
  if (!fs.existsSync("build/server.js")) throw new Error("build/server.js is missing: run `npm run build` first.");
  const database = await createDatabase("postgres");
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-balancer-"));
  const figures: Record<number, Record<string, LoadResult>> = {};
  try {
    for (const instances of [1, 2]) {
      const cluster = await startCluster(instances, database.databaseUrl!, dataDir);
      try {
        console.error(`${instances} instance(s): measuring…`);
        figures[instances] = await measure(cluster.base);
      } finally {
        await stopCluster(cluster.child);
      }
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
    await cleanUp();
  }
  const fmt = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : "–");
  console.log(`HAProxy in front of 1 or 2 instances (one process each) on one PostgreSQL database.`);
  console.log(
    `${os.cpus().length} cores, Node ${process.version}; ${CONNECTIONS} connections, ${SECONDS} s a page; load average ${os.loadavg()[0]!.toFixed(2)} at the end.\n`,
  );
  console.log("| page | 1 instance req/s | p50 / p99 ms | 2 instances req/s | p50 / p99 ms | ratio | errors, non-2xx |");
  console.log("|---|---|---|---|---|---|---|");
  for (const page of PAGES) {
    const [one, two] = [figures[1]![page]!, figures[2]![page]!];
    console.log(
      `| ${page} | ${fmt(one.rps)} | ${fmt(one.p50)} / ${fmt(one.p99)} | ${fmt(two.rps)} | ${fmt(two.p50)} / ${fmt(two.p99)} | ${(two.rps / one.rps).toFixed(2)} | ${one.errors + two.errors}, ${one.non2xx + two.non2xx} |`,
    );
  }
}

main().catch(async (error: unknown) => {
  console.error(error);
  await cleanUp();
  process.exit(1);
});
