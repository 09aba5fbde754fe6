// npm run content -- export DIR
//   Writes every article (in every state), author and topic to DIR in the seed format
//   (content/README.md): articles/{slug}.md, authors/{slug}.md and topics.json.
// npm run content -- import DIR
//   Creates or updates articles, authors and topics from DIR, by slug, through the desk's domain
//   (a revision and an audit row for each change, by "command line"). Any invalid file stops it
//   before it changes anything; an article changed at the desk since the import read it is
//   reported as a conflict and left alone. Exit codes: 0 done, 1 refused or failed, 2 usage.
import { config } from "~/server/config";
import { openDatabase } from "~/server/db";
import { runContentCommand } from "./command";

const terminal = { out: (line: string) => console.log(line), err: (line: string) => console.error(line) };

runContentCommand(process.argv.slice(2), terminal, async () => {
  const c = config();
  const db = await openDatabase({ databaseUrl: c.DATABASE_URL, schema: c.DATABASE_SCHEMA, dataDir: c.dataDir });
  return { db, contentDir: c.contentDir, close: () => db.destroy() };
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
