// Lighthouse in mobile mode (its default: a mid-range phone on a slow 4G line, simulated):
// npm run build && npm run bench:lighthouse
// Starts the production build on a fresh database and audits the home page, an article (as a
// returning guest, so the first-visit cookie check is not measured) and a stream, each with an
// empty HTTP cache (Lighthouse's default), printing the
// four category scores, LCP and the other timings; each whole report goes to test-results/lighthouse. The browser is the one the e2e suite uses
// (e2e/browser.ts): nothing is downloaded.
// LIGHTHOUSE_THROTTLING=devtools throttles the browser for real (the same phone and line) and
// times what it does, instead of estimating the throttled times from an unthrottled load.
// Lighthouse's 4x CPU slowdown makes a mid-tier phone of a desktop whose benchmark index is 1500
// to 2000 (its docs/throttling.md); each row prints the index this machine measured, and
// LIGHTHOUSE_CPU_SLOWDOWN sets another slowdown for a machine outside that range.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import lighthouse from "lighthouse";
import { chromium } from "playwright";
import { chromiumLaunchOptions } from "~/e2e/browser";
import { browserFetch } from "./browser";
import { untilServing } from "./serving";

const PORT = 3910;
const DEBUGGING_PORT = 9333;
const base = `http://127.0.0.1:${PORT}`;
/** Where each page's whole report is written, to see what an audit found. */
const REPORTS = "test-results/lighthouse";
const THROTTLING = process.env.LIGHTHOUSE_THROTTLING === "devtools" ? "devtools" : "simulate";
const CPU_SLOWDOWN = Number(process.env.LIGHTHOUSE_CPU_SLOWDOWN ?? 4);

async function main() {
  if (!fs.existsSync("build/server.js")) throw new Error("run `npm run build` first");
  fs.mkdirSync(REPORTS, { recursive: true });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "lighthouse-"));
  const server = spawn(process.execPath, ["build/server.js"], {
    env: { ...process.env, NODE_ENV: "production", PORT: String(PORT), HOST: "127.0.0.1", DATA_DIR: dataDir, SITE_URL: base },
    stdio: "ignore",
  });
  const { executablePath, args } = await chromiumLaunchOptions();
  let browser: Awaited<ReturnType<typeof chromium.launch>> | undefined;
  try {
    await untilServing(server, PORT);
    const latest = await (await browserFetch(`${base}/the-latest`)).text();
    const article = /<h3[^>]*><a[^>]+href="(\/\d{4}\/\d{2}\/[^"]+)"/.exec(latest)?.[1];
    if (!article) throw new Error("no article found on /the-latest");
    browser = await chromium.launch({ executablePath, args: [...args, `--remote-debugging-port=${DEBUGGING_PORT}`] });
    // A returning guest: the visitor cookie, taken once, goes with every request of every audit;
    // Lighthouse empties the HTTP cache and storage before each, so each page is a first view
    // of its files.
    const firstVisit = await browserFetch(base + article, {
      redirect: "manual",
      headers: { "User-Agent": "Mozilla/5.0 (Linux; Android 14) Chrome/126" },
    });
    const cookie = firstVisit.headers
      .getSetCookie()
      .map((c) => c.split(";")[0]!)
      .join("; ");
    if (!cookie.includes("mr_visitor=")) throw new Error("no visitor cookie on a first visit");
    console.log(
      `Lighthouse ${lighthouseVersion()}, mobile (${THROTTLING === "devtools" ? "applied" : "simulated"} throttling, CPU slowed ${CPU_SLOWDOWN}x), ${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(2)}\n`,
    );
    console.log("| page | performance | accessibility | best practices | SEO | LCP | FCP | TBT | CLS | TTI | benchmark index |");
    console.log("|---|---|---|---|---|---|---|---|---|---|---|");
    for (const [name, route] of [
      ["home", "/"],
      ["article", article],
      ["stream", "/the-latest"],
    ] as const) {
      const result = await lighthouse(base + route, {
        port: DEBUGGING_PORT,
        output: "json",
        logLevel: "error",
        extraHeaders: { Cookie: cookie },
        throttlingMethod: THROTTLING,
        throttling: { cpuSlowdownMultiplier: CPU_SLOWDOWN },
      });
      if (!result) throw new Error(`no Lighthouse result for ${route}`);
      fs.writeFileSync(path.join(REPORTS, `${name}.json`), JSON.stringify(result.lhr, null, 1));
      const { categories, audits } = result.lhr;
      const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
      const ms = (id: string) => `${((audits[id]?.numericValue ?? 0) / 1000).toFixed(2)} s`;
      console.log(
        `| ${name} | ${score("performance")} | ${score("accessibility")} | ${score("best-practices")} | ${score("seo")} | ${ms("largest-contentful-paint")} | ${ms("first-contentful-paint")} | ${Math.round(audits["total-blocking-time"]?.numericValue ?? 0)} ms | ${(audits["cumulative-layout-shift"]?.numericValue ?? 0).toFixed(3)} | ${ms("interactive")} | ${Math.round(result.lhr.environment.benchmarkIndex)} |`,
      );
    }
  } finally {
    await browser?.close();
    server.kill("SIGTERM");
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function lighthouseVersion(): string {
  return (JSON.parse(fs.readFileSync("node_modules/lighthouse/package.json", "utf8")) as { version: string }).version;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
