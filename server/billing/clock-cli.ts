// npm run sandbox:clock -- --advance 31d
// Moves the sandbox payment provider's clock on (like Stripe's test clocks) and runs the
// renewals that fell due by its new time, printing what it did. Only with PAYMENT_PROVIDER=sandbox
// and BILLING_RENEWALS=on.
import { mailer } from "~/server/adapters/mail";
import { config } from "~/server/config";
import { openDatabase } from "~/server/db";
import { sandboxProvider } from "~/server/payments";
import { secrets } from "~/server/secrets";
import { billingMail } from "./mail";
import { describeRenewals, runRenewals } from "./renewals";

const UNIT_SECONDS: Record<string, number> = { d: 86_400, h: 3_600, m: 60 };
const USAGE = "usage: npm run sandbox:clock -- --advance <n>d|<n>h|<n>m   (for example --advance 31d)";

/** Seconds in "31d", "12h" or "90m"; undefined for anything else. */
export function advanceSeconds(argv: string[]): number | undefined {
  const flag = argv.indexOf("--advance");
  const match = flag >= 0 ? /^(\d{1,5})([dhm])$/.exec(argv[flag + 1] ?? "") : null;
  return match ? Number(match[1]) * UNIT_SECONDS[match[2]!]! : undefined;
}

async function main() {
  const c = config();
  if (c.PAYMENT_PROVIDER !== "sandbox")
    throw new Error(`The sandbox clock can only be moved when PAYMENT_PROVIDER=sandbox (it is ${c.PAYMENT_PROVIDER}).`);
  if (c.BILLING_RENEWALS !== "on")
    throw new Error("Renewals are off: set BILLING_RENEWALS=on to move the sandbox clock and renew what falls due.");
  const seconds = advanceSeconds(process.argv.slice(2));
  if (seconds === undefined) throw new Error(USAGE);
  const db = await openDatabase({ databaseUrl: c.DATABASE_URL, schema: c.DATABASE_SCHEMA, dataDir: c.dataDir });
  try {
    const sandbox = sandboxProvider(db, c, secrets().paymentWebhookSecret);
    const offset = await sandbox.advanceClock(seconds);
    console.log(`Sandbox clock moved on by ${seconds / 86_400} day(s); it is now ${offset / 86_400} day(s) ahead of real time.`);
    console.log(describeRenewals(await runRenewals(db, sandbox.billing, billingMail(c, mailer()), new Date(), c.BILLING_GRACE_DAYS)));
  } finally {
    await db.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
