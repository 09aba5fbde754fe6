import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startBuiltServer } from "~/tests/helpers/server";
import { dialectName } from "~/tests/helpers/test-db";

// The embedded database is a file on this machine: a server that cannot open it stops at once.
describe.runIf(dialectName === "sqlite")("starting on the embedded database", () => {
  it("refuses to start when its embedded database cannot be opened, and says why", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "unopenable-"));
    try {
      // Where the database file should be there is a folder: nothing the server can open or replace.
      fs.mkdirSync(path.join(dataDir, "site.db"));
      const connection = { dataDir, drop: async () => {} };
      await expect(startBuiltServer({}, "production", connection)).rejects.toThrow(/The database in .*unopenable-.* could not be opened/);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
