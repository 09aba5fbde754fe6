// `npm test`: type-checks and builds, then runs Vitest and Playwright on the embedded SQLite
// database (or on DATABASE_URL's PostgreSQL, when that is set).
//
// With TEST_POSTGRES_URL, the run covers both databases while running each test once, but for
// the database tests, which run on both (ADR 031):
// - SQLite: the unit, component, tooling, adapter and database tests, and the browser suite's
//   no-JS project;
// - PostgreSQL: the database and integration tests (the production server under concurrent
//   requests, where the two engines differ most), and the browser suite's JS project.
// Each database's reports go to test-results/<database>/.
import { spawn } from "node:child_process";
import fs from "node:fs";

const secondDatabase = process.env.DATABASE_URL ? undefined : process.env.TEST_POSTGRES_URL || undefined;
const primary = process.env.DATABASE_URL ? "postgres" : "sqlite";

function run(command, args, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
    child.on("error", reject);
    child.on("exit", (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(" ")} ended with ${signal ?? `exit code ${code}`}`)),
    );
  });
}

const npx = (...args) => ["npx", args];
const onPostgres = { DATABASE_URL: secondDatabase };

function step(label, [command, args], env) {
  console.log(`\n== ${label} ==`);
  return run(command, args, env);
}

try {
  fs.rmSync("test-results", { recursive: true, force: true });
  // Type-checking and building each use about one core, so they run side by side.
  await Promise.all([step("type-check", npx("tsc", "--noEmit")), step("build", ["npm", ["run", "--silent", "build"]])]);
  if (secondDatabase) {
    await step("vitest (sqlite): all but the integration tests", npx("vitest", "run", "--exclude", "tests/integration/**"), {
      TEST_RESULTS_DIR: "test-results/sqlite",
    });
    await step("vitest (postgres): database and integration tests", npx("vitest", "run", "tests/db", "tests/integration"), {
      ...onPostgres,
      TEST_RESULTS_DIR: "test-results/postgres",
    });
    await step("playwright (sqlite): no-JS project", npx("playwright", "test", "--project=no-js"), {
      TEST_RESULTS_DIR: "test-results/sqlite",
    });
    await step("playwright (postgres): JS project", npx("playwright", "test", "--project=js"), {
      ...onPostgres,
      TEST_RESULTS_DIR: "test-results/postgres",
    });
  } else {
    await step(`vitest (${primary})`, npx("vitest", "run"), { TEST_RESULTS_DIR: `test-results/${primary}` });
    await step(`playwright (${primary})`, npx("playwright", "test"), { TEST_RESULTS_DIR: `test-results/${primary}` });
  }
} catch (error) {
  console.error(`\n${error.message}`);
  process.exit(1);
}
