import type { ProviderOfRecord } from "./erase";

// Stripe's customers of a reader who deletes their account (ADR 089): deleted at Stripe, which
// takes the e-mail and saved cards it keeps with them. The SDK is loaded only here, when the site
// runs on Stripe (it costs a process a fifth of a second to load).

export interface StripeCustomerOptions {
  secretKey: string;
  /** Base URL of the API (the loopback fake's in tests); Stripe's own when absent. */
  apiUrl?: string;
}

/** Deletes a customer at Stripe; one unknown to Stripe (deleted before) counts as deleted. */
export async function stripeCustomers(options: StripeCustomerOptions): Promise<Pick<ProviderOfRecord, "deleteCustomer">> {
  const { default: Stripe } = await import("stripe");
  const url = options.apiUrl ? new URL(options.apiUrl) : undefined;
  const protocol = url?.protocol === "http:" ? "http" : "https";
  const stripe = new Stripe(options.secretKey, {
    ...(url ? { host: url.hostname, port: url.port || (protocol === "http" ? 80 : 443), protocol } : {}),
    timeout: 20_000,
    maxNetworkRetries: 0,
    apiVersion: Stripe.API_VERSION,
  });
  return {
    // A DELETE, which Stripe takes no idempotency key for: asked again, it answers the same.
    async deleteCustomer(customerId) {
      try {
        await stripe.customers.del(customerId);
      } catch (error) {
        if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) return;
        throw new Error(`Stripe: delete customer failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      }
    },
  };
}
