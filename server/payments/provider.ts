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
  /** Keep the card on file for charges made later, without the reader (a subscription's renewals). */
  saveCard?: boolean;
  /**
   * Only save a card, charging nothing (amountCents is 0): a subscriber changing the card on
   * file. Stripe: a Checkout session in setup mode.
   */
  setup?: boolean;
}

/** A card the provider keeps on file: its id at the provider, and what the reader sees of it. */
export interface SavedCard {
  id: string;
  brand: string;
  last4: string;
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
  /** The card the checkout saved, when it was asked to save one. */
  card?: SavedCard | null;
}

/** A completed payment reported by the provider's signed callback (webhook). */
export interface PaymentCompleted {
  type: "checkout.completed";
  /** The provider's event id, for logging. */
  eventId: string;
  sessionId: string;
  reference: string;
  paid: boolean;
  card?: SavedCard | null;
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

/** A charge to a saved card, made without the reader (a renewal). */
export interface OffSessionCharge {
  cardId: string;
  amountCents: number;
  /** The same key never charges twice: asked again, the provider answers the first charge's outcome. */
  idempotencyKey: string;
}

export interface ChargeOutcome {
  id: string;
  status: "succeeded" | "declined";
}

/** What a provider that charges saved cards on the site's schedule offers (the sandbox, for now). */
export interface RecurringBilling {
  /** The provider's time: the sandbox's clock can be moved ahead of the real one, like Stripe's test clocks. */
  now(real: Date): Promise<Date>;
  charge(request: OffSessionCharge): Promise<ChargeOutcome>;
}

export interface PaymentProvider {
  readonly name: "sandbox" | "stripe";
  /** Present when the site runs the renewals itself through this provider. */
  readonly billing?: RecurringBilling;
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
