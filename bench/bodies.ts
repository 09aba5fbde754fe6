// Hostile request bodies: npm run build && npx tsx bench/bodies.ts
// Starts the production build (BENCH_BUILD, default build; another build's folder measures
// that one) as one process on a fresh SQLite database, then sends it, one after the other:
// - 200 MB of form sent chunked (no Content-Length) to /sign-in: the process's memory before,
//   and its peak after;
// - the sign-in form with 40,000 repeated fields (586 KB), sent chunked;
// - the sign-in form with 30,000 one-letter fields in 60 KB, within the size limit, sent with its
//   Content-Length;
// - the sign-in form with 1,000 repeated fields, the most a form may have, sent chunked.
// For each post it prints the answer's status, the bytes sent before it came, the CPU time the
// server process spent (from /proc), and the slowest /healthz answer while the post was open.
// Requests go to 127.0.0.1 only, and the run stops by itself.
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { freePort } from "~/tests/helpers/free-port";
import { USER_AGENT } from "./browser";
import { untilServing } from "./serving";

const BUILD = path.resolve(process.env.BENCH_BUILD ?? "build");
/** /proc counts CPU time in ticks of 1/100 s on Linux, whatever the kernel's own tick. */
const TICKS_PER_SECOND = 100;

const procStatus = (pid: number, field: string) =>
  Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;

function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  // utime and stime, fields 14 and 15 of the line (11 and 12 after the command name).
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

interface Sent {
  status: number;
  sentBytes: number;
}

/**
 * Posts `total` bytes of the given chunk to /sign-in, as fast as the server takes them. It stops
 * sending when the answer comes (as a browser does), and ends the body there.
 */
function post(port: number, chunk: Buffer, total: number, chunked: boolean): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: "127.0.0.1",
      port,
      path: "/sign-in",
      method: "POST",
      agent: false,
      headers: {
        "User-Agent": USER_AGENT,
        "Content-Type": "application/x-www-form-urlencoded",
        ...(chunked ? { "Transfer-Encoding": "chunked" } : { "Content-Length": String(total) }),
      },
    });
    let sent = 0;
    let answered = false;
    req.on("response", (res) => {
      answered = true;
      const sentBytes = sent;
      res.resume();
      res.once("end", () => {
        req.destroy();
        resolve({ status: res.statusCode!, sentBytes });
      });
    });
    req.on("error", (error) => (answered ? undefined : reject(error)));
    const pump = () => {
      while (!answered && sent < total) {
        const piece = chunk.subarray(0, Math.min(chunk.length, total - sent));
        sent += piece.length;
        if (!req.write(piece)) return void req.once("drain", pump);
      }
      req.end();
    };
    pump();
  });
}

/** The slowest /healthz answer, asked one after another until `until` settles. */
async function slowestHealthCheck(port: number, until: Promise<unknown>): Promise<number> {
  let open = true;
  void until.finally(() => (open = false));
  let slowest = 0;
  while (open) {
    const started = performance.now();
    await (await fetch(`http://127.0.0.1:${port}/healthz`)).arrayBuffer();
    slowest = Math.max(slowest, performance.now() - started);
    await new Promise((r) => setTimeout(r, 50));
  }
  return slowest;
}

async function measure(pid: number, port: number, name: string, send: () => Promise<Sent>): Promise<void> {
  // Resets the process's peak memory (VmHWM) to what it holds now.
  fs.writeFileSync(`/proc/${pid}/clear_refs`, "5");
  const cpuBefore = cpuSeconds(pid);
  const rssBefore = procStatus(pid, "VmRSS");
  const answer = send();
  const health = await slowestHealthCheck(port, answer);
  const { status, sentBytes } = await answer;
  console.log(
    `${name}: ${status} after ${(sentBytes / 1024).toFixed(0)} KB sent; server CPU ${(cpuSeconds(pid) - cpuBefore).toFixed(2)} s; ` +
      `memory ${rssBefore.toFixed(0)} MB before, peak ${procStatus(pid, "VmHWM").toFixed(0)} MB; slowest /healthz meanwhile ${health.toFixed(0)} ms`,
  );
}

const port = await freePort();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-bodies-"));
const child = spawn(process.execPath, [path.join(BUILD, "server.js"), path.join(BUILD, "server/index.js")], {
  env: {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    DATABASE_URL: "",
    SITE_URL: `http://127.0.0.1:${port}`,
    WEB_CONCURRENCY: "1",
    LOG_REQUESTS: "0",
    RATE_LIMIT_PER_IP: "100000",
  },
  stdio: ["ignore", "ignore", "inherit"],
});
try {
  await untilServing(child, port);
  const pid = child.pid!;
  console.log(`${BUILD}: one server process, ${procStatus(pid, "VmRSS").toFixed(0)} MB once serving`);
  await measure(pid, port, "200 MB chunked", () => post(port, Buffer.alloc(64 * 1024, "a"), 200 * 1024 * 1024, true));
  const repeated = Buffer.from("email=a%40b.io&".repeat(40_000));
  await measure(pid, port, `40,000 fields (${(repeated.length / 1024).toFixed(0)} KB) chunked`, () =>
    post(port, repeated, repeated.length, true),
  );
  const letters = Buffer.from("a&".repeat(30_000));
  await measure(pid, port, "30,000 fields (60 KB) with Content-Length", () => post(port, letters, letters.length, false));
  const most = Buffer.from("email=a%40b.io&".repeat(1_000));
  await measure(pid, port, "1,000 fields (the most a form may have), chunked", () => post(port, most, most.length, true));
} finally {
  child.kill("SIGTERM");
  fs.rmSync(dataDir, { recursive: true, force: true });
}
