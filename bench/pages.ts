// Server-rendering benchmark: npm run build && npm run bench
// (BENCH_DATA_DIR=folder uses a data folder seeded before, with BENCH_ARTICLES saying how many
// synthetic articles it holds, for the rows that only make sense at scale.)
// (BENCH_SERVER=remix-serve measures the build under remix-serve instead of the repo's server.)
// Starts the production build on a fresh database, then for the home page, an article and a
// stream page prints requests/s and p50/p99 latency at 32 connections, the same for a bare
// node:http server sending identical bytes (the ceiling), their ratio, server CPU per request,
// and page weight (HTML, CSS, JS and the route data sent for hydration; gzip). Then the weight
// alone of the pages with forms (sign-in, the store's, a reader's own), which are the heaviest in
// JS. WEB_CONCURRENCY sets the production server's processes (one per core by default); CPU
// counts all of them.
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import autocannon from "autocannon";
import * as cheerio from "cheerio";
import { untilServing } from "./serving";

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 32;
const SYNTHETIC = Number(process.env.BENCH_ARTICLES ?? 0);
/** A data folder seeded before (say with `npm run seed -- --articles 100000`), used as it is and kept. */
const GIVEN_DATA_DIR = process.env.BENCH_DATA_DIR;
const SERVER =
  process.env.BENCH_SERVER === "remix-serve" ? ["node_modules/@remix-run/serve/dist/cli.js", "build/server/index.js"] : ["build/server.js"];

const gz = (b: Buffer | string) => zlib.gzipSync(b).length;
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

/** CPU time of a process and its children (the server's cluster workers), from /proc. */
function cpuMs(pid: number): number {
  let ticks = 0;
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let fields: string[];
    try {
      fields = fs.readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1]!.split(" ");
    } catch {
      continue; // it exited while the list was read
    }
    if (Number(entry) === pid || Number(fields[1]) === pid) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return (ticks * 1000) / 100; // USER_HZ is 100 on Linux
}

async function load(url: string, headers: Record<string, string> = {}) {
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, total: r.requests.total, non2xx: r.non2xx };
}

async function start(dataDir: string, port: number, env: Record<string, string> = {}) {
  if (SYNTHETIC > 0 && !GIVEN_DATA_DIR && !env.PAGE_CACHE_MB) {
    await new Promise<void>((resolve, reject) => {
      const seed = spawn(process.execPath, ["node_modules/tsx/dist/cli.mjs", "server/seed/cli.ts", "--articles", String(SYNTHETIC)], {
        env: { ...process.env, DATA_DIR: dataDir },
        stdio: ["ignore", "inherit", "ignore"],
      });
      seed.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`seed exited ${code}`))));
    });
  }
  const child = spawn(process.execPath, SERVER, {
    env: { ...process.env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, ...env },
    stdio: "ignore",
  });
  return untilServing(child, port);
}

