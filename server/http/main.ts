// The production server that `npm start` runs (compiled to build/server.js at build time):
//   node build/server.js [path/to/build/server/index.js]
// It loads the Remix build by path at run time; nothing here imports React or app/.
import { recordSiteUrl } from "~/server/site-address";
import cluster from "node:cluster";
import http from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { installGlobals, type ServerBuild } from "@remix-run/node";
import { serverConfig, type Config } from "~/server/config";
import { loadSecrets } from "~/server/secrets";
import { openDatabase } from "~/server/db";
import { seedDatabase } from "~/server/seed/initialize";
import { runPrimary, type PrimaryMessage, type WorkerMessage } from "./cluster";
import { startJobsProcesses } from "./jobs-process";
import { remixHandler, remoteAddress, type GetLoadContext } from "./handler";
import { applySecurityHeaders, type HeaderSettings } from "./response-headers";
import { GeneratedFiles } from "./generated-files";
import { staticFiles } from "./static";
import { clientIpIn } from "./client-ip";
import { inRequestScope, log, requestIdFrom } from "~/server/log";

/** A balancer asks these every few seconds: logging each would bury the readers' requests. */
const HEALTH_CHECKS = new Set(["/healthz", "/readyz"]);

/** Memory each process gives the cover art it has drawn: about 3 kB a picture with its compressed copies. */
const GENERATED_FILES_BYTES = 16 * 1024 * 1024;

/** What the build's entry.server exports beyond Remix's own entries. */
interface EntryExtras {
  closeDatabase?: () => Promise<void>;
  getLoadContext: GetLoadContext;
}

async function main(): Promise<void> {
  // A bad setting stops the start here, with the variable's name, before the port is taken.
  const config = serverConfig();
  if (cluster.isPrimary) {
    if (config.NODE_ENV === "production" && !config.SITE_URL) {
      log.warn(
        `SITE_URL is not set: links in mail and at the payment provider use ${config.siteUrl}, this server's own address. Set SITE_URL to the site's public address.`,
      );
    }
    await prepareData(config);
    // As many as the processes that serve pages unless set, each at the lowest CPU priority (ADR 069).
    const jobs = startJobsProcesses(config.JOBS_PROCESSES ?? config.WEB_CONCURRENCY);
    for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, jobs.stop);
    if (config.WEB_CONCURRENCY > 1) return runPrimary(config);
  }
  await serve(config);
}

/**
 * Once, before any process serves: the generated secrets are written (processes that each
 * generated their own would reject each other's cookies), and the database is migrated and
 * seeded. A PostgreSQL database that cannot be opened yet (restarting, say) does not stop the
 * start: pages answer 500 until a request finds it open (app/lib/context/db.server.ts opens, migrates and
 * seeds it on first use). An
 * embedded one that cannot be opened stops it, saying why.
 */
async function prepareData(config: Config): Promise<void> {
  loadSecrets(config.dataDir, config);
  recordSiteUrl(config);
  try {
    const database = await openDatabase({ databaseUrl: config.DATABASE_URL, schema: config.DATABASE_SCHEMA, dataDir: config.dataDir });
    try {
      await seedDatabase(database, config.contentDir);
    } finally {
      await database.destroy();
    }
  } catch (error) {
    // The embedded database's file is on this machine: if it cannot be opened now (a read-only
    // or full data folder, a half-written file), waiting will not help, and every page would fail.
    if (!config.DATABASE_URL) throw new Error(`The database in ${config.dataDir} could not be opened: ${String(error)}`);
    log.error("The database could not be opened; starting anyway, and each request tries again", { error });
  }
}

