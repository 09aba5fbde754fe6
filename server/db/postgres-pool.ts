import { createHash } from "node:crypto";
import type { Compilable, CompiledQuery, PostgresPool, PostgresPoolClient, PostgresQueryResult } from "kysely";
import pg from "pg";
import { log } from "~/server/log";
import { storableParameters } from "./storable-text";

/**
 * SQL that starts with this comment is prepared once on each connection, and PostgreSQL reuses
 * its plan. For search's unions of slices, planning cost more than running: 0.35 of 0.35 ms for a
 * rare word, 0.5 of 1.0 ms for a common one (ADR 040). Only statements whose text takes a bounded
 * number of forms may carry it, since each form stays prepared for the connection's life.
 */
export const PREPARED = "/* prepared */ ";

/**
 * A query built with Kysely, compiled to carry PREPARED, for `db.executeQuery`. On SQLite the
 * comment changes nothing (its statements are kept prepared by their text anyway).
 */
export function prepared<R>(query: Compilable<R>): CompiledQuery<R> {
  const compiled = query.compile();
  return { ...compiled, sql: PREPARED + compiled.sql };
}

const statementName = (text: string) => `p_${createHash("sha1").update(text).digest("base64url").slice(0, 20)}`;

function send<R>(client: pg.PoolClient, text: string, bound: readonly unknown[]): Promise<PostgresQueryResult<R>> {
  const values = storableParameters(bound);
  const query = text.startsWith(PREPARED) ? client.query({ name: statementName(text), text, values }) : client.query(text, values);
  return query as unknown as Promise<PostgresQueryResult<R>>;
}

/**
 * A pg pool that survives PostgreSQL dropping its connections (a restart, a failover, an
 * administrator). Each dropped connection's notice arrives on its own socket, and a connection
 * may be handed to a request before its notice has been read. So when the first query on a
 * connection that has sat idle in the pool finds it dead, and that query is a read or the
 * start of a transaction (nothing has changed, so it is safe to send again), the connection
 * is discarded and the query is sent on another. Any other failure is the caller's.
 */
export function createPostgresPool(
  config: pg.PoolConfig,
): PostgresPool & { onConnect: (listener: (client: pg.PoolClient) => void) => void } {
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
      return wrap(client);
    }
    return retryingFirstQuery(client, connect);
  }

  return { connect, end: () => pool.end(), onConnect: (listener) => pool.on("connect", listener) };
}

function wrap(client: pg.PoolClient): PostgresPoolClient {
  return {
    query: ((text: string, values: ReadonlyArray<unknown>) => send(client, text, values)) as PostgresPoolClient["query"],
    release: () => client.release(),
  };
}

function retryingFirstQuery(idle: pg.PoolClient, connect: () => Promise<PostgresPoolClient>): PostgresPoolClient {
  let current = wrap(idle);
  let first = true;
  async function query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> {
    if (!first) return current.query<R>(sql, parameters);
    first = false;
    try {
      return await current.query<R>(sql, parameters);
    } catch (error) {
      if (!isConnectionLost(error) || !isSafeToResend(sql)) throw error;
      idle.release(error as Error);
      current = await connect();
      return current.query<R>(sql, parameters);
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
  return /^\s*(select|begin)\b/i.test(sql.startsWith(PREPARED) ? sql.slice(PREPARED.length) : sql);
}
