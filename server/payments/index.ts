import type { Config } from "~/server/config";
import type { Database } from "~/server/db/connection";
import type { PaymentProvider } from "./provider";
import { createSandboxProvider, type SandboxProvider } from "./sandbox";

let stripe: PaymentProvider | undefined;
const sandboxes = new WeakMap<Database, SandboxProvider>();

/**
 * The configured payment provider: the sandbox (default) or Stripe Checkout. Stripe's SDK is
 * loaded only when it is configured: it costs every process a fifth of a second of CPU to start.
 */
export async function paymentProvider(db: Database, config: Config, webhookSecret: string): Promise<PaymentProvider> {
  if (config.PAYMENT_PROVIDER === "stripe") {
    const { createStripeProvider } = await import("./stripe");
    stripe ??= createStripeProvider({
      secretKey: config.STRIPE_SECRET_KEY!,
      webhookSecret: config.STRIPE_WEBHOOK_SECRET!,
      apiUrl: config.STRIPE_API_URL,
    });
    return stripe;
  }
  return sandboxProvider(db, config, webhookSecret);
}

export function sandboxProvider(db: Database, config: Config, webhookSecret: string): SandboxProvider {
  let sandbox = sandboxes.get(db);
  if (!sandbox) sandboxes.set(db, (sandbox = createSandboxProvider(db, { siteUrl: config.siteUrl, webhookSecret })));
  return sandbox;
}
