import diagnostics from "node:diagnostics_channel";
import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import {
  CompiledQuery,
  Kysely,
  Migrator,
  PostgresDialect,
  SqliteAdapter,
  SqliteDialect,
  SqliteDriver,
  type DialectAdapter,
  type LogEvent,
  type DatabaseConnection,
  type Driver,
  type SqliteDatabase,
  type SqliteDialectConfig,
  type SqliteStatement,
} from "kysely";
import pg from "pg";
import { currentRequestId } from "~/server/log";
import type { DB } from "./schema";
import { migrationProvider } from "./migrations";
import { shareOwnPriority } from "./backend-priority";
import { createPostgresPool } from "./postgres-pool";
import { storableParameters } from "./storable-text";

export type Database = Kysely<DB>;

/** How long opening a PostgreSQL connection may take. */
export const POSTGRES_CONNECT_TIMEOUT_MS = 5_000;

export interface ConnectionOptions {
  /** postgres:// URL; when absent an SQLite file in dataDir is used. */
  databaseUrl?: string;
  /** PostgreSQL schema to use (created if missing); lets tests isolate themselves. */
  schema?: string;
  /** PostgreSQL connections at most (DATABASE_POOL_SIZE); 10 unless given. */
  poolSize?: number;
  /** Whether PostgreSQL's backends for these connections run at this process's CPU priority, when on this machine (the scheduled jobs). */
  backendsSharePriority?: boolean;
  dataDir: string;
}

/**
 * Every query the site runs is published on this channel, with the id of the request it was run
 * for, to whoever subscribes (a test counting a request's queries); unheard when no one does.
 */
export const QUERY_CHANNEL = "meridian:db:query";
const queries = diagnostics.channel(QUERY_CHANNEL);

export interface PublishedQuery {
  sql: string;
  requestId: string | undefined;
}

function publishQuery(event: LogEvent): void {
  if (queries.hasSubscribers) queries.publish({ sql: event.query.sql, requestId: currentRequestId() } satisfies PublishedQuery);
}

export function connect(options: ConnectionOptions): Database {
  if (options.databaseUrl) {
    const pool = createPostgresPool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      // A database that does not answer (a host gone, a network partition) fails the request
      // after this long instead of holding it open.
      connectionTimeoutMillis: POSTGRES_CONNECT_TIMEOUT_MS,
      ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
    });
    const databaseUrl = options.databaseUrl;
    if (options.backendsSharePriority) pool.onConnect((client) => shareOwnPriority(client, databaseUrl));
    return new Kysely<DB>({ dialect: new PostgresDialect({ pool }), log: publishQuery });
  }
  fs.mkdirSync(options.dataDir, { recursive: true });
  const file = new SQLite(path.join(options.dataDir, "site.db"));
  useWriteAheadLog(file);
  file.pragma("synchronous = NORMAL");
  file.pragma("foreign_keys = ON");
  // No waiting inside SQLite: its busy handler sleeps, and the process's event loop with it
  // (see WaitForWriteLockDriver).
  file.pragma("busy_timeout = 0");
  return new Kysely<DB>({
    dialect: new SiteSqliteDialect({ database: withStatementCache(file), file }),
    log: publishQuery,
  });
}

/**
 * SQLite as the site uses it. Migrations run in a transaction, as on PostgreSQL (SQLite's DDL is
 * transactional; Kysely does not assume it): a migration cut short (a full disk, a killed
 * process) leaves nothing behind, and the next start runs it whole.
 *
 * Every transaction begins IMMEDIATE, taking the write lock at its start. Several
 * server processes share the file (ADR 032); a transaction begun the default way reads first
 * and takes the lock at its first write, and if another process wrote in between, SQLite
 * refuses it at once (SQLITE_BUSY, SQLITE_BUSY_SNAPSHOT: the busy timeout does not apply),
 * which failed 4 shoppers adding to their carts at the same time. Begun IMMEDIATE, it waits
 * for the lock instead.
 */
class SiteSqliteDialect extends SqliteDialect {
  constructor(private readonly settings: SqliteDialectConfig & { file: SQLite.Database }) {
    super(settings);
  }

  override createDriver(): Driver {
    return new WaitForWriteLockDriver(this.settings, this.settings.file);
  }

  override createAdapter(): DialectAdapter {
    return new TransactionalDdlAdapter();
  }
}

class TransactionalDdlAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

/** How long a statement may wait for another process's write lock before it fails as busy. */
const SQLITE_LOCK_WAIT_MS = 5_000;

