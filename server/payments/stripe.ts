import Stripe from "stripe";
import {
  WebhookSignatureError,
  type CheckoutRequest,
  type CheckoutSession,
  type CheckoutState,
  type PaymentEvent,
  type PaymentProvider,
} from "./provider";

export interface StripeOptions {
  secretKey: string;
  webhookSecret: string;
  /** Base URL of the API, e.g. "http://127.0.0.1:4321"; Stripe's own API when absent. */
  apiUrl?: string;
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 20_000;

/** Stripe Checkout (hosted payment page) behind our PaymentProvider interface. */
export function createStripeProvider(options: StripeOptions): PaymentProvider {
  if (!options.secretKey.trim()) throw new Error("Stripe: secretKey is required");
  if (!options.webhookSecret.trim()) throw new Error("Stripe: webhookSecret is required");

  const stripe = new Stripe(options.secretKey, {
    ...endpoint(options.apiUrl),
    timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxNetworkRetries: 0,
  });

  return {
    name: "stripe",

    async createCheckout(request: CheckoutRequest): Promise<CheckoutSession> {
      const session = await call("create checkout session", () =>
        stripe.checkout.sessions.create(
          {
            mode: "payment",
            line_items: [
              {
                price_data: {
                  currency: request.currency,
                  unit_amount: request.amountCents,
                  product_data: { name: request.description },
                },
                quantity: 1,
              },
            ],
            customer_email: request.customerEmail,
            client_reference_id: request.reference,
            metadata: { reference: request.reference },
            success_url: withSessionIdPlaceholder(request.successUrl),
            cancel_url: request.cancelUrl,
          },
          // Stripe replays the first answer for a repeated key, so a retried create
          // returns the same session instead of opening a second one.
          { idempotencyKey: `checkout-session:${request.reference}` },
        ),
      );
      if (!session.url) throw new Error(`Stripe: checkout session ${session.id} has no URL`);
      return { id: session.id, url: session.url };
    },

    async retrieveCheckout(sessionId: string): Promise<CheckoutState> {
      // An empty id would turn the request into a GET of the session list.
      if (!sessionId) throw new Error("Stripe: checkout session id is required");
      const session = await call("retrieve checkout session", () => stripe.checkout.sessions.retrieve(sessionId));
      return { id: session.id, reference: referenceOf(session), paid: isPaid(session) };
    },

    async expireCheckout(sessionId: string): Promise<"closed" | "paid"> {
      if (!sessionId) throw new Error("Stripe: checkout session id is required");
      try {
        await stripe.checkout.sessions.expire(sessionId);
        return "closed";
      } catch (error) {
        // Stripe expires only open sessions; one already complete or expired answers 400.
        const notOpen = error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 400;
        if (!notOpen) throw restated("expire checkout session", error);
      }
      const session = await call("retrieve checkout session", () => stripe.checkout.sessions.retrieve(sessionId));
      return isPaid(session) ? "paid" : "closed";
    },

    parseWebhook(rawBody: string, signatureHeader: string | null): PaymentEvent {
      if (!signatureHeader) throw new WebhookSignatureError("missing Stripe-Signature header");
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signatureHeader, options.webhookSecret);
      } catch (error) {
        if (error instanceof Stripe.errors.StripeSignatureVerificationError) {
          // Stripe's messages run to several lines of advice; the first sentence says what failed.
          throw new WebhookSignatureError(`Stripe signature rejected: ${error.message.split(/[.\n]/)[0]}`);
        }
        throw error;
      }

      switch (event.type) {
        case "checkout.session.completed":
        case "checkout.session.async_payment_succeeded": {
          const session = event.data.object;
          return {
            type: "checkout.completed",
            eventId: event.id,
            sessionId: session.id,
            reference: referenceOf(session),
            paid: isPaid(session),
          };
        }
        default:
          return { type: "other", eventId: event.id };
      }
    },
  };
}

function endpoint(apiUrl: string | undefined): Pick<Stripe.StripeConfig, "host" | "port" | "protocol"> {
  if (!apiUrl) return {};
  const url = new URL(apiUrl);
  const protocol = url.protocol === "http:" ? "http" : "https";
  return { host: url.hostname, port: url.port || (protocol === "http" ? 80 : 443), protocol };
}

/**
 * Appends `session_id={CHECKOUT_SESSION_ID}` to the query. Stripe replaces the literal
 * placeholder itself, so it is added as text rather than through URLSearchParams (which
 * would percent-encode the braces and Stripe would no longer recognise it).
 */
function withSessionIdPlaceholder(successUrl: string): string {
  const hashAt = successUrl.indexOf("#");
  const base = hashAt === -1 ? successUrl : successUrl.slice(0, hashAt);
  const hash = hashAt === -1 ? "" : successUrl.slice(hashAt);
  const separator = !base.includes("?") ? "?" : base.endsWith("?") || base.endsWith("&") ? "" : "&";
  return `${base}${separator}session_id={CHECKOUT_SESSION_ID}${hash}`;
}

function isPaid(session: Stripe.Checkout.Session): boolean {
  return session.status === "complete" && (session.payment_status === "paid" || session.payment_status === "no_payment_required");
}

function referenceOf(session: Stripe.Checkout.Session): string {
  return session.client_reference_id ?? session.metadata?.reference ?? "";
}

/** Runs a Stripe API call, restating its failure with the operation and the HTTP status. */
async function call<T>(operation: string, request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    throw restated(operation, error);
  }
}

function restated(operation: string, error: unknown): unknown {
  if (!(error instanceof Stripe.errors.StripeError)) return error;
  // Connection failures and unreadable answers carry no status; their type says which it was.
  const status = error.statusCode ? `status ${error.statusCode}` : error.type;
  return new Error(`Stripe: ${operation} failed (${status}): ${error.message}`, { cause: error });
}
