// A process opening new SQLite databases as a starting server does: `tsx sqlite-opener.ts`.
// Prints "ready", then for each line on stdin (a data folder) opens that folder's database,
// creating it, writes to it, and prints "opened" or the error.
import readline from "node:readline";
import { sql } from "kysely";
import { connect } from "~/server/db/connection";

console.log("ready");
for await (const dataDir of readline.createInterface({ input: process.stdin })) {
  try {
    const db = connect({ dataDir });
    await sql`create table if not exists opened (at text)`.execute(db);
    await db.destroy();
    console.log("opened");
  } catch (error) {
    console.log(String(error));
  }
}
