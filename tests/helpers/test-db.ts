import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { connect, type ConnectionOptions, type Database } from "~/server/db/connection";
import { createTestDatabase, databaseUrlFor, dropTestDatabase, runTemplate, testDatabaseName } from "./template-db";

export type IsolatedConnection = ConnectionOptions & { drop: () => Promise<void> };

/**
 * A database nobody else uses, copied from the run's migrated and seeded template: an SQLite
 * file in a fresh data folder, or, when DATABASE_URL is set, a fresh PostgreSQL database on that
 * server. With `empty`, nothing is copied (for tests of migrating and seeding themselves).
 * drop() removes it again.
 */
export async function isolatedConnection(label = "t", { empty = false } = {}): Promise<IsolatedConnection> {
  const baseUrl = process.env.DATABASE_URL || undefined;
  const name = testDatabaseName(label);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `${name}-`));
  const template = empty ? undefined : runTemplate();
  if (!baseUrl) {
    if (template?.kind === "sqlite") fs.copyFileSync(template.file, path.join(dataDir, "site.db"));
    return { dataDir, drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
  }
  await createTestDatabase(baseUrl, name, template?.kind === "postgres" ? template.database : undefined);
  return {
    dataDir,
    databaseUrl: databaseUrlFor(baseUrl, name),
    async drop() {
      fs.rmSync(dataDir, { recursive: true, force: true });
      await dropTestDatabase(baseUrl, name);
    },
  };
}

/** The environment that points a server process at an isolated database. */
export function databaseEnv(connection: ConnectionOptions): Record<string, string> {
  return { DATA_DIR: connection.dataDir, ...(connection.databaseUrl ? { DATABASE_URL: connection.databaseUrl } : {}) };
}

export const dialectName = process.env.DATABASE_URL ? "postgres" : "sqlite";

/** A migrated, seeded database for one test file. */
export async function seededTestDatabase(): Promise<{ db: Database; close: () => Promise<void> }> {
  const connection = await isolatedConnection();
  const db = connect(connection);
  return {
    db,
    async close() {
      await db.destroy();
      await connection.drop();
    },
  };
}
