// Prints "DATABASE: N passed, N failed" for each database's run, from the JSON reports Vitest and
// Playwright wrote in test-results/<database>/ (tests/run-suite.mjs), and then the total.
import fs from "node:fs";
import path from "node:path";

const read = (file) => (fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : null);
const total = { passed: 0, failed: 0 };
const runs = fs.existsSync("test-results") ? fs.readdirSync("test-results").sort() : [];
for (const run of runs) {
  const vitest = read(path.join("test-results", run, "vitest.json"));
  const playwright = read(path.join("test-results", run, "playwright.json"));
  if (!vitest && !playwright) continue;
  const passed = (vitest?.numPassedTests ?? 0) + (playwright?.stats?.expected ?? 0);
  const failed = (vitest?.numFailedTests ?? 0) + (playwright?.stats?.unexpected ?? 0) + (playwright?.stats?.flaky ?? 0);
  console.log(`${run}: ${passed} passed, ${failed} failed`);
  total.passed += passed;
  total.failed += failed;
}
console.log(`total: ${total.passed} passed, ${total.failed} failed`);
