import crypto from "node:crypto";
import { connect, type Database } from "~/server/db/connection";
import { startBuiltServer, type RunningServer } from "~/tests/helpers/server";
import { isolatedConnection, type IsolatedConnection } from "~/tests/helpers/test-db";

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
    async stop() {
      await db.destroy();
      await running.stop();
      await database.drop();
    },
  };
}
