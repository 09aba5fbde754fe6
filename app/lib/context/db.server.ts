import { config } from "~/server/config";
import type { Database } from "~/server/db/connection";
import { openDatabase } from "~/server/db";
import { seedDatabase } from "~/server/seed/initialize";
import { setMailJournal } from "~/server/adapters/mail";
import { logMail } from "~/server/adapters/mail-log";

export { config };

let opening: Promise<Database> | undefined;

/**
 * The application's database, opened, migrated and seeded on first use. Under server/http the
 * start has done both before serving (seeding then finds its steps done); under remix-serve and
 * the dev server, and after a start that could not reach PostgreSQL, this first use is the start.
 */
export function db(): Promise<Database> {
  if (!opening) {
    const c = config();
    opening = openDatabase({
      databaseUrl: c.DATABASE_URL,
      schema: c.DATABASE_SCHEMA,
      dataDir: c.dataDir,
      poolSize: c.DATABASE_POOL_SIZE,
    }).then(async (database) => {
      await seedDatabase(database, c.contentDir);
      setMailJournal((sent) => logMail(database, sent));
      return database;
    });
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
