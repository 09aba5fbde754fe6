import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach } from "vitest";
import { createMailer } from "~/server/adapters/mail";
import type { BillingMail } from "~/server/billing/mail";
import type { Database } from "~/server/db/connection";
import { createSandboxProvider, type SandboxProvider } from "~/server/payments/sandbox";
import { seededTestDatabase } from "~/tests/helpers/test-db";

// A billing test's world, new for each test: a seeded database, the sandbox provider on it, and
// a mail outbox in a folder of its own.

export const SITE = "http://127.0.0.1:9";
export const NOVEMBER = new Date("2026-11-15T12:00:00Z");
export const DAY = 86_400;
/** A billing address where no sales tax is due: the figures of the tests that are not about tax. */
export const UNTAXED = { countryCode: "GB", region: null };

export interface SandboxBilling {
  db: Database;
  sandbox: SandboxProvider;
  mail: BillingMail;
  /** The mails sent so far, in the order they were written. */
  mails(): string[];
}

/** Registers the hooks that make each test's world; read it inside a test (or a helper a test calls). */
export function useSandboxBilling(options: { publisherAddress?: string[] } = {}): SandboxBilling {
  const world = {} as SandboxBilling;
  let close: () => Promise<void>;
  let outbox: string;
  beforeEach(async () => {
    ({ db: world.db, close } = await seededTestDatabase());
    world.sandbox = createSandboxProvider(world.db, { siteUrl: SITE, webhookSecret: "sandbox-webhook-secret-for-billing-tests" });
    outbox = fs.mkdtempSync(path.join(os.tmpdir(), "billing-mail-"));
    world.mail = {
      mailer: createMailer({ from: "Meridian Review <no-reply@meridian-review.example>", outbox }),
      siteUrl: SITE,
      publisher: { name: "Meridian Review Publishing", addressLines: options.publisherAddress ?? ["60 Harbor Street"], taxId: null },
    };
    world.mails = () =>
      fs
        .readdirSync(outbox)
        .sort()
        .map((f) => fs.readFileSync(path.join(outbox, f), "utf8"));
  });
  afterEach(async () => {
    await close();
    fs.rmSync(outbox, { recursive: true, force: true });
  });
  return world;
}
