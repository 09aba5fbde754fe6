import { defineConfig } from "@playwright/test";
import { chromiumLaunchOptions } from "./e2e/browser";

const launchOptions = await chromiumLaunchOptions();
// npm test gives each database's run a folder of its own (tests/run-suite.mjs).
const resultsDir = process.env.TEST_RESULTS_DIR ?? "test-results";

export default defineConfig({
  testDir: "e2e",
  // Playwright empties its output folder at start; a folder of its own keeps Vitest's report.
  outputDir: `${resultsDir}/e2e`,
  // Migrates and seeds the run's template database (SQLite, or PostgreSQL when DATABASE_URL is
  // set); each worker starts the production build on its own copy (e2e/site.ts).
  globalSetup: "./e2e/global-setup.ts",
  // Guards against a hung test, not budgets: two cores run four browsers and four servers, and the
  // machine CI runs on is loaded besides.
  timeout: 120_000,
  expect: { timeout: 20_000 },
  fullyParallel: true,
  // Four at once on two cores: a test spends much of its time waiting (for a server to start, a
  // page to load, a form to post), and two workers left the cores idle about half the run.
  workers: 4,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  reporter: [["list"], ["json", { outputFile: `${resultsDir}/playwright.json` }]],
  use: { launchOptions, trace: "off" },
  projects: [
    { name: "no-js", use: { javaScriptEnabled: false } },
    // A spec named *.no-js.spec.ts proves something about the site without JavaScript (the desk's
    // walkthroughs, issue 38): it runs in the no-JS project alone.
    { name: "js", use: { javaScriptEnabled: true }, testIgnore: /\.no-js\.spec\.ts$/ },
  ],
});
