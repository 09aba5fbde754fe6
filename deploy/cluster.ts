// npm run cluster:pg: several instances of the production server on one PostgreSQL database,
// behind HAProxy with deploy/haproxy.cfg, on one machine (README, "Several instances").
//   DATABASE_URL   the database (required)
//   INSTANCES      how many instances (default 2), on ports 3001, 3002, …
//   PORT, HOST     where HAProxy listens (default 8080, all addresses); its counters are on
//                  127.0.0.1:8404/stats
//   WEB_CONCURRENCY  processes per instance (default 1)
//   DATABASE_POOL_SIZE  connections per process (default: 20, or fewer so that all the
//                  processes together hold at most 80, within PostgreSQL's default 100)
// The instances get the same secrets (given, or generated once into DATA_DIR) and their own
// data folders under DATA_DIR. SIGTERM or Ctrl-C stops HAProxy and drains every instance.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { z } from "zod";
import { defaultSiteUrl } from "~/server/config";
import { loadSecrets } from "~/server/secrets";

const settings = z
  .object({
    DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, "DATABASE_URL must be a postgres:// URL (the instances share one database)"),
    INSTANCES: z.coerce.number().int().min(1).max(32).default(2),
    PORT: z.coerce.number().int().min(1).max(65535).default(8080),
    HOST: z.string().default(""),
    FIRST_INSTANCE_PORT: z.coerce.number().int().min(1).max(65000).default(3001),
    STATS_PORT: z.coerce.number().int().min(1).max(65535).default(8404),
    WEB_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(1),
    DATA_DIR: z.string().default("data/cluster"),
    SITE_URL: z.string().url().optional(),
  })
  .safeParse(process.env);
if (!settings.success) {
  console.error(settings.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("\n"));
  process.exit(2);
}
const s = settings.data;
if (!fs.existsSync("build/server.js")) {
  console.error("build/server.js is missing: run `npm run build` first.");
  process.exit(2);
}

const children: { name: string; child: ChildProcess }[] = [];
let stopping = false;
let failed = false;

/** Exits once every child has: 0 after a stop asked for, else 1. */
function exitWhenAllStopped(): void {
  if (children.every(({ child }) => child.exitCode !== null || child.signalCode !== null)) process.exit(failed || !stopping ? 1 : 0);
}

/** Passes a child's output on, each line under its name. */
function prefixed(name: string, child: ChildProcess): void {
  for (const stream of [child.stdout!, child.stderr!]) {
    const out = stream === child.stdout ? process.stdout : process.stderr;
    readline.createInterface({ input: stream }).on("line", (line) => out.write(`[${name}] ${line}\n`));
  }
}

function start(name: string, command: string, args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"] });
  children.push({ name, child });
  child.once("error", (error) => {
    console.error(`[cluster] ${name} could not be started (${error.message})${name === "haproxy" ? ": install the haproxy package" : ""}`);
    children.splice(
      children.findIndex((c) => c.child === child),
      1,
    );
    failed = true;
    stop();
    exitWhenAllStopped();
  });
  prefixed(name, child);
  child.once("exit", (code, signal) => {
    if (!stopping) console.error(`[cluster] ${name} exited with ${signal ?? `code ${code}`}`);
    exitWhenAllStopped();
  });
  return child;
}

/** Resolves once the instance says it listens. */
const listening = (child: ChildProcess) =>
  new Promise<void>((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).on("line", (line) => {
      if (line.includes("listening on")) resolve();
    });
    child.once("exit", () => reject(new Error("an instance stopped before it listened")));
  });

const siteUrl = s.SITE_URL ?? defaultSiteUrl(s.HOST, s.PORT);
const secrets = loadSecrets(s.DATA_DIR, {
  SESSION_SECRET: process.env.SESSION_SECRET,
  PAYMENT_WEBHOOK_SECRET: process.env.PAYMENT_WEBHOOK_SECRET,
});
const ports = Array.from({ length: s.INSTANCES }, (_, i) => s.FIRST_INSTANCE_PORT + i);
const poolSize = process.env.DATABASE_POOL_SIZE || String(Math.max(1, Math.min(20, Math.floor(80 / (s.INSTANCES * s.WEB_CONCURRENCY)))));

// The first instance migrates and seeds an empty database; the others would wait on its locks.
const instances = ports.map((port, i) =>
  start(`app${i + 1}`, process.execPath, ["build/server.js"], {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: path.join(s.DATA_DIR, `app${i + 1}`),
    SITE_URL: siteUrl,
    CLIENT_IP_HEADER: "x-forwarded-for",
    WEB_CONCURRENCY: String(s.WEB_CONCURRENCY),
    DATABASE_POOL_SIZE: poolSize,
    SESSION_SECRET: secrets.sessionSecret,
    PAYMENT_WEBHOOK_SECRET: secrets.paymentWebhookSecret,
  }),
);
try {
  await Promise.all(instances.map(listening));
} catch (error) {
  console.error(`[cluster] ${String(error)}`);
  failed = true;
  stop();
}

// The committed config, with one server line per instance started here.
const template = fs.readFileSync("deploy/haproxy.cfg", "utf8");
const servers = ports.map((port, i) => `    server app${i + 1} 127.0.0.1:${port}`).join("\n");
const config = template.replace(/( *# instances\n)[\s\S]*?( *# end of instances)/, `$1${servers}\n$2`);
const configFile = path.resolve(s.DATA_DIR, "haproxy.cfg");
fs.writeFileSync(configFile, config);
start("haproxy", "haproxy", ["-db", "-f", configFile], {
  ...process.env,
  MERIDIAN_BIND: `${s.HOST}:${s.PORT}`,
  MERIDIAN_STATS_BIND: `127.0.0.1:${s.STATS_PORT}`,
}).once("spawn", () =>
  console.log(`[cluster] Meridian Review on ${siteUrl}: HAProxy in front of ${s.INSTANCES} instances (ports ${ports.join(", ")})`),
);

/** HAProxy stops taking connections and finishes its own (SIGUSR1); each instance drains (SIGTERM). */
function stop(): void {
  if (stopping) return;
  stopping = true;
  for (const { name, child } of children) child.kill(name === "haproxy" ? "SIGUSR1" : "SIGTERM");
}
for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, stop);
