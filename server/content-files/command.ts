import path from "node:path";
import type { Database } from "~/server/db/connection";
import { COMMAND_LINE } from "~/server/desk/audit";
import { seedDatabase } from "~/server/seed/initialize";
import { exportContent, ExportRefused } from "./export";
import { describeSummary, importContent, ImportRefused } from "./import";

const USAGE = `usage: npm run content -- export <folder>
       npm run content -- import <folder>`;

/** Where the command writes: standard output and standard error, one line at a time. */
export interface CommandOutput {
  out(line: string): void;
  err(line: string): void;
}

/** The database the command works on, as a server's start would open it, and how it is closed. */
export interface CommandDatabase {
  db: Database;
  contentDir: string;
  close(): Promise<void>;
}

async function runExport(db: Database, dir: string, io: CommandOutput): Promise<number> {
  const done = await exportContent(db, dir);
  for (const warning of done.warnings) io.err(`warning: ${warning}`);
  io.out(
    `Exported ${done.articles} articles, ${done.authors} authors and ${done.topics} topics to ${dir}: ` +
      `${done.written} files written, ${done.unchanged} unchanged.`,
  );
  return 0;
}

async function runImport(db: Database, dir: string, io: CommandOutput): Promise<number> {
  const result = await importContent(db, COMMAND_LINE, dir, new Date());
  if (!result.ok) {
    for (const problem of result.problems) io.err(`${path.join(dir, problem.file)}: ${problem.message}`);
    io.err(`Nothing was imported: ${result.problems.length} problem${result.problems.length === 1 ? "" : "s"} to fix first.`);
    return 1;
  }
  io.out(describeSummary(result.summary));
  for (const failure of result.summary.failures) io.err(`${path.join(dir, failure.file)}: not imported: ${failure.message}`);
  return result.summary.failures.length > 0 ? 1 : 0;
}

/**
 * `npm run content -- <command> <folder>`: its exit code, 0 done, 1 refused or failed, 2 usage
 * (the database is not opened for a usage error).
 */
export async function runContentCommand(args: string[], io: CommandOutput, open: () => Promise<CommandDatabase>): Promise<number> {
  const [command, dir, ...rest] = args;
  if ((command !== "export" && command !== "import") || !dir || rest.length > 0) {
    io.err(USAGE);
    return 2;
  }
  const { db, contentDir, close } = await open();
  try {
    // As a server's start would, so that a server started later finds the seed steps done.
    await seedDatabase(db, contentDir);
    return command === "export" ? await runExport(db, path.resolve(dir), io) : await runImport(db, path.resolve(dir), io);
  } catch (error) {
    if (!(error instanceof ExportRefused || error instanceof ImportRefused)) throw error;
    io.err(error.message);
    return 1;
  } finally {
    await close();
  }
}
