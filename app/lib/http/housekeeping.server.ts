import { describeHousekeeping, runHousekeeping } from "~/server/housekeeping";
import { config, db } from "~/app/lib/context/db.server";
import { mailer } from "~/server/adapters/mail";
import { billingMail } from "~/server/billing/mail";
import { describeRenewals, renewsThroughSite, runRenewals } from "~/server/billing/renewals";
import { payments } from "~/app/lib/store/payments.server";
import { log } from "~/server/log";

const EVERY_MS = 15 * 60 * 1000;
let timer: ReturnType<typeof setInterval> | undefined;

/**
 * A minute after start and then every 15 minutes, this process runs the housekeeping in
 * server/housekeeping.ts (abandoned orders, expired sessions, tokens, old meter reads, ended
 * rate-limit windows, idle guest carts), then, when BILLING_RENEWALS is on, the renewals that fell due when the provider is
 * one the site renews through (server/billing/renewals.ts), and logs what it did. Each instance
 * behind a load balancer runs it; its steps are conditional, so they cannot trip over each other.
 */
export function startHousekeeping(): void {
  if (timer) return;
  const run = async () => {
    try {
      const provider = await payments();
      log.info(describeHousekeeping(await runHousekeeping(await db(), provider)));
      if (renewsThroughSite(provider, config()))
        log.info(
          describeRenewals(
            await runRenewals(await db(), provider.billing, billingMail(config(), mailer()), new Date(), config().BILLING_GRACE_DAYS),
          ),
        );
    } catch (error) {
      log.error("Housekeeping failed; the next run tries again", { error });
    }
  };
  timer = setInterval(run, EVERY_MS);
  timer.unref();
  setTimeout(run, 60_000).unref();
}
