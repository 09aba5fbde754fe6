import net from "node:net";
import { Kysely, PostgresDialect, sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createPostgresPool } from "../../server/db/postgres-pool";
import { dialectName, isolatedConnection, type IsolatedConnection } from "../helpers/test-db";

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

  it("does not send a write again, since it cannot know whether the first one was done", async () => {
    await expect(db.insertInto("note").values({ id: 2 }).execute()).rejects.toThrow(/Connection terminated/);
    expect(await db.selectFrom("note").select("id").execute()).toEqual([]);
  });
});
