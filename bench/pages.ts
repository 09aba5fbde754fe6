// Server-rendering benchmark: npm run build && npm run bench
//   BENCH_SECONDS per run (default 10); BENCH_ARTICLES (default 100000; 0 measures the seed
//   database alone); BENCH_PROCESSES, the server's WEB_CONCURRENCY for each round (default 1,2);
//   BENCH_DATA_DIR, a data folder seeded before with BENCH_ARTICLES synthetic articles (say with
//   `npm run seed -- --articles 100000`), used instead of seeding them and kept;
//   BENCH_SERVER=remix-serve measures the build under remix-serve (one process).
// On a fresh SQLite seed database, then on one with BENCH_ARTICLES synthetic articles more, for
// each number of server processes: the article page, home and a stream (/the-latest) for a
// returning guest (answered from the guest-page cache), a signed-in registered reader and a
// signed-in subscriber; then pages rendered every time (the cache off) whose queries grow with
// the database. Each row: the server's CPU per request (all its processes, from /proc), req/s and
// p50/p99 at 32 connections, and req/s as a share of a bare node:http server sending the guest's
// page (the ceiling, measured once per page and database). Every request sends a desktop
// browser's User-Agent (bench/browser.ts). Then the weight of those pages (HTML, CSS, JS and
// the route data sent for hydration; gzip), and of the pages with forms, the heaviest in JS.
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import zlib from "node:zlib";
import * as cheerio from "cheerio";
import { browserFetch, cookieOf, readerSessions, returningGuest } from "./browser";
import { load, type LoadResult } from "./latency";
import { cleanUp, createDatabase, seed, startServer, type BenchDatabase, type RunningServer } from "./search-setup";
import { ms, table } from "./table";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 32;
const ARTICLES = Number(process.env.BENCH_ARTICLES ?? 100_000);
const GIVEN_DATA_DIR = process.env.BENCH_DATA_DIR;
const REMIX_SERVE = process.env.BENCH_SERVER === "remix-serve";
const PROCESSES = REMIX_SERVE ? [1] : (process.env.BENCH_PROCESSES ?? "1,2").split(",").map(Number);
const SERVER = REMIX_SERVE ? ["node_modules/@remix-run/serve/dist/cli.js", "build/server/index.js"] : ["build/server.js"];

const gz = (b: Buffer | string) => zlib.gzipSync(b).length;
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const loadAverage = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(", ");

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