/** Serves the site in this process: alone, or as one of the cluster's workers. */
async function serve(config: Config): Promise<void> {
  const buildPath = path.resolve(process.argv[2] ?? "build/server/index.js");
  const build = (await import(pathToFileURL(buildPath).href)) as ServerBuild;
  // The Fetch API implementation Remix's single fetch is built and tested with (as remix-serve does).
  installGlobals({ nativeFetch: build.future.v3_singleFetch });

  const captchaScript = config.CAPTCHA_SECRET ? config.CAPTCHA_SCRIPT_URL : undefined;
  const headerSettings: HeaderSettings = { siteUrl: config.siteUrl, captchaOrigin: captchaScript && new URL(captchaScript).origin };
  const securityHeaders = new Headers();
  applySecurityHeaders(securityHeaders, headerSettings);
  const serveStatic = staticFiles(path.resolve(build.assetsBuildDirectory), build.publicPath, Object.fromEntries(securityHeaders));
  const generatedArt = new GeneratedFiles((pathname) => pathname.startsWith("/art/"), GENERATED_FILES_BYTES);
  const entry = build.entry.module as typeof build.entry.module & EntryExtras;
  const handleWithRemix = remixHandler(build, config.NODE_ENV, headerSettings, entry.getLoadContext, generatedArt);
  let draining = false;
  /** Answers not yet finished: when the drain begins, those not yet started are told to close their connection. */
  const unfinished = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    // While draining, each answer closes its connection instead of keeping it for more requests,
    // and a connection whose answer was in flight is closed as soon as it is idle.
    if (draining) res.shouldKeepAlive = false;
    unfinished.add(res);
    res.once("close", () => unfinished.delete(res));
    res.once("finish", () => {
      if (draining) setImmediate(() => server.closeIdleConnections());
    });
    const requestId = requestIdFrom(req.headers["x-request-id"]);
    res.setHeader("X-Request-Id", requestId);
    if (config.LOG_REQUESTS && !HEALTH_CHECKS.has(req.url ?? "")) logWhenAnswered(req, res, requestId, config.CLIENT_IP_HEADER);
    inRequestScope(requestId, () => {
      if (serveStatic(req, res)) return;
      handleWithRemix(req, res).catch((error: unknown) => {
        log.error("The request could not be answered", { error });
        if (res.headersSent) res.destroy();
        else res.writeHead(500, { "content-type": "text/plain; charset=utf-8" }).end("Internal Server Error");
      });
    });
  });
  // Idle connections stay open longer than a load balancer's usual 60 s, so the balancer (or a
  // client reusing its pool) is never handed a connection at the moment we close it.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.PORT, config.HOST, () => resolve());
  });
  if (cluster.isPrimary) {
    const address = server.address();
    const where = typeof address === "object" && address ? `${address.address}:${address.port}` : String(address);
    log.info(`Meridian Review listening on ${where} (${config.NODE_ENV}) at ${config.siteUrl}`);
  }

  const closeDatabase = entry.closeDatabase;
  let drain: Drain | undefined;
  const finish = async (current: Drain) => {
    const cutOff = await current.done;
    if (cutOff) log.error("Stopped before the requests in flight were answered");
    await closeDatabase?.().catch((error: unknown) => log.error("Closing the database failed", { error }));
    process.exit(cutOff ? 1 : 0);
  };
  const beginDrain = () => {
    draining = true;
    for (const res of unfinished) if (!res.headersSent) res.shouldKeepAlive = false;
    drain = startDrain(server, config.SHUTDOWN_GRACE_SECONDS * 1000);
    void finish(drain);
  };

  if (cluster.isWorker) {
    // The primary decides: a signal sent to the whole process group only starts the drain
    // that the primary's message starts too, and only the primary cuts off.
    const drainOnce = () => {
      if (drain) return;
      beginDrain();
      // Sent after the close, on the same channel: the primary learns of them in that order.
      process.send?.("draining" satisfies WorkerMessage);
    };
    for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, drainOnce);
    process.on("message", (message: PrimaryMessage) => (message === "cut-off" ? drain?.cutOff() : drainOnce()));
    return;
  }
  const stop = (signal: string) => {
    if (drain) {
      log.info(`${signal} again: cutting off the requests in flight`);
      drain.cutOff();
      return;
    }
    beginDrain();
    // Logged once the port is closed: a test (or an operator) may take it as that event.
    log.info(`${signal}: no new connections; finishing requests in flight (up to ${config.SHUTDOWN_GRACE_SECONDS} s)`);
  };
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => stop(signal));
}

/**
 * The access log: one line when the answer has gone (or the client left first). The path is
 * logged without its query, which can hold a reader's search or a one-time token. The address
 * is the client's: from the proxy's header when one is configured, as the app reads it.
 */
function logWhenAnswered(req: http.IncomingMessage, res: http.ServerResponse, requestId: string, clientHeader?: string): void {
  const started = performance.now();
  res.once("close", () => {
    log.info("request", {
      requestId,
      method: req.method,
      path: (req.url ?? "").split("?")[0],
      status: res.statusCode,
      ms: Math.round((performance.now() - started) * 10) / 10,
      address: (clientHeader && clientIpIn(req.headers[clientHeader.toLowerCase()], clientHeader)) || remoteAddress(req),
      ...(res.writableFinished ? {} : { aborted: true }),
    });
  });
}

interface Drain {
  /** True when requests were cut off (the grace ran out, or cutOff was called). */
  done: Promise<boolean>;
  cutOff: () => void;
}

/**
 * Stops accepting connections, closes the idle keep-alive ones, and waits until every request
 * in flight has been answered and its connection closed, for at most graceMs.
 */
function startDrain(server: http.Server, graceMs: number): Drain {
  let cutOff!: () => void;
  const done = new Promise<boolean>((resolve) => {
    let forced = false;
    cutOff = () => {
      forced = true;
      server.closeAllConnections();
    };
    const timer = setTimeout(cutOff, graceMs);
    server.close(() => {
      clearTimeout(timer);
      resolve(forced);
    });
    server.closeIdleConnections();
  });
  return { done, cutOff };
}

main().catch((error: unknown) => {
  log.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
