// A second process holding the write lock of a test's SQLite file: `tsx sqlite-lock-holder.ts <dataDir>`.
// Begins an immediate transaction, prints "locked", and commits when a line arrives on stdin.
import path from "node:path";
import SQLite from "better-sqlite3";

const [dataDir] = process.argv.slice(2);
const file = new SQLite(path.join(dataDir!, "site.db"));
file.exec("begin immediate");
console.log("locked");
await new Promise((resolve) => process.stdin.once("data", resolve));
process.stdin.destroy();
file.exec("commit");
file.close();
