import { execFileSync } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { startBuiltServer } from "~/tests/helpers/server";
import { dialectName, isolatedConnection } from "~/tests/helpers/test-db";

// PostgreSQL stopped and started again (an upgrade, a failover, a crash) while readers keep
// coming. The site must answer every request within a bounded time, with a 503 "try again
// shortly" while the database is away and never a 500, and recover by itself, without a restart.

/** The local Debian cluster the test database lives on, as pg_lsclusters lists it. */
function cluster(): { version: string; name: string } {
  const port = new URL(process.env.DATABASE_URL!).port || "5432";
  const line = execFileSync("pg_lsclusters", ["--no-header"], { encoding: "utf8" })
    .split("\n")
    .map((l) => l.trim().split(/\s+/))
    .find((fields) => fields[2] === port);
  if (!line) throw new Error(`no local PostgreSQL cluster on port ${port}: this test stops and starts it with pg_ctlcluster`);
  return { version: line[0]!, name: line[1]! };
}

function pgctl(action: "stop" | "start"): void {
  const { version, name } = cluster();
  execFileSync("pg_ctlcluster", ["--skip-systemctl-redirect", version, name, action, ...(action === "stop" ? ["-m", "fast"] : [])], {
    stdio: "inherit",
  });
}

interface Answer {
  status: number | "error";
  ms: number;
  /** Sent after PostgreSQL was stopped / after it was started again. */
  phase: "before" | "down" | "back";
  retryAfter: string | null;
}

/** The most a reader may wait for an answer, database or not: the pool gives up connecting after 5 s. */
const ANSWER_WITHIN_MS = 15_000;
const READERS = 8;
const PAGES = ["/", "/the-latest", "/search?q=strategy", "/topics", "/magazine"];

describe.runIf(dialectName === "postgres")("PostgreSQL restarts under load", () => {
  let stopped = false;
  afterAll(() => {
    // Whatever happened, the cluster is left running for what comes after.
    if (stopped) pgctl("start");
  });

  it("answers 503 within a bounded time while it is away, never 500, and recovers by itself", async () => {
    const connection = await isolatedConnection("pg-restart");
    const server = await startBuiltServer({}, "production", connection);
    const answers: Answer[] = [];
    let phase: Answer["phase"] = "before";
    let running = true;
    const waiters: { until: () => boolean; resolve: () => void }[] = [];
    const record = (answer: Answer) => {
      answers.push(answer);
      for (const waiter of waiters.filter((w) => w.until())) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    };
    const until = (condition: () => boolean) =>
      new Promise<void>((resolve) => (condition() ? resolve() : waiters.push({ until: condition, resolve })));
    const count = (p: Answer["phase"], status?: number) =>
      answers.filter((a) => a.phase === p && (status === undefined || a.status === status)).length;

    const reader = async (n: number) => {
      for (let i = n; running; i++) {
        const sentIn = phase;
        const started = performance.now();
        try {
          const res = await fetch(server.url + PAGES[i % PAGES.length], { signal: AbortSignal.timeout(ANSWER_WITHIN_MS + 5_000) });
          await res.arrayBuffer();
          record({ status: res.status, ms: performance.now() - started, phase: sentIn, retryAfter: res.headers.get("retry-after") });
        } catch {
          record({ status: "error", ms: performance.now() - started, phase: sentIn, retryAfter: null });
        }
      }
    };
    const readers = Array.from({ length: READERS }, (_, n) => reader(n));
    let aliveThroughout = false;
    try {
      await until(() => count("before", 200) >= 40);
      phase = "down";
      stopped = true;
      pgctl("stop");
      await until(() => count("down", 503) >= 40);
      pgctl("start");
      stopped = false;
      phase = "back";
      // Recovered: the last 40 answers sent after the start were all pages.
      await until(() => {
        const back = answers.filter((a) => a.phase === "back");
        return back.length >= 40 && back.slice(-40).every((a) => a.status === 200);
      });
      aliveThroughout = server.child.exitCode === null;
    } finally {
      running = false;
      await Promise.all(readers);
      await server.stop();
      await connection.drop();
    }

    const down = answers.filter((a) => a.phase === "down");
    console.log(
      `PostgreSQL restart under ${READERS} readers: ${answers.length} answers; while it was away ${count("down", 503)} × 503 ` +
        `(slowest ${Math.round(Math.max(...down.map((a) => a.ms)))} ms); after it was back ${count("back", 200)} × 200, ${count("back", 503)} × 503; ` +
        `slowest answer ${Math.round(Math.max(...answers.map((a) => a.ms)))} ms; ${answers.filter((a) => a.status !== 200 && a.status !== 503).length} others`,
    );
    const statuses = new Set(answers.map((a) => a.status));
    expect([...statuses].sort()).toEqual([200, 503]);
    expect(Math.max(...answers.map((a) => a.ms))).toBeLessThan(ANSWER_WITHIN_MS);
    expect(answers.filter((a) => a.status === 503).every((a) => a.retryAfter === "30")).toBe(true);
    expect(aliveThroughout).toBe(true);
  }, 300_000);
});
