// What the search benchmark builds and starts: a fresh SQLite directory or PostgreSQL database,
// seeded by the seed CLI, and the production server on it. Everything made here is removed by
// cleanUp, which also runs on Ctrl-C.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { untilServing } from "./serving";

export type Engine = "sqlite" | "postgres";

export const ENGINE_NAMES: Record<Engine, string> = { sqlite: "SQLite", postgres: "PostgreSQL" };

const ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export interface BenchDatabase {
  engine: Engine;
  dataDir: string;
  databaseUrl?: string;
  /** The environment for the seed CLI and the server: this database's settings and no other. */
  env: NodeJS.ProcessEnv;
}

const cleanups: (() => unknown)[] = [];
const children = new Set<ChildProcess>();

let cleaning: Promise<void> | undefined;

/** Stops the processes started here, then removes what was made, newest first; once, however often called. */
export function cleanUp(): Promise<void> {
  cleaning ??= removeAll();
  return cleaning;
}

async function removeAll(): Promise<void> {
  await Promise.all([...children].map(stop));
  while (cleanups.length > 0) {
    try {
      await cleanups.pop()!();
    } catch (error) {
      console.error("Cleaning up failed:", error);
    }
  }
}

function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once("exit", () => children.delete(child));
  return child;
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

async function adminQuery(text: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

export async function postgresVersion(): Promise<string> {
  const { rows } = await adminQuery("show server_version");
  return String((rows[0] as { server_version: string }).server_version);
}

export async function createDatabase(engine: Engine): Promise<BenchDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `bench-search-${engine}-`));
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const { DATABASE_URL: _url, DATABASE_SCHEMA: _schema, SEED_ARTICLES: _seed, ...env } = process.env;
  if (engine === "sqlite") return { engine, dataDir, env: { ...env, DATA_DIR: dataDir } };
  const name = `bench_search_${process.pid}`;
  await adminQuery(`create database ${name}`);
  cleanups.push(() => adminQuery(`drop database if exists ${name} with (force)`));
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  return { engine, dataDir, databaseUrl, env: { ...env, DATA_DIR: dataDir, DATABASE_URL: databaseUrl } };
}

/** Runs the seed CLI (migrations, the base content, then `articles` synthetic ones, indexed as they go). */
export async function seed(database: BenchDatabase, articles: number): Promise<{ seconds: number; report: string }> {
  const started = performance.now();
  // The progress bar goes to a terminal; a redirected run keeps it only to explain a failure.
  const child = track(
    spawn(process.execPath, ["node_modules/tsx/dist/cli.mjs", "server/seed/cli.ts", "--articles", String(articles)], {
      env: database.env,
      stdio: ["ignore", "pipe", process.stderr.isTTY ? "inherit" : "pipe"],
    }),
  );
  let out = "";
  let err = "";
  child.stdout!.on("data", (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (err = (err + chunk.toString()).slice(-4000)));
  const [code, signal] = await new Promise<[number | null, string | null]>((resolve) => child.once("exit", (...end) => resolve(end)));
  if (code !== 0) {
    const last =
      err
        .trim()
        .split(/[\r\n]+/)
        .pop() ?? "";
    throw new Error(`the seed CLI exited with ${code ?? signal}${last ? `: ${last}` : ""}`);
  }
  return { seconds: (performance.now() - started) / 1000, report: out.trim() };
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface RunningServer {
  base: string;
  /** The server's first process: its cluster's workers are its children. */
  pid: number;
  /** The end of what the server wrote to stderr. */
  errors: () => string;
  stop: () => Promise<void>;
}

/** The production build on `database`, with `env` added (`args`: another server for the same build, remix-serve say). */
export async function startServer(
  database: BenchDatabase,
  env: Record<string, string> = {},
  args = ["build/server.js"],
): Promise<RunningServer> {
  const port = await freePort();
  const child = track(
    spawn(process.execPath, args, {
      env: { ...database.env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", ...env },
      stdio: ["ignore", "ignore", "pipe"],
    }),
  );
  let errors = "";
  child.stderr!.on("data", (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-4000)));
  await untilServing(child, port);
  return { base: `http://127.0.0.1:${port}`, pid: child.pid!, errors: () => errors, stop: () => stop(child) };
}