async function weight(base: string, html: string) {
  const css = [...html.matchAll(/<link rel="stylesheet" href="([^"]+)"/g)].map((m) => m[1]!);
  const js = new Set([...html.matchAll(/<(?:script[^>]+src|link rel="modulepreload" href)="([^"]+)"/g)].map((m) => m[1]!));
  // Inline scripts (also inside the HTML figure): Remix's code and manifest count as JS; the
  // route data it streams for hydration is reported on its own; JSON-LD is not script at all.
  const inline = [...html.matchAll(/<script(?![^>]*src)([^>]*)>([\s\S]*?)<\/script>/g)]
    .filter((m) => !m[1]!.includes("application/ld+json"))
    .map((m) => m[2]!);
  const isData = (script: string) => script.includes("streamController.enqueue");
  let cssBytes = 0;
  for (const href of css) cssBytes += gz(Buffer.from(await (await fetch(base + href)).arrayBuffer()));
  let jsBytes = gz(inline.filter((script) => !isData(script)).join(""));
  for (const src of js) jsBytes += gz(Buffer.from(await (await fetch(base + src)).arrayBuffer()));
  return { html: gz(html), css: cssBytes, js: jsBytes, data: gz(inline.filter(isData).join("")) };
}

/** A form's fields as the browser would send them, and where to. */
function formFields(html: string, selector: string): { action: string; body: URLSearchParams } {
  const $ = cheerio.load(html);
  const form = $(selector).first();
  if (form.length === 0) throw new Error(`no form ${selector}`);
  const body = new URLSearchParams();
  form.find("input[name]").each((_, input) => void body.append($(input).attr("name")!, $(input).attr("value") ?? ""));
  return { action: form.attr("action")!, body };
}

/** Posts as a same-site form would, and returns the cookie the answer sets. */
async function post(base: string, action: string, body: URLSearchParams, cookie: string, name: string): Promise<string> {
  const res = await fetch(base + action, { method: "POST", body, redirect: "manual", headers: { origin: base, cookie } });
  const set = res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
  if (res.status !== 303 || !set) throw new Error(`POST ${action} answered ${res.status} without ${name}`);
  return set.split(";")[0]!;
}

/** The pages with forms, as a guest, a shopper with an item in the cart and a signed-in reader see them. */
async function formPages(base: string): Promise<[name: string, route: string, cookie: string][]> {
  const store = await (await fetch(`${base}/store`)).text();
  const products = [...new Set([...store.matchAll(/href="(\/product\/[^"]+)"/g)].map((m) => m[1]!))];
  let product: { route: string; html: string } | undefined;
  for (const route of products) {
    const html = await (await fetch(base + route)).text();
    if (html.includes('action="/shopping-cart"')) {
      product = { route, html };
      break;
    }
  }
  if (!product) throw new Error("no product with an Add to Cart form in the store");
  const add = formFields(product.html, 'form[action="/shopping-cart"]');
  const cart = await post(base, add.action, add.body, "", "mr_cart");
  const registration = formFields(await (await fetch(`${base}/register`)).text(), 'form[method="post"]');
  registration.body.set("emailAddress", `bench-${Date.now()}@example.com`);
  registration.body.set("firstName", "Bench");
  registration.body.set("lastName", "Reader");
  registration.body.set("password", "Bench#reader7");
  const session = await post(base, "/register", registration.body, "", "mr_session");
  return [
    ["sign-in", "/sign-in", ""],
    ["registration", "/register", ""],
    ["forgot password", "/forgot-password", ""],
    ["a product, with its Add to Cart form", product.route, ""],
    ["shopping cart, one item", "/shopping-cart", cart],
    ["shipping and payment, one item", "/shipping-payment", cart],
    ["my account", "/my-account", session],
    ["my library", "/my-library", session],
  ];
}

async function main() {
  if (!fs.existsSync("build/server.js")) throw new Error("run `npm run build` first");
  const dataDir = GIVEN_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), "bench-"));
  const port = 3900;
  const base = `http://127.0.0.1:${port}`;
  const server = await start(dataDir, port);
  // The same build and database with the guest-page cache off: every request rendered.
  const uncachedPort = 3902;
  const uncached = await start(dataDir, uncachedPort, { PAGE_CACHE_MB: "0" });
  try {
    const latestHtml = await (await fetch(`${base}/the-latest`)).text();
    const article = /<h3[^>]*><a[^>]+href="(\/\d{4}\/\d{2}\/[^"]+)"/.exec(latestHtml)?.[1];
    if (!article) throw new Error("no article found on /the-latest");
    // A returning guest who has this article on their meter already (a read, no write), and a
    // new visitor on every request (a meter write and a new visitor cookie each time).
    const first = await fetch(base + article);
    const visitor =
      first.headers
        .getSetCookie()
        .find((c) => c.startsWith("mr_visitor="))
        ?.split(";")[0] ?? "";
    const topic = /href="(\/topic\/subject\/[^"]+)"/.exec(await (await fetch(`${base}/topics`)).text())?.[1];
    if (!topic) throw new Error("no topic found on /topics");
    // The guest-page cache keys a page by its loader data: a returning reader's article and the
    // pages without a meter are hits after the first request. "Cache off" renders every time:
    // the pages listed for scale (topics, deep paging, the archive, sitemaps) are measured so, to
    // show what their queries cost as the database grows.
    type BenchPage = [name: string, route: string, headers: Record<string, string>, target: typeof server];
    const pages: BenchPage[] = [
      ["home", "/", {}, server],
      ["article, returning reader (cache hit)", article, { cookie: visitor }, server],
      ["article, returning reader, cache off", article, { cookie: visitor }, uncached],
      ["article, new visitor each time", article, {}, server],
      ["stream", "/the-latest", {}, server],
      ["topic page, cache off", topic, {}, uncached],
      ["stream page 3, cache off", "/the-latest?page=3", {}, uncached],
      ...(SYNTHETIC > 0 ? [["stream page 5,000, cache off", "/the-latest?page=5000", {}, uncached] satisfies BenchPage] : []),
      ["magazine archive, cache off", "/magazine?year=1987", {}, uncached],
      ["sitemap of articles, cache off", "/sitemaps/articles-1.xml", {}, uncached],
    ];
    console.log(
      `${SERVER[0]} (${SERVER[0] === "build/server.js" ? `${process.env.WEB_CONCURRENCY ?? os.availableParallelism()} processes` : "1 process"}): ${os.cpus().length} cores, ${CONNECTIONS} connections, ${DURATION} s per run${SYNTHETIC ? `, ${SYNTHETIC} synthetic articles` : ""}\n`,
    );
    for (const [name, route, headers, target] of pages) {
      const targetBase = `http://127.0.0.1:${target === server ? port : uncachedPort}`;
      const res = await fetch(targetBase + route, { headers });
      const html = (await res.text()).replace(/ nonce="[^"]+"/g, "");
      const type = res.headers.get("content-type") ?? "text/html";
      const before = cpuMs(target.pid!);
      const app = await load(targetBase + route, headers);
      const cpuPerRequest = (cpuMs(target.pid!) - before) / app.total;

      const bytes = Buffer.from(html);
      const bare = http.createServer((_, out) => {
        out.writeHead(200, { "content-type": type, "content-length": bytes.length });
        out.end(bytes);
      });
      await new Promise<void>((r) => bare.listen(3901, "127.0.0.1", () => r()));
      const ceiling = await load("http://127.0.0.1:3901/");
      await new Promise((r) => bare.close(r));

      const w = await weight(base, html);
      console.log(`${name} (${route})`);
      console.log(
        `  app:     ${app.rps.toFixed(0)} req/s, p50 ${app.p50} ms, p99 ${app.p99} ms, non-2xx ${app.non2xx}, server CPU ${cpuPerRequest.toFixed(2)} ms/request`,
      );
      console.log(
        `  ceiling: ${ceiling.rps.toFixed(0)} req/s, p50 ${ceiling.p50} ms, p99 ${ceiling.p99} ms (bare node:http, same ${kb(bytes.length)})`,
      );
      console.log(`  ratio:   ${((app.rps / ceiling.rps) * 100).toFixed(1)}% of the ceiling`);
      console.log(`  weight:  HTML ${kb(w.html)}, CSS ${kb(w.css)}, JS ${kb(w.js)}, route data for hydration ${kb(w.data)} (gzip)\n`);
    }
    console.log("Pages with forms, weight only (gzip):");
    for (const [name, route, cookie] of await formPages(base)) {
      const html = await (await fetch(base + route, { headers: { cookie } })).text();
      const w = await weight(base, html);
      console.log(`  ${name.padEnd(38)} JS ${kb(w.js)}, HTML ${kb(w.html)}, route data ${kb(w.data)}  ${route}`);
    }
  } finally {
    server.kill("SIGTERM");
    uncached.kill("SIGTERM");
    if (!GIVEN_DATA_DIR) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
