// Prints "LABEL: N passed, N failed" from the JSON reports Vitest and Playwright wrote in
// test-results/, and adds the counts to the running total kept in the file named by argv[3].
import fs from "node:fs";

const [label, totalFile] = process.argv.slice(2);
const read = (file) => (fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : null);
const vitest = read("test-results/vitest.json");
const playwright = read("test-results/playwright.json");
const passed = (vitest?.numPassedTests ?? 0) + (playwright?.stats?.expected ?? 0);
const failed = (vitest?.numFailedTests ?? 0) + (playwright?.stats?.unexpected ?? 0) + (playwright?.stats?.flaky ?? 0);
console.log(`${label}: ${passed} passed, ${failed} failed`);
if (totalFile) {
  const saved = fs.existsSync(totalFile) ? fs.readFileSync(totalFile, "utf8").trim() : "";
  const total = saved ? JSON.parse(saved) : { passed: 0, failed: 0 };
  fs.writeFileSync(totalFile, JSON.stringify({ passed: total.passed + passed, failed: total.failed + failed }));
}
