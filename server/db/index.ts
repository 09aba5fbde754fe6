import { connect, ensureSchema, migrate, type ConnectionOptions, type Database } from "./connection";

/**
 * Opens the database and applies its migrations. Seeding is a separate step that whoever starts
 * the application takes next (server/seed/initialize.ts): the database layer imports nothing of it.
 */
export async function openDatabase(options: ConnectionOptions): Promise<Database> {
  await ensureSchema(options);
  const db = connect(options);
  await migrate(db, options.schema);
  return db;
}
