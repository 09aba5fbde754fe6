import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { ConnectionOptions, Database } from "../../server/db/connection";
import { openDatabase } from "../../server/seed/initialize";

/**
 * Connection options for a database nobody else uses: a fresh SQLite file, or, when
 * DATABASE_URL is set, a fresh PostgreSQL schema. drop() removes it again.
 */
export function isolatedConnection(prefix = "t"): ConnectionOptions & { drop: () => Promise<void> } {
  const id = `${prefix}_${process.pid}_${crypto.randomBytes(4).toString("hex")}`;
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `${id}-`));
  return {
    databaseUrl,
    schema: databaseUrl ? id : undefined,
    dataDir,
    async drop() {
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (!databaseUrl) return;
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS "${id}" CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}

export const dialectName = process.env.DATABASE_URL ? "postgres" : "sqlite";

/** A migrated, seeded database for one test file. */
export async function seededTestDatabase(): Promise<{ db: Database; close: () => Promise<void> }> {
  const connection = isolatedConnection();
  const db = await openDatabase(connection);
  return {
    db,
    async close() {
      await db.destroy();
      await connection.drop();
    },
  };
}