/**
 * Transactions begin IMMEDIATE, and a statement that finds the write lock taken by another
 * process waits for it without blocking: it is tried again after a pause on a timer, for up to
 * SQLITE_LOCK_WAIT_MS, and this process's other queries have the connection meanwhile. SQLite's
 * own busy timeout sleeps in the thread, so a process waiting for the lock served nobody: with
 * two processes, `npm run bench:store` added to carts at half the rate of one process. Only a
 * statement outside a transaction, or the BEGIN that opens one, is tried again: it did nothing
 * when it was refused.
 */
class WaitForWriteLockDriver extends SqliteDriver {
  constructor(
    config: SqliteDialectConfig,
    private readonly file: SQLite.Database,
  ) {
    super(config);
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await super.acquireConnection();
    return {
      executeQuery: (query) => this.whenUnlocked(() => connection.executeQuery(query)),
      streamQuery: (query, chunkSize) => connection.streamQuery(query, chunkSize),
    };
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("begin immediate"));
  }

  private async whenUnlocked<T>(run: () => Promise<T>): Promise<T> {
    const deadline = Date.now() + SQLITE_LOCK_WAIT_MS;
    for (let pause = 1; ; pause = Math.min(pause * 2, 16)) {
      const retryable = !this.file.inTransaction;
      try {
        return await run();
      } catch (error) {
        const busy = String((error as { code?: unknown }).code).startsWith("SQLITE_BUSY");
        if (!busy || !retryable || Date.now() >= deadline) throw error;
      }
      // The connection is this caller's again before it returns, for Kysely to release.
      await super.releaseConnection();
      await new Promise((resolve) => setTimeout(resolve, pause));
      await super.acquireConnection();
    }
  }
}

/**
 * Kysely prepares every query afresh; compiling SQL in SQLite costs more than running these
 * small queries, so prepared statements are kept per SQL text (queries are parameterised,
 * so the set of texts is small and bounded by the code). Their bound values are made storable
 * on the way in, as on PostgreSQL (postgres-pool.ts).
 */
function withStatementCache(file: SQLite.Database): SqliteDatabase {
  const cache = new Map<string, SqliteStatement>();
  return {
    close: () => file.close(),
    prepare(sqlText: string) {
      let statement = cache.get(sqlText);
      if (!statement) {
        statement = storableStatement(file.prepare(sqlText) as unknown as SqliteStatement);
        if (cache.size >= 500) cache.clear();
        cache.set(sqlText, statement);
      }
      return statement;
    },
  };
}

function storableStatement(statement: SqliteStatement): SqliteStatement {
  return {
    reader: statement.reader,
    all: (parameters) => statement.all(storableParameters(parameters)),
    run: (parameters) => statement.run(storableParameters(parameters)),
    iterate: (parameters) => statement.iterate(storableParameters(parameters)),
  };
}

export async function ensureSchema(options: ConnectionOptions): Promise<void> {
  if (!options.databaseUrl || !options.schema) return;
  const client = new pg.Client({ connectionString: options.databaseUrl });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${options.schema}"`);
  } catch (error) {
    // Another instance created it at the same moment (IF NOT EXISTS is not race-free).
    if ((error as { code?: string }).code !== "23505") throw error;
  } finally {
    await client.end();
  }
}

/**
 * Switches the file to write-ahead logging (a no-op once it is). Processes opening a new file
 * together (a cluster's first start) race to switch it, and SQLite refuses the loser at once,
 * whatever the busy timeout: it tries again for up to 5 s. This runs once, at start, so it
 * may block the thread while it waits.
 */
function useWriteAheadLog(file: SQLite.Database): void {
  const deadline = Date.now() + 5_000;
  for (let pause = 5; ; pause = Math.min(pause * 2, 200)) {
    try {
      file.pragma("journal_mode = WAL");
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== "SQLITE_BUSY" || Date.now() >= deadline) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, pause);
    }
  }
}

/**
 * Applies pending migrations. PostgreSQL serialises concurrent migrators with an advisory
 * lock; SQLite has no such lock, so a start that loses the race to another process sees its
 * migration fail, waits, and finds the work done on a second look.
 */
export async function migrate(db: Database, schema?: string, attempts = 5): Promise<void> {
  // With a schema, Kysely must be told it: its existence check for the migration tables
  // looks across all schemas and would otherwise find another schema's tables.
  const migrator = new Migrator({ db, provider: migrationProvider, ...(schema ? { migrationTableSchema: schema } : {}) });
  for (let attempt = 1; ; attempt++) {
    const { error, results } = await migrator.migrateToLatest();
    const failed = results?.find((r) => r.status === "Error");
    if (!error && !failed) return;
    if (attempt >= attempts) {
      throw new Error(failed ? `Migration ${failed.migrationName} failed: ${String(error)}` : `Migrating failed: ${String(error)}`, {
        cause: error,
      });
    }
    await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
  }
}
