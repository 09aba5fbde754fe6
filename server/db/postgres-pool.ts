import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from "kysely";
import pg from "pg";
import { log } from "../log";

/**
 * A pg pool that survives PostgreSQL dropping its connections (a restart, a failover, an
 * administrator). Each dropped connection's notice arrives on its own socket, and a connection
 * may be handed to a request before its notice has been read. So when the first query on a
 * connection that has sat idle in the pool finds it dead, and that query is a read or the
 * start of a transaction (nothing has changed, so it is safe to send again), the connection
 * is discarded and the query is sent on another. Any other failure is the caller's.
 */
export function createPostgresPool(config: pg.PoolConfig): PostgresPool {
  const pool = new pg.Pool(config);
  const usedBefore = new WeakSet<pg.PoolClient>();
  // Unheard, this error would be an uncaught exception that stops the process.
  pool.on("error", (error) => log.error(`An idle database connection was closed: ${error.message}`));

  async function connect(): Promise<PostgresPoolClient> {
    const client = await pool.connect();
    if (!usedBefore.has(client)) {
      usedBefore.add(client);
      // A connection lost while in use fails its query, which the caller hears. pg also emits
      // an error event, which out of the pool nobody listens to: unheard, it would stop the process.
      client.on("error", () => {});
      return client;
    }
    return retryingFirstQuery(client, connect);
  }

  return { connect, end: () => pool.end() };
}

function retryingFirstQuery(idle: pg.PoolClient, connect: () => Promise<PostgresPoolClient>): PostgresPoolClient {
  let current: pg.PoolClient | PostgresPoolClient = idle;
  let first = true;
  async function query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> {
    const run = () => (current as pg.PoolClient).query(sql, parameters as unknown[]) as unknown as Promise<PostgresQueryResult<R>>;
    if (!first) return run();
    first = false;
    try {
      return await run();
    } catch (error) {
      if (!isConnectionLost(error) || !isSafeToResend(sql)) throw error;
      (current as pg.PoolClient).release(error as Error);
      current = await connect();
      return run();
    }
  }
  return {
    query: query as PostgresPoolClient["query"],
    release: () => current.release(),
  };
}

const connectionLostCodes = new Set(["57P01", "57P02", "57P03"]);

function isConnectionLost(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: string }).code;
  return (code !== undefined && connectionLostCodes.has(code)) || /Connection terminated/.test(error.message);
}

function isSafeToResend(sql: string): boolean {
  return /^\s*(select|begin)\b/i.test(sql);
}
