import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { invoiceNumber } from "~/server/billing/invoices";
import { MAIL_CLAIM_MS } from "~/server/billing/mail";
import { RENEWAL_WORKERS, renewalKey } from "~/server/billing/renewals";
import { connect, type Database } from "~/server/db/connection";
import { createSandboxProvider } from "~/server/payments/sandbox";
import { addMonths } from "~/server/subscriptions/entitlements";
import { seedDueSubscriptions } from "~/tests/helpers/due-subscriptions";
import { databaseEnv, dialectName, isolatedConnection, type IsolatedConnection } from "~/tests/helpers/test-db";

// The renewal run, as `npm run sandbox:clock` runs it in a process of its own, is killed with
// SIGKILL (no cleanup, a transaction cut off wherever it was) while it charges and again while it
// mails the receipts, then run again, twice at once. Whatever was cut off, each subscription is
// charged once, renewed once and invoiced once, invoice numbers have no gap, and every receipt is
// mailed: those a killed process had claimed go once its claims lapse. Only a receipt a process
// was killed sending, one per renewal worker at most, can go twice (ADR 066).

const SUBSCRIPTIONS = 600;
const DAY = 86_400;

let connection: IsolatedConnection;
let db: Database;
let ids: string[];
let dueAt: Date;
const running = new Set<ChildProcess>();

beforeEach(async () => {
  connection = await isolatedConnection("renewals-kill");
  db = connect(connection);
  dueAt = new Date(Math.floor(Date.now() / 1000) * 1000 + DAY * 1000);
  ids = await seedDueSubscriptions(db, { count: SUBSCRIPTIONS, dueAt });
  // Their day comes, by the sandbox's clock; the runs below renew as of it.
  await createSandboxProvider(db, { siteUrl: "http://127.0.0.1:9", webhookSecret: "unused" }).advanceClock(2 * DAY);
});

afterEach(async () => {
  for (const child of running) child.kill("SIGKILL");
  await db.destroy();
  await connection.drop();
});

