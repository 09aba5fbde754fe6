import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { chromiumLaunchOptions } from "./e2e/browser";

const port = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://127.0.0.1:${port}`;
// A fresh database for each run: an SQLite folder, or a PostgreSQL schema when DATABASE_URL is set.
// Kept in the environment, which the test workers inherit, so they can read the server's mail outbox.
process.env.E2E_DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), "e2e-"));
const dataDir = process.env.E2E_DATA_DIR;
if (process.env.DATABASE_URL) process.env.E2E_SCHEMA ??= `e2e_${crypto.randomBytes(4).toString("hex")}`;
const schema = process.env.E2E_SCHEMA;
const launchOptions = await chromiumLaunchOptions();

export default defineConfig({
  testDir: "e2e",
  // Playwright empties its output folder at start; a folder of its own keeps Vitest's report.
  outputDir: "test-results/e2e",
  // Two cores run two browsers and the server: pages that run axe several times need the room.
  timeout: 60_000,
  fullyParallel: true,
  workers: 2,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  reporter: [["list"], ["json", { outputFile: "test-results/playwright.json" }]],
  use: { baseURL, launchOptions, trace: "off" },
  projects: [
    { name: "no-js", use: { javaScriptEnabled: false } },
    { name: "js", use: { javaScriptEnabled: true } },
  ],
  webServer: {
    command: "node build/server.js",
    url: `${baseURL}/robots.txt`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      SITE_URL: baseURL,
      DATA_DIR: dataDir,
      // Every test signs in from 127.0.0.1; the limits themselves are tested in tests/integration.
      RATE_LIMIT_PER_IP: "100000",
      RATE_LIMIT_PER_ACCOUNT: "1000",
      // Every browser reads from 127.0.0.1; the address ceiling is tested in tests/integration.
      METER_ADDRESS_CEILING: "0",
      // Cheaper password hashing for the many test accounts (production default: 2^17).
      PASSWORD_SCRYPT_LOG2N: "14",
      // The store's daily maintenance window would close checkout whenever the suite runs in it.
      STORE_MAINTENANCE_WINDOW: "off",
      ...(schema ? { DATABASE_SCHEMA: schema } : {}),
    },
  },
});
