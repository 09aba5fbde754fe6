import pg from "pg";
import { describe, expect, it } from "vitest";
import { startBuiltServer } from "~/tests/helpers/server";
import { dialectName, isolatedConnection } from "~/tests/helpers/test-db";

// PostgreSQL may close the server's idle connections at any time (a restart, a failover, an
// administrator): the server must go on answering, on new connections.
describe.runIf(dialectName === "postgres")("when PostgreSQL closes the server's connections", () => {
  it("logs it, stays up and answers the next requests", async () => {
    const connection = await isolatedConnection("restart");
    const server = await startBuiltServer({}, "production", connection);
    try {
      const paths = ["/the-latest", "/", "/search?q=strategy"];
      const answerAll = async () => {
        // In parallel, so that the pool holds (and then hands out) several connections.
        const statuses = await Promise.all(
          Array.from({ length: 12 }, (_, i) => fetch(server.url + paths[i % paths.length]).then((r) => r.status)),
        );
        return statuses.filter((status) => status !== 200);
      };
      expect(await answerAll()).toEqual([]);
      const reported = new Promise<void>((resolve) => {
        server.child.stderr!.on("data", (chunk: Buffer) => {
          if (String(chunk).includes("An idle database connection was closed")) resolve();
        });
      });
      const admin = new pg.Client({ connectionString: connection.databaseUrl });
      await admin.connect();
      try {
        const { rows } = await admin.query<{ closed: boolean }>(
          "select pg_terminate_backend(pid) as closed from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()",
        );
        expect(rows.filter((r) => r.closed).length).toBeGreaterThan(0);
      } finally {
        await admin.end();
      }
      expect(await answerAll()).toEqual([]);
      await reported;
      expect(server.child.exitCode).toBeNull();
    } finally {
      await server.stop();
      await connection.drop();
    }
  }, 120_000);
});
