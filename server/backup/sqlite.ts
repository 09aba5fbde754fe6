import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";

const ALL_PAGES = 0x7fffffff;

/** A backup file's default name: the database's, with the moment it was taken. */
export function backupFileName(now: Date): string {
  return `site-${now
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z")}.db`;
}

/**
 * Copies the embedded database to `destination` while the site keeps running, with SQLite's
 * online backup: the copy is one consistent moment of the database. It copies every page in one
 * step, under one read transaction: copied a hundred pages at a time (the default), it started
 * again whenever the site wrote in between, and a busy site never let it finish. Returns the
 * copy's size in bytes.
 */
export async function backupSqlite(databaseFile: string, destination: string): Promise<number> {
  if (!fs.existsSync(databaseFile)) throw new Error(`There is no database at ${databaseFile}`);
  if (fs.existsSync(destination)) throw new Error(`${destination} exists already; a backup never overwrites a file`);
  fs.mkdirSync(path.dirname(destination), { recursive: true });
  const source = new SQLite(databaseFile, { fileMustExist: true });
  try {
    await source.backup(destination, { progress: () => ALL_PAGES });
  } finally {
    source.close();
  }
  return fs.statSync(destination).size;
}
