import fs from "node:fs";
import os from "node:os";
import type pg from "pg";

const LOOPBACK = new Set(["localhost", "127.0.0.1", "::1", "[::1]"]);

/**
 * Gives the PostgreSQL backend serving a new connection this process's CPU priority, when the
 * database runs on this machine: the scheduled jobs' queries then take, as the jobs themselves do,
 * only the CPU that pages leave (ADR 069). Against a database elsewhere, or without the right to
 * renice it, nothing changes. The backend is checked to be PostgreSQL's before it is touched.
 */
export function shareOwnPriority(client: pg.Client, databaseUrl: string): void {
  const host = new URL(databaseUrl).hostname || "localhost";
  if (!LOOPBACK.has(host) && !host.startsWith("/") && !host.startsWith("%2F")) return;
  const niceness = os.getPriority();
  client
    .query<{ pid: number }>("SELECT pg_backend_pid() AS pid")
    .then(({ rows: [row] }) => {
      if (!row || !fs.readFileSync(`/proc/${row.pid}/comm`, "utf8").startsWith("postgres")) return;
      os.setPriority(row.pid, niceness);
    })
    .catch(() => {});
}
