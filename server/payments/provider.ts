/**
 * The payment provider behind subscription checkout (and, later, store orders): a hosted
 * checkout the reader is sent to, and a signed notice when a payment completes. Two
 * implementations: the built-in sandbox (server/payments/sandbox.ts) and Stripe Checkout
 * (server/payments/stripe.ts).
 */
export interface CheckoutRequest {
  /** Our id for the purchase (a subscription checkout id or an order id). */
  reference: string;
  /** What the reader sees on the provider's page, e.g. "Digital subscription, monthly". */
  description: string;
  amountCents: number;
  currency: "usd";
  customerEmail: string;
  /**
   * Absolute URL the provider sends the reader to after paying. The provider appends the
   * session id as the `session_id` query value.
   */
  successUrl: string;
  /** Absolute URL for a reader who gives up. */
  cancelUrl: string;
}

export interface CheckoutSession {
  /** The provider's id for this checkout session. */
  id: string;
  /** Where to send the reader's browser to pay. */
  url: string;
}

export interface CheckoutState {
  id: string;
  reference: string;
  paid: boolean;
}

/** A completed payment reported by the provider's signed callback (webhook). */
export interface PaymentCompleted {
  type: "checkout.completed";
  /** The provider's event id, for logging. */
  eventId: string;
  sessionId: string;
  reference: string;
  paid: boolean;
}

/** Any other event the provider sends, which we acknowledge and ignore. */
export interface OtherPaymentEvent {
  type: "other";
  eventId: string;
}

export type PaymentEvent = PaymentCompleted | OtherPaymentEvent;

/** The signature on a callback is missing, wrong or too old. */
export class WebhookSignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WebhookSignatureError";
  }
}

export interface PaymentProvider {
  readonly name: "sandbox" | "stripe";
  /**
   * Opens the hosted checkout for a reference: the same session however often it is asked for
   * the same reference (at once, or again after a crash), so that no purchase has two.
   */
  createCheckout(request: CheckoutRequest): Promise<CheckoutSession>;
  /** Asks the provider whether a session has been paid. */
  retrieveCheckout(sessionId: string): Promise<CheckoutState>;
  /**
   * Checks the callback's signature over the exact raw body and reads the event.
   * Throws WebhookSignatureError when the signature does not verify.
   */
  parseWebhook(rawBody: string, signatureHeader: string | null): PaymentEvent;
  /**
   * Closes a session so that it can no longer be paid (an order cancelled or abandoned). Says
   * "paid" when the payment completed first, else "closed" (also for a session already expired).
   */
  expireCheckout(sessionId: string): Promise<"closed" | "paid">;
}
