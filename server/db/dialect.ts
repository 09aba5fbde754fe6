import { PostgresAdapter } from "kysely";

/** Whether a connection (or transaction) talks to PostgreSQL rather than SQLite. */
export const isPostgres = (db: { getExecutor(): { adapter: unknown } }): boolean => db.getExecutor().adapter instanceof PostgresAdapter;
