import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { connect } from "~/server/db/connection";
import { dialectName } from "~/tests/helpers/test-db";

/** A helper process (tests/helpers/<script>), started once it is ready: call go() to let it work. */
function helperProcess(script: string, args: string[]) {
  const child = spawn(process.execPath, ["node_modules/tsx/dist/cli.mjs", `tests/helpers/${script}`, ...args], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  let output = "";
  const ready = new Promise<void>((resolve) =>
    child.stdout.on("data", (chunk) => {
      output += String(chunk);
      if (output.startsWith("ready\n")) resolve();
    }),
  );
  const finished = new Promise<{ code: number | null; output: string }>((resolve) =>
    child.on("exit", (code) => resolve({ code, output: output.replace("ready\n", "").trim() })),
  );
  return { ready, go: () => child.stdin.end("go\n"), finished };
}

const writer = (dataDir: string, count: number) => helperProcess("sqlite-writer.ts", [dataDir, String(count)]);

// The server runs one process per core, all on one SQLite file (ADR 032).
describe.runIf(dialectName === "sqlite")("SQLite shared by several processes", () => {
  it("commits every transaction that reads and then writes, in both processes, none refused as busy", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "writers-"));
    const db = connect({ dataDir });
    try {
      await sql`create table tally (seen integer not null)`.execute(db);
      const perProcess = 300;
      const writers = [writer(dataDir, perProcess), writer(dataDir, perProcess)];
      await Promise.all(writers.map((w) => w.ready));
      for (const w of writers) w.go();
      const results = await Promise.all(writers.map((w) => w.finished));
      expect(results).toEqual([
        { code: 0, output: "ok" },
        { code: 0, output: "ok" },
      ]);
      const { rows } = await sql<{ n: number }>`select count(*) as n from tally`.execute(db);
      expect(rows[0]!.n).toBe(2 * perProcess);
    } finally {
      await db.destroy();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it("waits for another process's write lock without holding up its own event loop, then writes", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "lock-wait-"));
    const db = connect({ dataDir });
    const holder = spawn(process.execPath, ["node_modules/tsx/dist/cli.mjs", "tests/helpers/sqlite-lock-holder.ts", dataDir], {
      stdio: ["pipe", "pipe", "inherit"],
    });
    try {
      await sql`create table tally (seen integer not null)`.execute(db);
      const lines = readline.createInterface({ input: holder.stdout })[Symbol.asyncIterator]();
      expect((await lines.next()).value).toBe("locked");
      const events: string[] = [];
      const write = sql`insert into tally (seen) values (1)`.execute(db).then(
        () => events.push("written"),
        (error: unknown) => events.push(`failed: ${String(error)}`),
      );
      // SQLite's own busy handler would have slept in this thread until the lock came free or
      // the wait ran out: this timer could not have run before the insert ended either way.
      await new Promise((resolve) => setTimeout(resolve, 0));
      events.push("event loop turned");
      holder.stdin.end("commit\n");
      await write;
      expect(events).toEqual(["event loop turned", "written"]);
      const { rows } = await sql<{ n: number }>`select count(*) as n from tally`.execute(db);
      expect(rows[0]!.n).toBe(1);
    } finally {
      holder.kill();
      await db.destroy();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it("opens a new database in both of two processes starting together (the first start of a cluster)", async () => {
    // Both switch each new file to write-ahead logging at the same moment; SQLite refused the
    // loser at once, whatever its busy timeout, in about one round in twelve.
    const openers = [0, 1].map(() => {
      const child = spawn(process.execPath, ["node_modules/tsx/dist/cli.mjs", "tests/helpers/sqlite-opener.ts"], {
        stdio: ["pipe", "pipe", "inherit"],
      });
      const lines = readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]();
      return { child, next: async () => (await lines.next()).value as string };
    });
    const dataDirs: string[] = [];
    try {
      expect(await Promise.all(openers.map((o) => o.next()))).toEqual(["ready", "ready"]);
      for (let round = 0; round < 40; round++) {
        const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "openers-"));
        dataDirs.push(dataDir);
        for (const o of openers) o.child.stdin.write(`${dataDir}\n`);
        expect(await Promise.all(openers.map((o) => o.next())), `round ${round}`).toEqual(["opened", "opened"]);
      }
    } finally {
      for (const o of openers) o.child.stdin.end();
      for (const dataDir of dataDirs) fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
