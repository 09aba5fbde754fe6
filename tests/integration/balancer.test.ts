import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { once } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "~/tests/helpers/free-port";
import { dialectName, isolatedConnection, type IsolatedConnection } from "~/tests/helpers/test-db";

// `npm run cluster:pg`: two instances on one PostgreSQL database behind HAProxy with the
// committed deploy/haproxy.cfg (Debian's haproxy package; .ci/run installs it).

interface LogLine {
  instance: string;
  entry: Record<string, unknown>;
}

let database: IsolatedConnection;
let cluster: ChildProcess;
let base: string;
let stats: string;
let dataDir: string;
const lines: LogLine[] = [];
const waiters = new Set<() => void>();

/** Waits until a log line that `match` accepts has been written (or the deadline passes). */
function logged(match: (line: LogLine) => boolean, what: string, ms = 30_000): Promise<LogLine> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const found = lines.find(match);
      if (!found) return;
      waiters.delete(check);
      clearTimeout(timer);
      resolve(found);
    };
    const timer = setTimeout(() => {
      waiters.delete(check);
      reject(new Error(`no log line: ${what}`));
    }, ms);
    waiters.add(check);
    check();
  });
}

/** Two consecutive free ports: the cluster script numbers its instances from the first. */
async function freePortPair(): Promise<number> {
  for (;;) {
    const port = await freePort();
    const next = net.createServer();
    const free = await new Promise<boolean>((resolve) => {
      next.once("error", () => resolve(false));
      next.listen(port + 1, "127.0.0.1", () => resolve(true));
    });
    if (free) {
      await new Promise((resolve) => next.close(resolve));
      return port;
    }
  }
}

/** The balancer's view of its instances: name to status (UP, DOWN, …). */
async function instanceStates(): Promise<Record<string, string>> {
  const csv = await (await fetch(`${stats}/stats;csv`)).text();
  const rows = csv.split("\n").map((row) => row.split(","));
  const status = rows[0]!.indexOf("status");
  return Object.fromEntries(rows.filter((r) => r[0] === "instances" && r[1] !== "BACKEND").map((r) => [r[1], r[status]!.split(" ")[0]]));
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read().catch(() => undefined);
    if (value !== undefined && done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A GET on a connection of its own from a given local address. */
function get(target: string, headers: Record<string, string> = {}, localAddress = "127.0.0.2") {
  const { hostname, port } = new URL(base);
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
    const req = http.get({ hostname, port, path: target, headers, localAddress, agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers }));
    });
    req.on("error", reject);
  });
}

describe.runIf(dialectName === "postgres")("npm run cluster:pg: HAProxy in front of two instances", () => {
  beforeAll(async () => {
    if (spawnSync("haproxy", ["-v"]).error) throw new Error("haproxy is not installed: apt-get install haproxy (README, Tests)");
    database = await isolatedConnection("lb");
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cluster-"));
    const [port, statsPort, firstInstance] = [await freePort(), await freePort(), await freePortPair()];
    base = `http://127.0.0.1:${port}`;
    stats = `http://127.0.0.1:${statsPort}`;
    cluster = spawn(process.execPath, ["node_modules/tsx/dist/cli.mjs", "deploy/cluster.ts"], {
      env: {
        ...process.env,
        DATABASE_URL: database.databaseUrl,
        DATA_DIR: dataDir,
        INSTANCES: "2",
        HOST: "127.0.0.1",
        PORT: String(port),
        STATS_PORT: String(statsPort),
        FIRST_INSTANCE_PORT: String(firstInstance),
        STORE_MAINTENANCE_WINDOW: "off",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    for (const stream of [cluster.stdout!, cluster.stderr!]) {
      readline.createInterface({ input: stream }).on("line", (line) => {
        const parsed = /^\[(app\d+)\] (\{.*\})$/.exec(line);
        if (parsed) lines.push({ instance: parsed[1]!, entry: JSON.parse(parsed[2]!) as Record<string, unknown> });
        else if (stream === cluster.stderr) process.stderr.write(`${line}\n`);
        for (const waiter of [...waiters]) waiter();
      });
    }
    await until(instanceStates, (s) => s.app1 === "UP" && s.app2 === "UP", "both instances up");
  }, 180_000);

  afterAll(async () => {
    if (cluster && cluster.exitCode === null) {
      const exited = once(cluster, "exit");
      cluster.kill("SIGTERM");
      await exited;
    }
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("spreads requests over both, and each instance logs the reader's address and the request id", async () => {
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => get(i % 2 ? "/topics" : "/", { "X-Request-Id": `edge-${i}` })));
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200));
    expect(answers.map((a) => a.headers["x-request-id"])).toEqual(answers.map((_, i) => `edge-${i}`));
    const seen = await Promise.all(
      answers.map((_, i) => logged(({ entry }) => entry.msg === "request" && entry.requestId === `edge-${i}`, `request edge-${i}`)),
    );
    expect(new Set(seen.map((line) => line.instance))).toEqual(new Set(["app1", "app2"]));
    // The client's own address (X-Forwarded-For), not the balancer's.
    expect(seen.map((line) => line.entry.address)).toEqual(Array(12).fill("127.0.0.2"));
  });

  it("gives a request that came without an id the balancer's own, which the instance logs", async () => {
    const answer = await get("/topics");
    const id = String(answer.headers["x-request-id"]);
    expect(id).toMatch(/^[0-9A-F]{8}-/);
    await logged(({ entry }) => entry.requestId === id && entry.path === "/topics", `request ${id}`);
  });

  it("keeps answering while one instance stops: the balancer stops sending it readers", async () => {
    const pid = Number(
      (await logged(({ instance, entry }) => instance === "app1" && typeof entry.pid === "number", "app1's pid")).entry.pid,
    );
    process.kill(pid, "SIGTERM");
    const statuses: number[] = [];
    await until(
      async () => {
        statuses.push((await get("/topics")).status);
        return instanceStates();
      },
      (s) => s.app1 !== "UP",
      "app1 out of the balancer",
    );
    for (let i = 0; i < 10; i++) statuses.push((await get("/topics")).status);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    expect((await instanceStates()).app2).toBe("UP");
  }, 120_000);

  it("stops HAProxy and drains the other instance on SIGTERM, and exits 0", async () => {
    const exited = once(cluster, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
    cluster.kill("SIGTERM");
    const [code] = await exited;
    expect(code).toBe(0);
    await expect(get("/topics")).rejects.toThrow(/ECONNREFUSED/);
  }, 60_000);
});
