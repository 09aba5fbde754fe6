import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { connect, migrate } from "~/server/db/connection";
import { openSeededDatabase } from "~/tests/helpers/template-db";
import { dialectName, isolatedConnection } from "~/tests/helpers/test-db";

describe(`first start (${dialectName})`, () => {
  it("migrates and seeds once, even when two instances start together", async () => {
    const connection = await isolatedConnection("init", { empty: true });
    try {
      const [a, b] = await Promise.all([openSeededDatabase(connection), openSeededDatabase(connection)]);
      const count = async () =>
        Number(
          (
            await a
              .selectFrom("article")
              .select((eb) => eb.fn.countAll().as("n"))
              .executeTakeFirstOrThrow()
          ).n,
        );
      const first = await count();
      expect(first).toBeGreaterThanOrEqual(30);
      await b.destroy();
      const again = await openSeededDatabase(connection);
      expect(await count()).toBe(first);
      await again.destroy();
      await a.destroy();
    } finally {
      await connection.drop();
    }
  });

  it("leaves nothing behind when the first migration fails part way, and migrates whole on the next start", async () => {
    const connection = await isolatedConnection("half", { empty: true });
    const db = connect(connection);
    try {
      // A table the first migration makes near its end already exists: it fails there, after
      // making a dozen tables, as it would if the disk filled up.
      await sql`create table seed_state (x integer)`.execute(db);
      await expect(migrate(db, undefined, 1)).rejects.toThrow(/Migration 001-content failed/);
      const tables = await db.introspection.getTables();
      expect(tables.map((t) => t.name).sort()).toEqual(["seed_state"]);

      await sql`drop table seed_state`.execute(db);
      await migrate(db, undefined, 1);
      expect((await db.introspection.getTables()).map((t) => t.name)).toEqual(expect.arrayContaining(["topic", "article", "seed_state"]));
    } finally {
      await db.destroy();
      await connection.drop();
    }
  });
});
