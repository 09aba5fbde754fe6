import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { backupFileName, backupSqlite } from "~/server/backup/sqlite";
import { connect } from "~/server/db/connection";
import { dialectName, isolatedConnection } from "~/tests/helpers/test-db";

describe.runIf(dialectName === "sqlite")("npm run backup", () => {
  it("copies the database whole while the site writes to it, and never overwrites a file", async () => {
    const connection = await isolatedConnection("backup");
    const site = connect(connection);
    try {
      await sql`create table visit (n integer not null)`.execute(site);
      const articles = Number(
        (
          await site
            .selectFrom("article")
            .select((eb) => eb.fn.countAll().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
      // The site goes on writing while the copy is taken.
      let writing = true;
      let written = 0;
      const writer = (async () => {
        while (writing) {
          await sql`insert into visit (n) values (${written++})`.execute(site);
          await new Promise((resolve) => setImmediate(resolve));
        }
      })();
      const destination = path.join(connection.dataDir, "backups", backupFileName(new Date("2026-11-25T10:20:30.456Z")));
      expect(path.basename(destination)).toBe("site-20261125T102030Z.db");
      const bytes = await backupSqlite(path.join(connection.dataDir, "site.db"), destination);
      writing = false;
      await writer;

      expect(written).toBeGreaterThan(0);
      expect(bytes).toBe(fs.statSync(destination).size);
      const copy = new SQLite(destination, { readonly: true });
      try {
        expect(copy.pragma("integrity_check", { simple: true })).toBe("ok");
        expect((copy.prepare("select count(*) as n from article").get() as { n: number }).n).toBe(articles);
        // One moment of the database: the visits 0..k-1 for some k, none missing in between.
        const visits = copy.prepare("select count(*) as n, coalesce(max(n), -1) as last from visit").get() as { n: number; last: number };
        expect(visits.last).toBe(visits.n - 1);
        expect(visits.n).toBeLessThanOrEqual(written);
      } finally {
        copy.close();
      }
      await expect(backupSqlite(path.join(connection.dataDir, "site.db"), destination)).rejects.toThrow(/exists already/);
    } finally {
      await site.destroy();
      await connection.drop();
    }
  });

  it("names the copy it made, in the data folder by default, and points a PostgreSQL site to pg_dump", async () => {
    const connection = await isolatedConnection("backup-cli");
    try {
      const run = (env: Record<string, string>) =>
        spawnSync(process.execPath, ["node_modules/tsx/dist/cli.mjs", "server/backup/cli.ts"], {
          env: { ...process.env, DATABASE_URL: "", DATA_DIR: connection.dataDir, ...env },
          encoding: "utf8",
        });
      const made = run({});
      expect(made.status).toBe(0);
      const file = /Backed up the database to (\S+) \(/.exec(made.stdout)?.[1];
      expect(file && path.dirname(file)).toBe(path.join(connection.dataDir, "backups"));
      expect(fs.existsSync(file!)).toBe(true);

      const postgres = run({ DATABASE_URL: "postgres://postgres@127.0.0.1:5432/anything" });
      expect(postgres.status).toBe(2);
      expect(postgres.stderr).toContain("pg_dump");
    } finally {
      await connection.drop();
    }
  }, 60_000);
});
