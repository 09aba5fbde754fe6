import { config } from "../config";
import { openDatabase } from "../seed/initialize";
import type { Database } from "./connection";

let opening: Promise<Database> | undefined;

/** The application's database, opened (and migrated and seeded) on first use. */
export function db(): Promise<Database> {
  if (!opening) {
    const c = config();
    opening = openDatabase({ databaseUrl: c.DATABASE_URL, schema: c.DATABASE_SCHEMA, dataDir: c.dataDir });
    opening.catch(() => {
      opening = undefined;
    });
  }
  return opening;
}