/** `npm run sandbox:clock -- --advance 0m`: the renewals due by the sandbox's clock, as an operator runs them. */
function renewalRun(advance = "0m"): {
  child: ChildProcess;
  exit: Promise<{ code: number | null; signal: string | null; output: string }>;
} {
  // tsx's loader in this process, not its CLI: the CLI runs the script in a child of its own, which
  // a SIGKILL to the CLI does not reach.
  const child = spawn(process.execPath, ["--import", "tsx", "server/billing/clock-cli.ts", "--advance", advance], {
    env: {
      ...process.env,
      ...databaseEnv(connection),
      PAYMENT_PROVIDER: "sandbox",
      PAYMENT_WEBHOOK_SECRET: "renewals-kill-webhook-secret-0123456789abcdef",
      BILLING_RENEWALS: "on",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
  child.stderr!.on("data", (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
  const exit = new Promise<{ code: number | null; signal: string | null; output: string }>((resolve) =>
    child.once("exit", (code, signal) => {
      running.delete(child);
      resolve({ code, signal, output });
    }),
  );
  return { child, exit };
}

const charges = async () =>
  Number(
    (
      await db
        .selectFrom("sandbox_charge")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );
const receiptsStarted = async () =>
  Number(
    (
      await db
        .selectFrom("invoice")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("kind", "=", "renewal")
        .where((eb) => eb.or([eb("receipt_sent_at", "is not", null), eb("receipt_claimed_until", "is not", null)]))
        .executeTakeFirstOrThrow()
    ).n,
  );
const receiptsUnsent = async () => (await db.selectFrom("invoice").select("number").where("receipt_sent_at", "is", null).execute()).length;

/** Kills the run with SIGKILL as soon as `reached()` holds (polled from the database), or fails if it ended first. */
async function killWhen(run: ReturnType<typeof renewalRun>, reached: () => Promise<boolean>): Promise<void> {
  let ended = false;
  void run.exit.then(() => (ended = true));
  while (!(await reached())) {
    if (ended) throw new Error(`the run ended before it could be killed:\n${(await run.exit).output}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  run.child.kill("SIGKILL");
  expect((await run.exit).signal).toBe("SIGKILL");
}

async function completes(run: ReturnType<typeof renewalRun>): Promise<string> {
  const { code, output } = await run.exit;
  if (code !== 0) throw new Error(`the renewal run exited with ${code}:\n${output}`);
  return output;
}

/** Invoice numbers on the receipts in the outbox, one entry per mail. */
function receiptsMailed(): string[] {
  const outbox = path.join(connection.dataDir, "mail");
  if (!fs.existsSync(outbox)) return [];
  return fs.readdirSync(outbox).flatMap((file) => {
    const subject = /^Subject: Your Meridian Review receipt (MR-\d{6})$/m.exec(fs.readFileSync(path.join(outbox, file), "utf8"));
    return subject ? [subject[1]!] : [];
  });
}

/** Everything that must hold once the runs are over, whatever was cut off on the way. */
async function expectRenewedOnce(repeatedReceiptsAtMost: number): Promise<void> {
  const periodEnd = addMonths(dueAt, 1).toISOString();
  const subscriptions = await db.selectFrom("subscription").select(["id", "access_end", "billing_status"]).where("id", "in", ids).execute();
  // Moved on by exactly one interval.
  expect(subscriptions.filter((s) => s.access_end !== periodEnd || s.billing_status !== "active")).toEqual([]);

  // One charge per period's key, and no other.
  const keys = (await db.selectFrom("sandbox_charge").select(["idempotency_key", "status"]).execute()).map((c) => c.idempotency_key);
  expect(keys.sort()).toEqual(ids.map((id) => renewalKey(id, dueAt.toISOString())).sort());

  // One invoice per subscription, for that period, numbered without a gap.
  const invoices = await db
    .selectFrom("invoice")
    .select(["number", "subscription_id", "period_start", "period_end", "receipt_sent_at"])
    .where("kind", "=", "renewal")
    .orderBy("number")
    .execute();
  expect(invoices.map((i) => i.subscription_id).sort()).toEqual([...ids].sort());
  expect(invoices.filter((i) => i.period_start !== dueAt.toISOString() || i.period_end !== periodEnd)).toEqual([]);
  const all = (await db.selectFrom("invoice").select("number").orderBy("number").execute()).map((i) => i.number);
  expect(all).toEqual(Array.from({ length: all.length }, (_, k) => all[0]! + k));
  const { last_number } = await db
    .selectFrom("invoice_sequence")
    .select("last_number")
    .where("name", "=", "invoice")
    .executeTakeFirstOrThrow();
  expect(last_number).toBe(all.at(-1));

  // Every receipt mailed, and marked sent; only those in flight when a process was killed twice.
  expect(invoices.filter((i) => i.receipt_sent_at === null)).toEqual([]);
  const mailed = receiptsMailed();
  const numbers = invoices.map((i) => invoiceNumber(i.number));
  expect(numbers.filter((n) => !mailed.includes(n))).toEqual([]);
  expect(mailed.filter((n) => !numbers.includes(n))).toEqual([]);
  expect(mailed.length - new Set(mailed).size).toBeLessThanOrEqual(repeatedReceiptsAtMost);
}

describe(`a renewal run killed and run again (${dialectName})`, () => {
  it("charges, renews and invoices each subscription once, numbers the invoices without a gap, and mails every receipt", async () => {
    // Killed while it charges and renews.
    const first = renewalRun();
    await killWhen(first, async () => (await charges()) >= SUBSCRIPTIONS / 5);
    expect(await charges()).toBeLessThan(SUBSCRIPTIONS);

    // Run again: killed while it mails the receipts, having renewed the rest.
    const mailedBefore = await receiptsStarted();
    const second = renewalRun();
    await killWhen(second, async () => (await receiptsStarted()) >= mailedBefore + (SUBSCRIPTIONS - mailedBefore) / 3);
    expect(await receiptsStarted()).toBeLessThan(SUBSCRIPTIONS);

    // Then twice at once, to the end.
    const [a, b] = [renewalRun(), renewalRun()];
    const reports = await Promise.all([completes(a), completes(b)]);
    expect(reports.join("\n")).toMatch(/Renewals as of/);

    // What the killed runs had claimed waits for their claims to lapse, then the next run sends it.
    const held = await receiptsUnsent();
    expect(held).toBeLessThanOrEqual(2 * RENEWAL_WORKERS);
    await completes(renewalRun(`${MAIL_CLAIM_MS / 60_000 + 1}m`));
    await expectRenewedOnce(2 * RENEWAL_WORKERS);
    const mailed = receiptsMailed();
    console.log(
      `${SUBSCRIPTIONS} subscriptions, 2 SIGKILLs: ${await charges()} charges, ${mailed.length} receipts mailed ` +
        `(${held} held by a killed run's claim until it lapsed, ${mailed.length - new Set(mailed).size} sent twice)`,
    );
  }, 600_000);

  it("renews each subscription once when two processes run the renewals at the same time", async () => {
    const runs = [renewalRun(), renewalRun()];
    const reports = await Promise.all(runs.map(completes));
    await expectRenewedOnce(0);
    // What the two runs report, the operator's only view of them, adds up to what they did.
    const reported = (what: RegExp) => reports.reduce((sum, report) => sum + Number(what.exec(report)?.[1]), 0);
    expect(reported(/renewed (\d+) subscription/)).toBe(SUBSCRIPTIONS);
    expect(reported(/sent (\d+) receipt/)).toBe(SUBSCRIPTIONS);
  }, 600_000);
});