/** The page as `cookie`'s reader gets it, without its nonce (the ceiling sends these bytes). */
async function fetchPage(base: string, route: string, cookie: string) {
  const res = await browserFetch(base + route, { headers: { cookie } });
  if (!res.ok) throw new Error(`${route} answered ${res.status}`);
  return { html: (await res.text()).replace(/ nonce="[^"]+"/g, ""), type: res.headers.get("content-type") ?? "text/html" };
}

/** req/s and latency of a bare node:http server sending the same bytes. */
async function ceiling({ html, type }: { html: string; type: string }): Promise<LoadResult> {
  const bytes = Buffer.from(html);
  const bare = http.createServer((_, out) => {
    out.writeHead(200, { "content-type": type, "content-length": bytes.length });
    out.end(bytes);
  });
  await new Promise<void>((r) => bare.listen(0, "127.0.0.1", () => r()));
  try {
    return await load(`http://127.0.0.1:${(bare.address() as { port: number }).port}/`, CONNECTIONS, SECONDS);
  } finally {
    await new Promise((r) => bare.close(r));
  }
}

async function measure(server: RunningServer, route: string, cookie: string) {
  await (await browserFetch(server.base + route, { headers: { cookie } })).arrayBuffer();
  const before = cpuMs(server.pid);
  const result = await load(server.base + route, CONNECTIONS, SECONDS, { cookie });
  return { ...result, cpu: (cpuMs(server.pid) - before) / result.answers };
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
  for (const href of css) cssBytes += gz(Buffer.from(await (await browserFetch(base + href)).arrayBuffer()));
  let jsBytes = gz(inline.filter((script) => !isData(script)).join(""));
  for (const src of js) jsBytes += gz(Buffer.from(await (await browserFetch(base + src)).arrayBuffer()));
  return { html: gz(html), css: cssBytes, js: jsBytes, data: gz(inline.filter(isData).join("")) };
}

/** The pages with forms, as a guest, a shopper with an item in the cart and a signed-in reader see them. */
async function formPages(base: string, session: string): Promise<[name: string, route: string, cookie: string][]> {
  const store = await (await browserFetch(`${base}/store`)).text();
  const products = [...new Set([...store.matchAll(/href="(\/product\/[^"]+)"/g)].map((m) => m[1]!))];
  let product: { route: string; html: string } | undefined;
  for (const route of products) {
    const html = await (await browserFetch(base + route)).text();
    if (html.includes('action="/shopping-cart"')) {
      product = { route, html };
      break;
    }
  }
  if (!product) throw new Error("no product with an Add to Cart form in the store");
  const $ = cheerio.load(product.html);
  const add = new URLSearchParams();
  $('form[action="/shopping-cart"]')
    .first()
    .find("input[name]")
    .each((_, input) => void add.append($(input).attr("name")!, $(input).attr("value") ?? ""));
  const added = await browserFetch(`${base}/shopping-cart`, { method: "POST", body: add, redirect: "manual", headers: { origin: base } });
  const cart = cookieOf(added, "mr_cart");
  if (added.status !== 303 || !cart) throw new Error(`adding to the cart answered ${added.status} without a cart`);
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

/** A fresh SQLite database: the seed, and `articles` synthetic ones (or BENCH_DATA_DIR's). */
async function database(articles: number): Promise<BenchDatabase> {
  const fresh = await createDatabase("sqlite");
  if (articles > 0 && GIVEN_DATA_DIR) return { ...fresh, dataDir: GIVEN_DATA_DIR, env: { ...fresh.env, DATA_DIR: GIVEN_DATA_DIR } };
  console.error(`seeding${articles > 0 ? ` ${articles.toLocaleString("en-US")} synthetic articles` : ""}…`);
  const { seconds } = await seed(fresh, articles);
  console.error(`seeded in ${seconds.toFixed(0)} s`);
  return fresh;
}

/** The pages to measure, and the readers' cookies: made through the site's own pages, once per database. */
async function readers(base: string) {
  const latest = await (await browserFetch(`${base}/the-latest`)).text();
  const article = /<h3[^>]*><a[^>]+href="(\/\d{4}\/\d{2}\/[^"]+)"/.exec(latest)?.[1];
  if (!article) throw new Error("no article found on /the-latest");
  const topic = /href="(\/topic\/subject\/[^"]+)"/.exec(await (await browserFetch(`${base}/topics`)).text())?.[1];
  if (!topic) throw new Error("no topic found on /topics");
  // A returning guest has the article on their meter already: a read, no new meter row.
  return { article, topic, guest: await returningGuest(base, article), ...(await readerSessions(base)) };
}

const percent = (share: number) => `${(share * 100).toFixed(1)} %`;
const row = (page: string, who: string, r: LoadResult & { cpu?: number }, bare: LoadResult) => [
  page,
  who,
  r.cpu === undefined ? "" : r.cpu.toFixed(2),
  r.rps.toFixed(0),
  ms(r.p50),
  ms(r.p99),
  percent(r.rps / bare.rps),
  r.non2xx + r.errors > 0 ? `${r.non2xx} non-2xx, ${r.errors} errors` : "",
];
const COLUMNS = ["CPU ms/req", "req/s", "p50 ms", "p99 ms", "of ceiling", ""];

