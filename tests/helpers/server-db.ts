import path from "node:path";
import SQLite from "better-sqlite3";
import pg from "pg";
import type { ConnectionOptions } from "~/server/db/connection";

/**
 * Runs one SELECT (with ? placeholders) on a test server's own database (the isolated
 * connection handed to it through its env), without being able to write.
 */
export async function selectFromServer<Row>(database: ConnectionOptions, sql: string, params: (string | number)[]): Promise<Row[]> {
  if (!database.databaseUrl) {
    const file = new SQLite(path.join(database.dataDir, "site.db"), { readonly: true, fileMustExist: true });
    try {
      return file.prepare(sql).all(...params) as Row[];
    } finally {
      file.close();
    }
  }
  const client = new pg.Client({
    connectionString: database.databaseUrl,
    options: `${database.schema ? `-c search_path=${database.schema} ` : ""}-c default_transaction_read_only=on`,
  });
  await client.connect();
  try {
    let n = 0;
    return (
      await client.query(
        sql.replace(/\?/g, () => `$${++n}`),
        params,
      )
    ).rows as Row[];
  } finally {
    await client.end();
  }
}
