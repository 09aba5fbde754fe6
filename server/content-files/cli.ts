// npm run content -- export DIR
//   Writes every article (in every state), author and topic to DIR in the seed format
//   (content/README.md): articles/{slug}.md, authors/{slug}.md and topics.json.
// npm run content -- import DIR
//   Creates or updates articles, authors and topics from DIR, by slug, through the desk's domain
//   (a revision and an audit row for each change, by "command line"). Any invalid file stops it
//   before it changes anything; an article changed at the desk since the import read it is
//   reported as a conflict and left alone. Exit codes: 0 done, 1 refused or failed, 2 usage.
import path from "node:path";
import { config } from "~/server/config";
import { openDatabase } from "~/server/db";
import type { Database } from "~/server/db/connection";
import { COMMAND_LINE } from "~/server/desk/audit";
import { seedDatabase } from "~/server/seed/initialize";
import { exportContent, ExportRefused } from "./export";
import { describeSummary, importContent, ImportRefused } from "./import";

const USAGE = `usage: npm run content -- export <folder>
       npm run content -- import <folder>`;

async function runExport(db: Database, dir: string): Promise<void> {
  const done = await exportContent(db, dir);
  for (const warning of done.warnings) console.error(`warning: ${warning}`);
  console.log(
    `Exported ${done.articles} articles, ${done.authors} authors and ${done.topics} topics to ${dir}: ` +
      `${done.written} files written, ${done.unchanged} unchanged.`,
  );
}

async function runImport(db: Database, dir: string): Promise<void> {
  const result = await importContent(db, COMMAND_LINE, dir, new Date());
  if (!result.ok) {
    for (const problem of result.problems) console.error(`${path.join(dir, problem.file)}: ${problem.message}`);
    console.error(`Nothing was imported: ${result.problems.length} problem${result.problems.length === 1 ? "" : "s"} to fix first.`);
    process.exitCode = 1;
    return;
  }
  console.log(describeSummary(result.summary));
  for (const failure of result.summary.failures) console.error(`${path.join(dir, failure.file)}: not imported: ${failure.message}`);
  if (result.summary.failures.length > 0) process.exitCode = 1;
}

async function main() {
  const [command, dir, ...rest] = process.argv.slice(2);
  if ((command !== "export" && command !== "import") || !dir || rest.length > 0) {
    console.error(USAGE);
    process.exit(2);
  }
  const c = config();
  const db = await openDatabase({ databaseUrl: c.DATABASE_URL, schema: c.DATABASE_SCHEMA, dataDir: c.dataDir });
  try {
    // As a server's start would, so that a server started later finds the seed steps done.
    await seedDatabase(db, c.contentDir);
    if (command === "export") await runExport(db, path.resolve(dir));
    else await runImport(db, path.resolve(dir));
  } catch (error) {
    if (!(error instanceof ExportRefused || error instanceof ImportRefused)) throw error;
    console.error(error.message);
    process.exitCode = 1;
  } finally {
    await db.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
