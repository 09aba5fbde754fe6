import fs from "node:fs";
import { JOBS_TITLE } from "~/server/jobs/schedule";
import http from "node:http";
import net from "node:net";
import { once } from "node:events";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { freePort } from "~/tests/helpers/free-port";
import { startBuiltServer, type RunningServer } from "~/tests/helpers/server";
import { heldFormPost, sigterm } from "~/tests/helpers/stopping";
import { databaseEnv, isolatedConnection } from "~/tests/helpers/test-db";

// The server `npm start` runs (server/http, built to build/server.js): how it serves the
// client build, what it tells loaders about the client, and how it stops.

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A request sent exactly as written (fetch would resolve dot segments before sending). */
function raw(
  base: string,
  target: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; localAddress?: string } = {},
): Promise<RawAnswer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        hostname,
        port,
        path: target,
        method: options.method ?? "GET",
        headers: options.headers,
        localAddress: options.localAddress,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

function forgotPassword(base: string, email: string, localAddress?: string): Promise<RawAnswer> {
  const body = new URLSearchParams({ emailAddress: email }).toString();
  return raw(base, "/forgot-password", {
    method: "POST",
    body,
    localAddress,
    headers: { "Content-Type": "application/x-www-form-urlencoded", "Content-Length": String(Buffer.byteLength(body)), Origin: base },
  });
}

