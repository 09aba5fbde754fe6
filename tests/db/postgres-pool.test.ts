import net from "node:net";
import { Kysely, PostgresDialect, sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { connect, POSTGRES_CONNECT_TIMEOUT_MS } from "~/server/db/connection";
import { createPostgresPool, PREPARED } from "~/server/db/postgres-pool";
import { dialectName, isolatedConnection, type IsolatedConnection } from "~/tests/helpers/test-db";

/**
 * A TCP relay to PostgreSQL that can lose every open connection without a word, as a failover
 * or a restart behind a proxy does: the pool hears nothing until it next writes, and then the
 * socket is closed under it.
 */
function startRelay(target: URL) {
  const pairs = new Set<{ client: net.Socket; upstream: net.Socket; lost: boolean }>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    const pair = { client, upstream, lost: false };
    pairs.add(pair);
    client.on("data", (chunk) => {
      if (pair.lost) client.destroy();
      else upstream.write(chunk);
    });
    upstream.on("data", (chunk) => {
      if (!pair.lost) client.write(chunk);
    });
    const close = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on("close", close).on("error", close);
    upstream.on("close", () => pair.lost || close()).on("error", close);
  });
  return {
    listen: () =>
      new Promise<number>((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as net.AddressInfo).port))),
    loseEveryConnection() {
      for (const pair of pairs) {
        pair.lost = true;
        pair.upstream.destroy();
      }
    },
    openConnections: () => pairs.size,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.runIf(dialectName === "postgres")("the PostgreSQL pool, when the server silently loses its idle connections", () => {
  let connection: IsolatedConnection;
  let relay: ReturnType<typeof startRelay>;
  let db: Kysely<{ note: { id: number } }>;
  const poolSize = 3;

  beforeAll(async () => {
    connection = await isolatedConnection("pool", { empty: true });
    relay = startRelay(new URL(connection.databaseUrl!));
    const url = new URL(connection.databaseUrl!);
    url.host = `127.0.0.1:${await relay.listen()}`;
    db = new Kysely({ dialect: new PostgresDialect({ pool: createPostgresPool({ connectionString: url.href, max: poolSize }) }) });
    await sql`create table note (id integer)`.execute(db);
  });

  afterAll(async () => {
    await db.destroy();
    await relay.close();
    await connection.drop();
  });

  beforeEach(async () => {
    // Every connection of the pool in use at once, then all back in the pool, idle.
    await Promise.all(Array.from({ length: poolSize }, () => sql`select pg_sleep(0.05)`.execute(db)));
    expect(relay.openConnections()).toBe(poolSize);
    relay.loseEveryConnection();
  });

  it("answers reads on new connections", async () => {
    const counts = await Promise.all(
      Array.from({ length: poolSize * 2 }, () =>
        db
          .selectFrom("note")
          .select((eb) => eb.fn.countAll<string>().as("n"))
          .executeTakeFirstOrThrow(),
      ),
    );
    expect(counts.map((row) => Number(row.n))).toEqual(Array(poolSize * 2).fill(0));
  });

  it("runs a transaction, whose start is sent again on a new connection", async () => {
    await db.transaction().execute((trx) => trx.insertInto("note").values({ id: 1 }).execute());
    expect(await db.selectFrom("note").select("id").execute()).toEqual([{ id: 1 }]);
    await db.deleteFrom("note").execute();
  });

  it("sends a prepared read again on a new connection, and prepares it there", async () => {
    const read = (n: number) => sql<{ n: number }>`${sql.raw(PREPARED)}select ${n}::integer + count(*)::integer as n from note`.execute(db);
    expect((await read(5)).rows).toEqual([{ n: 5 }]);
    relay.loseEveryConnection();
    expect((await read(7)).rows).toEqual([{ n: 7 }]);
  });

  it("does not send a write again, since it cannot know whether the first one was done", async () => {
    await expect(db.insertInto("note").values({ id: 2 }).execute()).rejects.toThrow(/Connection terminated/);
    expect(await db.selectFrom("note").select("id").execute()).toEqual([]);
  });
});

describe.runIf(dialectName === "postgres")("the PostgreSQL pool's prepared statements", () => {
  it("prepares a marked statement once on a connection and answers each call with its own values", async () => {
    const connection = await isolatedConnection("prepared", { empty: true });
    const db = new Kysely({
      dialect: new PostgresDialect({ pool: createPostgresPool({ connectionString: connection.databaseUrl!, max: 1 }) }),
    });
    try {
      const answers = [];
      for (const word of ["leaders", "customers", "strategy"]) {
        const { rows } = await sql<{
          found: boolean;
        }>`${sql.raw(PREPARED)}select to_tsvector('english', 'strategy for leaders') @@ to_tsquery('english', ${word}) as found`.execute(
          db,
        );
        answers.push(rows[0]!.found);
      }
      expect(answers).toEqual([true, false, true]);
      const { rows } = await sql<{
        n: string;
      }>`select count(*) as n from pg_prepared_statements where statement like ${`${PREPARED}%`}`.execute(db);
      expect(Number(rows[0]!.n)).toBe(1);
    } finally {
      await db.destroy();
      await connection.drop();
    }
  });
});

describe.runIf(dialectName === "postgres")("the PostgreSQL pool, when the server accepts connections and never answers", () => {
  it("fails the query once the connection timeout has passed, instead of holding the request", async () => {
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", () => resolve()));
    const db = connect({ dataDir: "unused", databaseUrl: `postgres://postgres@127.0.0.1:${(silent.address() as net.AddressInfo).port}/x` });
    try {
      const started = performance.now();
      await expect(sql`select 1`.execute(db)).rejects.toThrow(/timeout/i);
      // Not before the timeout (a refusal would be sooner), and the server did hear from us.
      expect(performance.now() - started).toBeGreaterThanOrEqual(POSTGRES_CONNECT_TIMEOUT_MS - 50);
      expect(sockets.size).toBeGreaterThan(0);
    } finally {
      await db.destroy();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  }, 30_000);
});
