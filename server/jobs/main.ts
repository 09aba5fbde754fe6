// The scheduled jobs' process (compiled to build/jobs.js): the production server's primary starts
// it beside the processes that serve pages (server/http/jobs-process.ts), at the lowest CPU
// priority, so that a renewal day's charges, invoices and receipts use only the CPU that pages
// leave (ADR 069). It is never started by hand.
import os from "node:os";
import { mailer, setMailJournal } from "~/server/adapters/mail";
import { logMail } from "~/server/adapters/mail-log";
import { billingMail } from "~/server/billing/mail";
import { describeRenewals, renewsThroughSite, runRenewals } from "~/server/billing/renewals";
import { serverConfig } from "~/server/config";
import { openDatabase } from "~/server/db";
import type { Database } from "~/server/db/connection";
import { describeHousekeeping, runHousekeeping } from "~/server/housekeeping";
import { log } from "~/server/log";
import { paymentProvider } from "~/server/payments";
import { secrets } from "~/server/secrets";
import { publishDueArticles } from "~/server/desk/articles";
import { describeDueRun, sendDueIssues } from "~/server/newsletters/delivery";
import { describePreorders, runPreorders } from "~/server/store/preorders";
import { FIRST_RUN_MS, JOBS_TITLE, NEWSLETTERS_EVERY_MS, PUBLISH_EVERY_MS, RUN_EVERY_MS } from "./schedule";

const config = serverConfig();
os.setPriority(config.JOBS_NICENESS);
process.title = JOBS_TITLE;

let db: Database | undefined;
let running: Promise<void> | undefined;
let publishing: Promise<void> | undefined;
let mailing: Promise<void> | undefined;
let stopping = false;

/** The database, opened at the first step that needs it; one that cannot be opened now is tried again at the next. */
let opening: Promise<Database> | undefined;
async function database(): Promise<Database> {
  opening ??= openDatabase({
    databaseUrl: config.DATABASE_URL,
    schema: config.DATABASE_SCHEMA,
    dataDir: config.dataDir,
    backendsSharePriority: true,
  })
    .then((opened) => {
      setMailJournal((sent) => logMail(opened, sent));
      return opened;
    })
    .catch((error: unknown) => {
      opening = undefined;
      throw error;
    });
  return (db = await opening);
}

/**
 * One round: the housekeeping (server/housekeeping.ts), the pre-orders whose date came (charged,
 * released and mailed, ADR 092), then, when BILLING_RENEWALS is on and the provider is one the
 * site renews through, the renewals that fell due. Every step is conditional
 * or keyed, so other instances' jobs running at the same moment cannot make it happen twice. A
 * database that cannot be opened now is tried again at the next round.
 */
async function runRound(): Promise<void> {
  try {
    const db = await database();
    const provider = await paymentProvider(db, config, secrets().paymentWebhookSecret);
    log.info(describeHousekeeping(await runHousekeeping(db, provider)));
    log.info(describePreorders(await runPreorders(db, provider, billingMail(config, mailer()), new Date())));
    if (renewsThroughSite(provider, config))
      log.info(
        describeRenewals(await runRenewals(db, provider.billing, billingMail(config, mailer()), new Date(), config.BILLING_GRACE_DAYS)),
      );
  } catch (error) {
    log.error("Scheduled jobs failed; the next round tries again", { error });
  }
}

function round(): void {
  if (running || stopping) return;
  running = runRound().finally(() => (running = undefined));
}

/**
 * Publishes the scheduled articles whose time has come. Every instance's jobs run it; each
 * article is published once all the same (a conditional update on its state, ADR 076).
 */
function publishTick(): void {
  if (publishing || stopping) return;
  publishing = (async () => {
    try {
      const { published } = await publishDueArticles(await database(), new Date());
      if (published.length > 0) log.info(`Published ${published.length} scheduled article(s): ${published.join(", ")}`);
    } catch (error) {
      log.error("Publishing scheduled articles failed; the next tick tries again", { error });
    }
  })().finally(() => (publishing = undefined));
}

/**
 * Sends the newsletter issues whose time has come, and what is left of those being sent. Every
 * instance's jobs run it; each reader gets an issue once all the same (delivery rows claimed in
 * batches, ADR 084). A stop hands the batch in hand back between two mails.
 */
function newslettersTick(): void {
  if (mailing || stopping) return;
  mailing = (async () => {
    try {
      const run = await sendDueIssues(await database(), mailer(), {
        siteUrl: config.siteUrl,
        secret: secrets().sessionSecret,
        stopping: () => stopping,
        log: (line) => log.warn(line),
      });
      const line = describeDueRun(run);
      if (line) log.info(line);
    } catch (error) {
      log.error("Sending newsletter issues failed; the next tick tries again", { error });
    }
  })().finally(() => (mailing = undefined));
}

/** Lets the round in progress finish (each of its steps is safe to stop anywhere, but a receipt half-sent is better sent), then exits. */
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  clearInterval(timer);
  clearTimeout(first);
  clearInterval(publishTimer);
  clearInterval(newslettersTimer);
  const grace = setTimeout(() => process.exit(0), config.SHUTDOWN_GRACE_SECONDS * 1000);
  grace.unref();
  await Promise.all([running, publishing, mailing]);
  await db?.destroy().catch(() => {});
  process.exit(0);
}

const first = setTimeout(round, FIRST_RUN_MS);
const timer = setInterval(round, RUN_EVERY_MS);
const publishTimer = setInterval(publishTick, PUBLISH_EVERY_MS);
const newslettersTimer = setInterval(newslettersTick, NEWSLETTERS_EVERY_MS);
publishTick();
newslettersTick();
for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => void stop());
// The server that started it has gone (even by SIGKILL, even before this process had loaded): so does it.
process.on("disconnect", () => void stop());
if (!process.connected) void stop();