describe("serving the client build", () => {
  let server: RunningServer;
  let script: string;

  beforeAll(async () => {
    server = await startBuiltServer();
    const home = await (await fetch(server.url)).text();
    script = /<script[^>]+src="(\/assets\/[^"]+\.js)"/.exec(home)?.[1] ?? /href="(\/assets\/[^"]+\.js)"/.exec(home)![1]!;
  }, 120_000);

  afterAll(() => server?.stop());

  it("sends hashed assets as immutable for a year, with their type and length", async () => {
    const res = await raw(server.url, script, { headers: { "Accept-Encoding": "identity" } });
    expect(res.status).toBe(200);
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(res.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["content-security-policy"]).toContain("default-src 'self'");
    expect(res.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(Number(res.headers["content-length"])).toBe(res.body.length);
    expect(res.headers["content-encoding"]).toBeUndefined();
  });

  it("sends the brotli or gzip file the build made, as the client accepts", async () => {
    const plain = (await raw(server.url, script, { headers: { "Accept-Encoding": "identity" } })).body;
    const brotli = await raw(server.url, script, { headers: { "Accept-Encoding": "gzip, br" } });
    expect(brotli.headers["content-encoding"]).toBe("br");
    expect(brotli.headers.vary).toMatch(/Accept-Encoding/i);
    expect(Number(brotli.headers["content-length"])).toBe(brotli.body.length);
    expect(zlib.brotliDecompressSync(brotli.body).equals(plain)).toBe(true);
    const gzip = await raw(server.url, script, { headers: { "Accept-Encoding": "gzip" } });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(zlib.gunzipSync(gzip.body).equals(plain)).toBe(true);
    expect(brotli.body.length).toBeLessThan(gzip.body.length);
  });

  it("compresses pages and their data as the client accepts, and sends them plain to a client that accepts nothing", async () => {
    const brotli = await raw(server.url, "/", { headers: { "Accept-Encoding": "gzip, br" } });
    expect(brotli.headers["content-encoding"]).toBe("br");
    expect(brotli.headers.vary).toMatch(/Accept-Encoding/i);
    const page = zlib.brotliDecompressSync(brotli.body).toString("utf8");
    expect(page).toMatch(/^<!DOCTYPE html>/i);
    expect(page).toContain("</html>");
    expect(brotli.body.length).toBeLessThan(page.length / 2);
    // The whole page is compressed at once (ADR 052): its length is known before it is sent,
    // and its body ends with the route data for hydration, whole (ADR 057).
    expect(Number(brotli.headers["content-length"])).toBe(brotli.body.length);
    expect(page).toMatch(
      /streamController\.enqueue\("[\s\S]*"\);<\/script>(<!--\/?\$-->)*<script>window\.__remixContext\.streamController\.close\(\);<\/script>(<!--\/\$-->)*<\/body><\/html>$/,
    );

    const gzip = await raw(server.url, "/the-latest.data", { headers: { "Accept-Encoding": "gzip" } });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(zlib.gunzipSync(gzip.body).toString("utf8")).toContain("the-latest");

    const plain = await raw(server.url, "/", { headers: { "Accept-Encoding": "identity" } });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.toString("utf8")).toMatch(/^<!DOCTYPE html>[\s\S]*data-site-footer/i);
  });

  it("gives other public files a short lifetime", async () => {
    const res = await fetch(`${server.url}/favicon.svg`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/svg+xml");
    expect(res.headers.get("cache-control")).toBe("public, max-age=3600");
  });

  it("answers a repeat request with 304 when the file is unchanged, and HEAD without a body", async () => {
    const first = await fetch(server.url + script);
    const etag = first.headers.get("etag")!;
    expect(etag).toBeTruthy();
    expect((await fetch(server.url + script, { headers: { "If-None-Match": etag } })).status).toBe(304);
    const lastModified = first.headers.get("last-modified")!;
    expect((await fetch(server.url + script, { headers: { "If-Modified-Since": lastModified } })).status).toBe(304);
    for (const encoding of ["identity", "br"]) {
      const get = await raw(server.url, script, { headers: { "Accept-Encoding": encoding } });
      const head = await raw(server.url, script, { method: "HEAD", headers: { "Accept-Encoding": encoding } });
      expect(head.status).toBe(200);
      expect(head.headers["content-encoding"]).toBe(get.headers["content-encoding"]);
      expect(head.headers["content-length"]).toBe(String(get.body.length));
      expect(head.body.length).toBe(0);
    }
  });

  it("draws cover art once, then sends it as a static file: compressed, with its ETag, kept 30 days", async () => {
    const art = "/art/article/a-cover-drawn-for-this-test.svg";
    const drawn = await raw(server.url, art, { headers: { "Accept-Encoding": "identity" } });
    expect(drawn.status).toBe(200);
    expect(drawn.headers["content-type"]).toBe("image/svg+xml");
    const svg = drawn.body.toString("utf8");
    expect(svg).toMatch(/^<svg /);

    const kept = await raw(server.url, art, { headers: { "Accept-Encoding": "br" } });
    expect(kept.headers["content-encoding"]).toBe("br");
    expect(kept.headers["content-length"]).toBe(String(kept.body.length));
    expect(zlib.brotliDecompressSync(kept.body).toString("utf8")).toBe(svg);
    expect(kept.headers["cache-control"]).toBe("public, max-age=2592000");
    expect(kept.headers["content-security-policy"]).toContain("default-src 'self'");
    const etag = kept.headers.etag as string;
    expect(etag).toBeTruthy();
    expect((await raw(server.url, art, { headers: { "If-None-Match": etag } })).status).toBe(304);
    const head = await raw(server.url, art, { method: "HEAD", headers: { "Accept-Encoding": "identity" } });
    expect([head.status, head.headers["content-length"], head.body.length]).toEqual([200, String(svg.length), 0]);

    // Art for nothing is not found, every time: a 404 is not kept.
    for (let i = 0; i < 2; i++) expect((await raw(server.url, "/art/issue/0000.svg")).status).toBe(404);
  });

  it("never sends a file from outside the client build", async () => {
    for (const target of [
      "/assets/../../package.json",
      "/assets/%2e%2e/%2e%2e/package.json",
      "/..%2f..%2fpackage.json",
      "/assets/..%5c..%5cpackage.json",
      "/../server/index.js",
    ]) {
      const res = await raw(server.url, target);
      expect(res.status, target).toBeGreaterThanOrEqual(400);
      expect(res.status, target).toBeLessThan(500);
      expect(res.body.toString(), target).not.toContain('"name": "meridian-review"');
      expect(res.body.toString(), target).not.toContain("createRequestHandler");
    }
  });

  it("answers a request target that is not a path with 400", async () => {
    const res = await raw(server.url, "http://evil.example/");
    expect(res.status).toBe(400);
  });

  it("answers a Host header that is not a host and port with 400", async () => {
    /** The status of GET /healthz with this Host line, sent byte for byte (a client library would fill in an empty one). */
    const statusFor = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const { hostname, port } = new URL(server.url);
        const socket = net.connect(Number(port), hostname);
        let answer = "";
        socket.on("data", (chunk: Buffer) => (answer += String(chunk)));
        socket.on("end", () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1])));
        socket.on("error", reject);
        socket.end(`GET /healthz HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      });
    const forged = [
      "127.0.0.1@evil.example",
      "user:pass@127.0.0.1",
      "",
      "two words",
      "127.0.0.1:99999",
      "127.0.0.1:port",
      "[",
      "[::1",
      "a".repeat(300),
    ];
    for (const host of forged) expect(await statusFor(host), host).toBe(400);
    for (const host of ["127.0.0.1", "localhost:3210", "[::1]:3210", "www.meridian.example"]) expect(await statusFor(host), host).toBe(200);
  });
});

describe("the request log", () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startBuiltServer();
  }, 120_000);

  afterAll(() => server?.stop());

  /** The next access-log line the server writes for a request with this id. */
  const loggedRequest = (requestId: string) =>
    new Promise<Record<string, unknown>>((resolve) => {
      let buffered = "";
      const onData = (chunk: Buffer) => {
        buffered += String(chunk);
        for (const line of buffered.split("\n").slice(0, -1)) {
          const entry = JSON.parse(line) as Record<string, unknown>;
          if (entry.msg === "request" && entry.requestId === requestId) {
            server.child.stdout!.off("data", onData);
            resolve(entry);
          }
        }
        buffered = buffered.slice(buffered.lastIndexOf("\n") + 1);
      };
      server.child.stdout!.on("data", onData);
    });

  it("writes a JSON line for each request under the balancer's id, without the query", async () => {
    const logged = loggedRequest("lb-42");
    const res = await fetch(`${server.url}/search?q=private+words`, { headers: { "X-Request-Id": "lb-42" } });
    await res.arrayBuffer();
    expect(res.headers.get("x-request-id")).toBe("lb-42");
    expect(await logged).toMatchObject({ level: "info", method: "GET", path: "/search", status: 200, address: "127.0.0.1" });
    expect(JSON.stringify(await logged)).not.toContain("private");
  });

  it("answers Remix's old data requests (?_data=) with 400, logging nothing but the request's line", async () => {
    for (const [id, target] of [
      ["data-probe-root", "/?_data=root"],
      ["data-probe-route", "/the-latest?_data=routes%2Fthe-latest"],
    ] as const) {
      const logged = loggedRequest(id);
      const res = await fetch(`${server.url}${target}`, { headers: { "X-Request-Id": id } });
      expect(res.status, target).toBe(400);
      await res.arrayBuffer();
      expect(await logged).toMatchObject({ level: "info", status: 400 });
      // What the server wrote to stderr before that line has been read by the end of this turn.
      await new Promise(setImmediate);
      expect(server.errors()).not.toContain(id);
    }
  });

  it("gives a request that came without a usable id one of its own, static files included", async () => {
    const res = await fetch(`${server.url}/robots.txt`, { headers: { "X-Request-Id": "two words" } });
    await res.arrayBuffer();
    const id = res.headers.get("x-request-id")!;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const again = await fetch(`${server.url}/robots.txt`);
    await again.arrayBuffer();
    expect(again.headers.get("x-request-id")).not.toBe(id);
  });
});

describe("the client's address", () => {
  let server: RunningServer;

  beforeAll(async () => {
    // No CLIENT_IP_HEADER: the address can only come from the connection itself.
    server = await startBuiltServer({ RATE_LIMIT_PER_IP: "3", RATE_LIMIT_PER_ACCOUNT: "100" });
  }, 120_000);

  afterAll(() => server?.stop());

  it("reaches the rate limits: one address is limited, another connection's address is not", async () => {
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await forgotPassword(server.url, `limited${i}@example.org`)).status);
    expect(statuses).toEqual([303, 303, 303, 429]);
    // Another loopback address (Linux routes all of 127/8 to lo) is another client.
    expect((await forgotPassword(server.url, "other@example.org", "127.0.0.2")).status).toBe(303);
  });
});

describe("stopping", () => {
  it("finishes the request in flight after SIGTERM, refuses new connections, and exits 0", async () => {
    const server = await startBuiltServer({ SHUTDOWN_GRACE_SECONDS: "60" });
    try {
      const { hostname, port } = new URL(server.url);
      // The request is in flight before the signal; its body is sent only after.
      const request = await heldFormPost(server.url, "/forgot-password", { emailAddress: "drain@example.org" });
      const { exited } = await sigterm(server);

      const refused = await new Promise<string>((resolve) => {
        const socket = net.connect(Number(port), hostname);
        socket.once("connect", () => {
          socket.destroy();
          resolve("connected");
        });
        socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? "error"));
      });
      expect(refused).toBe("ECONNREFUSED");
      expect(server.child.exitCode).toBeNull();

      const res = await request.send();
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toContain("/forgot-password");

      const [code, signal] = await exited;
      expect({ code, signal }).toEqual({ code: 0, signal: null });
    } finally {
      await server.stop();
    }
  }, 90_000);
});

describe("one process per core", () => {
  /** The processes the primary started (its children, read from /proc): their pid, name and nice value. */
  const children = (primary: number) =>
    fs
      .readdirSync("/proc")
      .filter((entry) => /^\d+$/.test(entry))
      .flatMap((pid) => {
        try {
          // The name is in parentheses; after it, the parent's pid is the 2nd field and the nice value the 17th.
          const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
          const fields = stat.slice(stat.lastIndexOf(") ") + 2).split(" ");
          const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(") "));
          return Number(fields[1]) === primary ? [{ pid: Number(pid), name, nice: Number(fields[16]) }] : [];
        } catch {
          return []; // it exited while the list was read
        }
      });
  /** Whether a process is still running (not gone, nor a zombie left for its new parent to reap). */
  const isRunning = (pid: number) => {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      return stat.slice(stat.lastIndexOf(") ") + 2)[0] !== "Z";
    } catch {
      return false;
    }
  };
  /** The processes that serve pages. */
  const workers = (primary: number) =>
    children(primary)
      .filter((child) => child.name !== JOBS_TITLE)
      .map((child) => child.pid);
  const jobs = (primary: number) => children(primary).filter((child) => child.name === JOBS_TITLE);

  /** Resolves with the server's output once it includes text. */
  const output = (server: RunningServer, text: string) =>
    new Promise<void>((resolve) => {
      let seen = "";
      const onData = (chunk: Buffer) => {
        seen += String(chunk);
        if (seen.includes(text)) {
          server.child.stdout!.off("data", onData);
          server.child.stderr!.off("data", onData);
          resolve();
        }
      };
      server.child.stdout!.on("data", onData);
      server.child.stderr!.on("data", onData);
    });

  it("serves from WEB_CONCURRENCY processes, replaces one that dies, and drains them all on SIGTERM; with JOBS_PROCESSES=0 it runs no jobs", async () => {
    const server = await startBuiltServer({ WEB_CONCURRENCY: "2", JOBS_PROCESSES: "0" });
    try {
      const primary = server.child.pid!;
      const [first, second] = workers(primary);
      expect(workers(primary)).toHaveLength(2);
      expect(jobs(primary)).toEqual([]);

      const replaced = output(server, `Server process ${first} exited with signal SIGKILL; starting another`);
      process.kill(first!, "SIGKILL");
      await replaced;
      // The other process goes on answering while the new one starts, and both answer after.
      for (let i = 0; i < 6; i++) expect((await raw(server.url, "/the-latest")).status).toBe(200);
      const now = workers(primary);
      expect(now).toHaveLength(2);
      expect(now).toContain(second);
      expect(now).not.toContain(first);

      const exited = once(server.child, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
      const drained = output(server, "SIGTERM: no new connections");
      server.child.kill("SIGTERM");
      await drained;
      const [code, signal] = await exited;
      expect({ code, signal }).toEqual({ code: 0, signal: null });
      expect(workers(primary)).toEqual([]);
    } finally {
      await server.stop();
    }
  }, 90_000);

  it("runs the scheduled jobs in a process of their own per serving process, at the lowest CPU priority, replaced if it dies", async () => {
    // JOBS_PROCESSES and JOBS_NICENESS left unset, as an operator would: one per serving process.
    const server = await startBuiltServer({ WEB_CONCURRENCY: "2", JOBS_PROCESSES: "", JOBS_NICENESS: "" });
    try {
      const primary = server.child.pid!;
      // Each lowers its own priority once it has loaded.
      await expect.poll(() => jobs(primary).map((job) => job.nice), { timeout: 30_000 }).toEqual([19, 19]);
      const [first, second] = jobs(primary).map((job) => job.pid);

      const replaced = output(server, `The scheduled jobs' process ${first} exited with signal SIGKILL; starting another`);
      process.kill(first!, "SIGKILL");
      await replaced;
      await expect.poll(() => jobs(primary).map((job) => job.pid), { timeout: 20_000 }).toHaveLength(2);
      expect(jobs(primary).map((job) => job.pid)).toContain(second);
      expect(jobs(primary).map((job) => job.pid)).not.toContain(first);
      expect(workers(primary)).toHaveLength(2);

      const running = jobs(primary).map((job) => job.pid);
      const exited = once(server.child, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
      server.child.kill("SIGTERM");
      const [code] = await exited;
      expect(code).toBe(0);
      await expect.poll(() => running.filter(isRunning), { timeout: 30_000 }).toEqual([]);
    } finally {
      await server.stop();
    }
  }, 90_000);

  it("stops with exit code 1, starting no more processes, when its processes fail to start", async () => {
    const connection = await isolatedConnection("cluster");
    try {
      // The primary prepares the data and forks; each process then fails to load the build.
      const child = spawn(process.execPath, ["build/server.js", "build/server/missing.js"], {
        env: {
          ...process.env,
          NODE_ENV: "production",
          PORT: String(await freePort()),
          HOST: "127.0.0.1",
          WEB_CONCURRENCY: "2",
          ...databaseEnv(connection),
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stderr = "";
      child.stderr!.on("data", (chunk: Buffer) => (stderr += String(chunk)));
      child.stdout!.resume();
      const [code] = (await once(child, "close")) as [number | null];
      expect(code).toBe(1);
      expect(stderr).toContain("missing.js");
      expect(stderr).toMatch(/A server process exited with (code|signal) \S+ before it listened; stopping/);
      expect(stderr).not.toContain("starting another");
    } finally {
      await connection.drop();
    }
  }, 90_000);
});

describe("the build under remix-serve", () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startBuiltServer({}, "remix-serve");
  }, 120_000);

  afterAll(() => server?.stop());

  it("still serves the home page and an article", async () => {
    expect((await fetch(server.url)).status).toBe(200);
    const latest = await (await fetch(`${server.url}/the-latest`)).text();
    const article = /<h3[^>]*><a[^>]+href="(\/\d{4}\/\d{2}\/[^"]+)"/.exec(latest)?.[1];
    expect(article).toBeTruthy();
    expect((await fetch(server.url + article)).status).toBe(200);
  });
});
