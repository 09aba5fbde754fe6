// `npm test`: type-checks and builds, then runs Vitest and Playwright on the embedded SQLite
// database (or on DATABASE_URL's PostgreSQL, when that is set), and the fault scripts
// (tests/faults: kills and database restarts, `npm run test:faults`).
//
// With TEST_POSTGRES_URL, the run covers both databases while running each test once, but for
// the database tests and the fault scripts, which run on both (ADR 031):
// - SQLite: the unit, component, tooling, adapter and database tests, and the browser suite's
//   no-JS project;
// - PostgreSQL: the database and integration tests (the production server under concurrent
//   requests, where the two engines differ most), and the browser suite's JS project.
// Steps on different databases run side by side, so the two cores are kept busy: none can
// disturb the other's data. The fault scripts mostly wait (for a process to die, a database to
// come back): both databases' go beside the SQLite tests, where stopping PostgreSQL fails nothing.
// Each run's reports go to test-results/<run>/.
import { spawn } from "node:child_process";
import fs from "node:fs";

const secondDatabase = process.env.DATABASE_URL ? undefined : process.env.TEST_POSTGRES_URL || undefined;
const primary = process.env.DATABASE_URL ? "postgres" : "sqlite";

/**
 * Runs a command to its end. A step that runs beside another keeps its output until it ends
 * (`held`), so the two steps' lines are not mixed.
 */
function run(command, args, env = {}, held = false) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: held ? ["ignore", "pipe", "pipe"] : "inherit", env: { ...process.env, ...env } });
    const output = [];
    if (held) for (const stream of [child.stdout, child.stderr]) stream.on("data", (chunk) => output.push(chunk));
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      if (held) process.stdout.write(Buffer.concat(output));
      if (code === 0) resolve();
      else reject(new Error(`${command} ${args.join(" ")} ended with ${signal ?? `exit code ${code}`}`));
    });
  });
}

const npx = (...args) => ["npx", args];
const onPostgres = { DATABASE_URL: secondDatabase };

const seconds = (since) => `${Math.round((Date.now() - since) / 1000)} s`;

/** A step's output as it comes; its wall-clock time when it ends, for CI's time budget. */
async function step(label, [command, args], env) {
  console.log(`\n== ${label} ==`);
  const started = Date.now();
  await run(command, args, env);
  console.log(`== ${label}: passed in ${seconds(started)} ==`);
}

/** A step beside another: its output, and its time, come when it ends. */
async function heldStep(label, [command, args], env) {
  console.log(`\n== ${label}: running beside the step above; its output follows when it ends ==`);
  const started = Date.now();
  await run(command, args, env, true);
  console.log(`== ${label}: passed in ${seconds(started)} ==`);
}

/** The fault scripts on one database (`npm run test:faults`), beside another step. */
const faults = (database, env) =>
  heldStep(`faults (${database})`, ["npm", ["run", "--silent", "test:faults"]], {
    ...env,
    TEST_RESULTS_DIR: `test-results/faults-${database}`,
  });

try {
  fs.rmSync("test-results", { recursive: true, force: true });
  // Type-checking and building each use about one core, so they run side by side.
  await Promise.all([step("type-check", npx("tsc", "--noEmit")), step("build", ["npm", ["run", "--silent", "build"]])]);
  if (secondDatabase) {
    // The fault scripts of both databases beside the SQLite tests: none of these uses the
    // PostgreSQL that the PostgreSQL fault scripts stop and start.
    await Promise.all([
      step("vitest (sqlite): all but the integration tests", npx("vitest", "run", "--exclude", "tests/integration/**"), {
        TEST_RESULTS_DIR: "test-results/sqlite",
      }),
      faults("sqlite", {}),
      faults("postgres", onPostgres),
    ]);
    // The PostgreSQL tests wait on their servers and the database much of the time: the browser
    // suite's no-JS project on SQLite fills the cores beside them.
    await Promise.all([
      step("vitest (postgres): database and integration tests", npx("vitest", "run", "tests/db", "tests/integration"), {
        ...onPostgres,
        TEST_RESULTS_DIR: "test-results/postgres",
      }),
      heldStep("playwright (sqlite): no-JS project", npx("playwright", "test", "--project=no-js"), {
        TEST_RESULTS_DIR: "test-results/sqlite",
      }),
    ]);
    await step("playwright (postgres): JS project", npx("playwright", "test", "--project=js"), {
      ...onPostgres,
      TEST_RESULTS_DIR: "test-results/postgres",
    });
  } else {
    await step(`vitest (${primary})`, npx("vitest", "run"), { TEST_RESULTS_DIR: `test-results/${primary}` });
    const browsers = () => step(`playwright (${primary})`, npx("playwright", "test"), { TEST_RESULTS_DIR: `test-results/${primary}` });
    // On PostgreSQL the fault scripts stop the database the browser suite uses: they go after it.
    if (primary === "sqlite") await Promise.all([browsers(), faults(primary, {})]);
    else await browsers().then(() => faults(primary, {}));
  }
} catch (error) {
  console.error(`\n${error.message}`);
  process.exit(1);
}
