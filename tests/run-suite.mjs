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
// The fault scripts mostly wait (for a process to die, a database to come back), so each
// database's run goes beside a step on the other database: none can disturb the other's data,
// and stopping PostgreSQL cannot fail a step on SQLite.
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

/** The fault scripts on one database, beside another step; their output comes when they end. */
async function faults(database, env) {
  console.log(`\n== faults (${database}): running beside the next step; their output follows when they end ==`);
  const started = Date.now();
  await run("npm", ["run", "--silent", "test:faults"], { ...env, TEST_RESULTS_DIR: `test-results/faults-${database}` }, true);
  console.log(`== faults (${database}): passed in ${seconds(started)} ==`);
}

try {
  fs.rmSync("test-results", { recursive: true, force: true });
  // Type-checking and building each use about one core, so they run side by side.
  await Promise.all([step("type-check", npx("tsc", "--noEmit")), step("build", ["npm", ["run", "--silent", "build"]])]);
  if (secondDatabase) {
    await Promise.all([
      step("vitest (sqlite): all but the integration tests", npx("vitest", "run", "--exclude", "tests/integration/**"), {
        TEST_RESULTS_DIR: "test-results/sqlite",
      }),
      faults("sqlite", {}),
    ]);
    await step("vitest (postgres): database and integration tests", npx("vitest", "run", "tests/db", "tests/integration"), {
      ...onPostgres,
      TEST_RESULTS_DIR: "test-results/postgres",
    });
    await Promise.all([
      step("playwright (sqlite): no-JS project", npx("playwright", "test", "--project=no-js"), {
        TEST_RESULTS_DIR: "test-results/sqlite",
      }),
      faults("postgres", onPostgres),
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
