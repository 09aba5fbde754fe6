import { execFile } from "node:child_process";
import crypto from "node:crypto";
import { promisify } from "node:util";
import { connect, type Database } from "~/server/db/connection";
import { startBuiltServer, type RunningServer } from "~/tests/helpers/server";
import { databaseEnv, isolatedConnection, type IsolatedConnection } from "~/tests/helpers/test-db";

/** The CDN country header the site trusts: a test sets it to choose the visitor's country. */
export const COUNTRY_HEADER = "cf-ipcountry";

/** One Playwright worker's own site: the production build on its own copy of the seeded database. */
export interface Site {
  url: string;
  database: IsolatedConnection;
  /** A connection to that database, for fixtures that set a test's state up directly. */
  db: Database;
  /** Signs the site's session cookies (given to the server, so fixtures can sign in readers). */
  sessionSecret: string;
  /**
   * Moves the sandbox provider's clock on as an operator would (`npm run sandbox:clock -- --advance 31d`),
   * which renews what fell due; answers what it printed. `resetClock` puts it back for the worker's next test.
   */
  advanceClock: (by: string) => Promise<string>;
  resetClock: () => Promise<void>;
  stop: () => Promise<void>;
}

export async function startSite(): Promise<Site> {
  const database = await isolatedConnection("e2e");
  const sessionSecret = crypto.randomBytes(32).toString("base64url");
  let server: RunningServer | undefined;
  try {
    server = await startBuiltServer(
      {
        SESSION_SECRET: sessionSecret,
        RATE_LIMIT_PER_ACCOUNT: "1000",
        // Requests without the header come from nowhere known (region "other"), as before.
        GEO_COUNTRY_HEADER: COUNTRY_HEADER,
        // The browser tests walk through what the jobs do (scheduled publishing, newsletters).
        JOBS_PROCESSES: "1",
      },
      "production",
      database,
    );
  } catch (error) {
    await database.drop();
    throw error;
  }
  const db = connect(database);
  const running = server;
  return {
    url: running.url,
    database,
    db,
    sessionSecret,
    async advanceClock(by) {
      const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "server/billing/clock-cli.ts", "--advance", by], {
        env: { ...process.env, ...databaseEnv(database), SITE_URL: running.url },
      });
      return stdout;
    },
    async resetClock() {
      await db.updateTable("sandbox_clock").set({ offset_seconds: 0 }).execute();
    },
    async stop() {
      await db.destroy();
      await running.stop();
      await database.drop();
    },
  };
}
