import { describe, expect, it } from "vitest";
import { openDatabase } from "../../server/seed/initialize";
import { dialectName, isolatedConnection } from "../helpers/test-db";

describe(`first start (${dialectName})`, () => {
  it("migrates and seeds once, even when two instances start together", async () => {
    const connection = await isolatedConnection("init", { empty: true });
    try {
      const [a, b] = await Promise.all([openDatabase(connection), openDatabase(connection)]);
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
      const again = await openDatabase(connection);
      expect(await count()).toBe(first);
      await again.destroy();
      await a.destroy();
    } finally {
      await connection.drop();
    }
  });
});
