import { config } from "~/server/config";
import { openDatabase } from "~/server/seed/initialize";
import type { Database } from "./connection";

let opening: Promise<Database> | undefined;

/** The application's database, opened (and migrated and seeded) on first use. */
export function db(): Promise<Database> {
  if (!opening) {
    const c = config();
    opening = openDatabase({ databaseUrl: c.DATABASE_URL, schema: c.DATABASE_SCHEMA, dataDir: c.dataDir, poolSize: c.DATABASE_POOL_SIZE });
    opening.catch(() => {
      opening = undefined;
    });
  }
  return opening;
}

/** Closes the database (the PostgreSQL pool or the SQLite file) if it was opened. */
export async function closeDb(): Promise<void> {
  const current = opening;
  opening = undefined;
  const database = await current?.catch(() => undefined);
  await database?.destroy();
}
