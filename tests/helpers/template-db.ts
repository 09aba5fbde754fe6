import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { ConnectionOptions, Database } from "~/server/db/connection";

/**
 * Where the run's migrated and seeded template lives: an SQLite file, or a PostgreSQL database
 * that CREATE DATABASE … TEMPLATE copies. Made once per run by the test runners' global setup
 * and handed to their workers through the environment.
 */
export type Template = { kind: "sqlite"; file: string } | { kind: "postgres"; database: string };

const ENV_KEY = "TEST_DB_TEMPLATE";

/** The server's URL with another database name in its path. */
export function databaseUrlFor(baseUrl: string, database: string): string {
  const url = new URL(baseUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/**
 * A name no other test database has. On PostgreSQL it starts with DATABASE_URL's own database
 * name, so whoever drops that database (CI's clean-up) can find and drop these beside it.
 */
export function testDatabaseName(label: string): string {
  const base = process.env.DATABASE_URL ? new URL(process.env.DATABASE_URL).pathname.slice(1) : "t";
  return `${base}_${label}_${process.pid}_${crypto.randomBytes(4).toString("hex")}`.toLowerCase().slice(0, 63);
}

/** Runs one statement on the maintenance connection of DATABASE_URL's server. */
export async function onPostgresServer(baseUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * Makes a test database, empty or copied from a template. Its sessions commit without waiting
 * for the WAL to reach the disk, as SQLite's WAL mode with synchronous=NORMAL (the embedded
 * default) does not wait either: a commit costs 0.3 ms instead of 3 ms here. Only a crash of the
 * database server could lose the last commits, and no test crashes it: the restart fault stops it
 * in "fast" mode, which writes them out first (ADR 031).
 */
export async function createTestDatabase(baseUrl: string, name: string, template?: string): Promise<void> {
  await onPostgresServer(baseUrl, `CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ""}`);
  await onPostgresServer(baseUrl, `ALTER DATABASE "${name}" SET synchronous_commit = off`);
}

/**
 * Drops a test database once the connections to it have closed. A pool that has just been
 * destroyed may still be closing its last connection; forcing it shut then would reach the test
 * as an unhandled error. FORCE remains for what a killed server process left behind.
 */
export async function dropTestDatabase(baseUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    const open = async () =>
      Number((await client.query("SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1", [name])).rows[0].n);
    for (let attempt = 0; attempt < 100 && (await open()) > 0; attempt++) await new Promise((r) => setTimeout(r, 20));
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

/** Opens, migrates and seeds a database, as the server's start does (server/http/main.ts). */
export async function openSeededDatabase(connection: ConnectionOptions): Promise<Database> {
  // Loaded here, not at the top: every test file imports this module for its database, and
  // only the runners' global setup seeds, so the seed's module graph stays out of the others.
  const [{ config }, { openDatabase }, { seedDatabase }] = await Promise.all([
    import("~/server/config"),
    import("~/server/db"),
    import("~/server/seed/initialize"),
  ]);
  const db = await openDatabase(connection);
  await seedDatabase(db, config().contentDir);
  return db;
}

/** Migrates and seeds a template database and records it in the environment for the workers. */
export async function createTemplate(): Promise<{ template: Template; remove: () => Promise<void> }> {
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const id = testDatabaseName("tmpl");
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `${id}-`));
  let template: Template;
  if (databaseUrl) {
    await createTestDatabase(databaseUrl, id);
    const db = await openSeededDatabase({ databaseUrl: databaseUrlFor(databaseUrl, id), dataDir });
    await db.destroy();
    template = { kind: "postgres", database: id };
  } else {
    const db = await openSeededDatabase({ dataDir });
    await db.destroy();
    template = { kind: "sqlite", file: path.join(dataDir, "site.db") };
  }
  process.env[ENV_KEY] = JSON.stringify(template);
  return {
    template,
    async remove() {
      delete process.env[ENV_KEY];
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (databaseUrl) await dropTestDatabase(databaseUrl, id);
    },
  };
}

/** The run's template, made by the runner's global setup (or a script's own createTemplate()). */
export function runTemplate(): Template {
  const given = process.env[ENV_KEY];
  if (!given) throw new Error("No test database template: run under Vitest or Playwright, or call createTemplate() first");
  return JSON.parse(given) as Template;
}
