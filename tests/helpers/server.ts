import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { freePort } from "./free-port";
import { isolatedConnection } from "./test-db";

export interface RunningServer {
  url: string;
  /** The server's process, for tests of how it stops. */
  child: ChildProcess;
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

/** Starts the production build (npm run build first) on a free port with its own fresh database. */
export async function startBuiltServer(env: Record<string, string> = {}, kind: ServerKind = "production"): Promise<RunningServer> {
  const port = await freePort();
  const connection = isolatedConnection("srv");
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, COMMANDS[kind], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: connection.dataDir,
      ...(connection.schema ? { DATABASE_SCHEMA: connection.schema } : {}),
      SITE_URL: url,
      // The store's daily maintenance window would close checkout whenever the suite runs in it.
      STORE_MAINTENANCE_WINDOW: "off",
      // Every test client comes from 127.0.0.1: the per-address limits would add up across tests.
      // Tests of those limits set their own (with CLIENT_IP_HEADER for distinct addresses).
      RATE_LIMIT_PER_IP: "100000",
      METER_ADDRESS_CEILING: "0",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  // Read and dropped unless a test listens (the server logs its start and stop there).
  child.stdout?.resume();
  let stderr = "";
  child.stderr?.on("data", (chunk) => (stderr += String(chunk)));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited: ${stderr}`);
    try {
      const res = await fetch(`${url}/robots.txt`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  // The first page request opens, migrates and seeds the database.
  await fetch(url);
  return {
    url,
    child,
    errors: () => stderr,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        await exited;
      }
      await connection.drop();
    },
  };
}
