// A second process writing to the same SQLite file as a test: `tsx sqlite-writer.ts <dataDir> <count>`.
// Prints "ready", waits for a line on stdin (so that several start together), then runs <count>
// transactions that read, yield, then write, as a route's action does; prints "ok" when all
// committed, or the first error.
import { sql } from "kysely";
import { connect } from "~/server/db/connection";

const [dataDir, count] = process.argv.slice(2);
const db = connect({ dataDir: dataDir! });
console.log("ready");
await new Promise((resolve) => process.stdin.once("data", resolve));
process.stdin.destroy();
try {
  for (let i = 0; i < Number(count); i++) {
    await db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ n: number }>`select count(*) as n from tally`.execute(trx);
      await new Promise((resolve) => setImmediate(resolve));
      await sql`insert into tally (seen) values (${rows[0]!.n})`.execute(trx);
    });
  }
  console.log("ok");
} catch (error) {
  console.log(String(error));
  process.exitCode = 1;
} finally {
  await db.destroy();
}
