import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { freePort } from "./free-port";
import { databaseEnv, isolatedConnection, type IsolatedConnection } from "./test-db";

export interface RunningServer {
  url: string;
  /** The server's process, for tests of how it stops. */
  child: ChildProcess;
  /** What the server wrote to stdout up to the line saying it listens. */
  started: string;
  /** What the server wrote to stderr so far, for failure messages. */
  errors: () => string;
  stop: () => Promise<void>;
}

/** The repo's production server (what `npm start` runs), or the build under remix-serve. */
export type ServerKind = "production" | "remix-serve";

const COMMANDS: Record<ServerKind, string[]> = {
  production: ["build/server.js"],
  "remix-serve": [path.resolve("node_modules/@remix-run/serve/dist/cli.js"), "build/server/index.js"],
};

/**
 * Starts the production build (npm run build first) on a free port. Its database is the one
 * given, which the caller drops, or else a fresh copy of the seeded template, dropped on stop().
 */
export async function startBuiltServer(
  env: Record<string, string> = {},
  kind: ServerKind = "production",
  database?: IsolatedConnection,
): Promise<RunningServer> {
  // A test that starts the server again on the same address gives its port.
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const connection = database ?? (await isolatedConnection("srv"));
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, COMMANDS[kind], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      ...databaseEnv(connection),
      SITE_URL: url,
      // The store's daily maintenance window would close checkout whenever the suite runs in it.
      STORE_MAINTENANCE_WINDOW: "off",
      // Every test client comes from 127.0.0.1: the per-address limits would add up across tests.
      // Tests of those limits set their own (with CLIENT_IP_HEADER for distinct addresses).
      RATE_LIMIT_PER_IP: "100000",
      METER_ADDRESS_CEILING: "0",
      // One process: a test server shares the machine with the suite's other workers.
      WEB_CONCURRENCY: "1",
      // No scheduled-jobs process unless a test asks for one (JOBS_PROCESSES: "1"): it costs a
      // second of CPU to start and wakes every few seconds, in each of the suite's ~110 servers.
      JOBS_PROCESSES: "0",
      // A test waits on the jobs it asks for; at niceness 19 beside the browser suite they get
      // about 1.5 % of a core, and a step that takes a second takes a minute.
      JOBS_NICENESS: "0",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk) => (stderr += String(chunk)));
  // Shown as it comes: a test that fails on a cut-off answer needs the server's side of it.
  child.stderr?.on("data", (chunk) => process.stderr.write(`[server :${port}] ${chunk}`));
  let started: string;
  try {
    started = await listening(child, () => stderr);
  } catch (error) {
    if (!database) await connection.drop();
    throw error;
  }
  // The production server opened, migrated and seeded the database before it listened;
  // under remix-serve the first page request does.
  await fetch(url);
  return {
    url,
    child,
    started,
    errors: () => stderr,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        await exited;
      }
      if (!database) await connection.drop();
    },
  };
}

/**
 * Resolves with its output so far when the server says it listens (the production server's
 * "listening on", remix-serve's address line); rejects if it exits first. Its later output is
 * read and dropped.
 */
function listening(child: ChildProcess, stderr: () => string): Promise<string> {
  return new Promise((resolve, reject) => {
    let stdout = "";
    const onData = (chunk: Buffer) => {
      stdout += String(chunk);
      if (/listening on|http:\/\//.test(stdout)) {
        child.off("close", onExit);
        child.stdout?.off("data", onData).resume();
        resolve(stdout);
      }
    };
    // "close" comes after the output is read, so the error names what the server printed.
    const onExit = () => reject(new Error(`server exited before listening: ${stderr()}`));
    child.stdout?.on("data", onData);
    child.once("close", onExit);
  });
}