async function benchDatabase(name: string, articles: number, withFormPages: boolean) {
  const db = await database(articles);
  let site: Awaited<ReturnType<typeof readers>> | undefined;
  /** Per route: the guest's page and its ceiling, the same for every round. */
  const guestPages = new Map<string, { html: string; bare: LoadResult }>();
  for (const processes of PROCESSES) {
    // The scheduled jobs' processes stay off: the CPU counted is the serving processes'.
    const env = { WEB_CONCURRENCY: String(processes), JOBS_PROCESSES: "0" };
    const cached = await startServer(db, env, SERVER);
    const uncached = await startServer(db, { ...env, PAGE_CACHE_MB: "0" }, SERVER);
    try {
      const s = (site ??= await readers(cached.base));
      const bareFor = async (route: string) => {
        if (!guestPages.has(route)) {
          const guestPage = await fetchPage(cached.base, route, s.guest);
          guestPages.set(route, { html: guestPage.html, bare: await ceiling(guestPage) });
        }
        return guestPages.get(route)!.bare;
      };
      console.log(
        `\n${name}, ${REMIX_SERVE ? "remix-serve" : "build/server.js"}, ${processes} process${processes > 1 ? "es" : ""}: ` +
          `${CONNECTIONS} connections, ${SECONDS} s per run; load average ${loadAverage()}`,
      );
      const readerRows: string[][] = [];
      const articleRps: number[] = [];
      for (const [page, route] of [
        ["article", s.article],
        ["home", "/"],
        ["stream", "/the-latest"],
      ]) {
        const bare = await bareFor(route!);
        for (const [who, cookie] of [
          ["returning guest (cache hit)", s.guest],
          ["registered reader", s.registered],
          ["subscriber", s.subscriber],
        ]) {
          const measured = await measure(cached, route!, cookie!);
          if (page === "article") articleRps.push(measured.rps);
          readerRows.push(row(page!, who!, measured, bare));
        }
        readerRows.push(row(page!, "bare node:http, same bytes", bare, bare));
      }
      console.log(table([["page", "reader", ...COLUMNS], ...readerRows], 2));
      const [hit, registered, subscriber] = articleRps as [number, number, number];
      console.log(
        `signed-in article's req/s against the returning guest's cache hit: registered reader ${percent(registered / hit)}, subscriber ${percent(subscriber / hit)}\n`,
      );
      const renderedRows: string[][] = [];
      for (const [page, route] of [
        ["article", s.article],
        ["topic", s.topic],
        ["stream page 3", "/the-latest?page=3"],
        ...(articles > 0 ? [["stream page 5,000", "/the-latest?page=5000"]] : []),
        ["magazine archive", "/magazine?year=1987"],
        ["sitemap of articles", "/sitemaps/articles-1.xml"],
      ]) {
        const bare = await bareFor(route!);
        renderedRows.push(row(page!, "returning guest, cache off", await measure(uncached, route!, s.guest), bare));
        renderedRows.push(row(page!, "bare node:http, same bytes", bare, bare));
      }
      console.log(table([["rendered every time", "reader", ...COLUMNS], ...renderedRows], 2));
    } finally {
      await Promise.all([cached.stop(), uncached.stop()]);
    }
  }
  // The rounds' servers are stopped: one more serves the pages' files for their weight.
  const server = await startServer(db, { WEB_CONCURRENCY: "1", JOBS_PROCESSES: "0" }, SERVER);
  try {
    const weights = [["weight (gzip)", "HTML", "CSS", "JS", "route data"]];
    for (const [route, { html }] of guestPages) {
      const w = await weight(server.base, html);
      weights.push([route, kb(w.html), kb(w.css), kb(w.js), kb(w.data)]);
    }
    console.log(`\n${table(weights)}`);
    if (withFormPages) {
      const forms = [["pages with forms (gzip)", "JS", "HTML", "route data", ""]];
      for (const [label, route, cookie] of await formPages(server.base, site!.registered)) {
        const w = await weight(server.base, (await fetchPage(server.base, route, cookie)).html);
        forms.push([label, kb(w.js), kb(w.html), kb(w.data), route]);
      }
      console.log(`\n${table(forms)}`);
    }
  } finally {
    await server.stop();
  }
}

async function main() {
  if (!fs.existsSync("build/server.js")) throw new Error("run `npm run build` first");
  console.log(`Render benchmark: ${os.cpus().length} cores, Node ${process.version}; load average at the start ${loadAverage()}`);
  await benchDatabase("Seed database", 0, true);
  if (ARTICLES > 0) await benchDatabase(`${ARTICLES.toLocaleString("en-US")} synthetic articles more`, ARTICLES, false);
  console.log(`\nLoad average at the end: ${loadAverage()}`);
}

for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void cleanUp().finally(() => process.exit(130)));
main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => cleanUp());
