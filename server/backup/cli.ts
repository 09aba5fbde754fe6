// npm run backup [-- path/to/copy.db]
// A consistent copy of the embedded SQLite database, taken while the site runs; by default into
// DATA_DIR/backups/. With DATABASE_URL set, says to use PostgreSQL's own tool instead.
import path from "node:path";
import { config } from "~/server/config";
import { backupFileName, backupSqlite } from "./sqlite";

async function main() {
  const c = config();
  if (c.DATABASE_URL) {
    console.error('The site runs on PostgreSQL: back it up with pg_dump, e.g. pg_dump --format=custom --file=site.dump "$DATABASE_URL"');
    process.exit(2);
  }
  const destination = path.resolve(process.argv[2] ?? path.join(c.dataDir, "backups", backupFileName(new Date())));
  const bytes = await backupSqlite(path.join(c.dataDir, "site.db"), destination);
  console.log(`Backed up the database to ${destination} (${(bytes / 1024 / 1024).toFixed(1)} MB)`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
