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
  /**
   * Keep the card on file for charges made later, without the reader (a subscription's renewals,
   * an order's pre-orders charged on their dates: `savedCardCharges`).
   */
  saveCard?: boolean;
  /**
   * A plan the provider renews itself (Stripe Billing, ADR 067): the checkout starts a
   * subscription at this price every interval instead of taking one payment. Ignored by a
   * provider the site renews through (the sandbox).
   */
  recurring?: RecurringPrice;
  /** Save a card only, charging nothing (a subscriber changing the card their plan renews with, an order of pre-orders only). */
  setup?: boolean;
  /** The provider's customer the card is saved for (a subscription's); without it, a provider that needs one makes one. */
  customerId?: string;
  /**
   * Sales tax on `amountCents`, which the provider adds to it: the sandbox charges the sum; Stripe
   * applies the rate (a subscription's default tax rate, renewals included) and works the same
   * amount out itself.
   */
  tax?: { rate: SalesTaxRate; cents: number };
}

/** A sales tax rate as a provider keeps it: made once per key, and found again by it (ADR 070). */
export interface SalesTaxRate {
  /** Unique per place and percentage, e.g. "sales-tax:US:NY:400". */
  key: string;
  countryCode: string;
  /** The state it applies in; null for a country-wide rate (Canada's GST). */
  region: string | null;
  basisPoints: number;
  /** What the buyer sees beside the amount, e.g. "Sales tax". */
  displayName: string;
}

/** One plan's price as a provider that renews keeps it: found again by its key, created once. */
export interface RecurringPrice {
  /** Unique per plan and price, e.g. "plan:digital:1200": a new price makes a new key. */
  key: string;
  productName: string;
  interval: "month" | "year";
  /** Our plan's id, kept on the provider's subscription so that each of its invoices names the plan it bills. */
  planId: string;
}

/** A plan's recurring price with its amount: what a change of plan at the provider moves to. */
export interface PlanPrice extends RecurringPrice {
  amountCents: number;
}

/** The provider's subscription a checkout started, when the provider renews it. */
export interface ProviderSubscriptionRef {
  id: string;
  customerId: string;
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
  /**
   * The provider's customer the session keeps the card with, when it has one (Stripe: the one made
   * for an order's pre-orders, which the site deletes there once nothing awaits the card).
   */
  customerId?: string;
}

export interface CheckoutState {
  id: string;
  reference: string;
  paid: boolean;
  /** The card the checkout saved, when it was asked to save one. */
  card?: SavedCard | null;
  /** The subscription the checkout started, when the provider renews it. */
  subscription?: ProviderSubscriptionRef | null;
  /** The payment a paid session took, as a refund of it names it (RefundRequest.chargeId); absent when it took none. */
  paymentId?: string;
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
  subscription?: ProviderSubscriptionRef | null;
}

/** What every event about a subscription the provider renews carries. */
interface BillingEventBase {
  eventId: string;
  /** When the provider created the event: an event older than the last one applied changes no state. */
  created: Date;
  subscriptionId: string;
}

/** A paid invoice of a subscription the provider renews. */
export interface PaidInvoice {
  invoiceId: string;
  /**
   * What it bills: the first period (recorded with the checkout), a renewal, or a change of plan
   * made at once (the unused part of the period credited, the new plan charged).
   */
  kind: "first" | "renewal" | "change" | "other";
  amountCents: number;
  taxCents: number;
  /** From the period's start, or the moment a change was prorated from, to the end of the period it pays for. */
  periodStart: Date;
  periodEnd: Date;
  /** The plan the subscription is on as the invoice bills it (from its metadata); null when it names none. */
  planId: string | null;
}

/** An invoice of the subscription paid (its first one, a renewal, or a change of plan). */
export interface InvoicePaid extends BillingEventBase, PaidInvoice {
  type: "invoice.paid";
}

/** A payment for an invoice of the subscription failed (each attempt sends one). */
export interface InvoicePaymentFailed extends BillingEventBase {
  type: "invoice.payment_failed";
  invoiceId: string;
  /** False for an invoice other than a renewal's (a change of plan refused by the card, which changed nothing). */
  renewal: boolean;
  attempt: number;
  /** The end of the period the invoice is for: a failure for a period already paid is stale. */
  periodEnd: Date;
  /** When the provider tries again; null after its last try. */
  nextAttempt: Date | null;
}

/** The subscription changed: cancelled at period end, taken back, or its status moved. */
export interface SubscriptionUpdated extends BillingEventBase {
  type: "subscription.updated";
  cancelAtPeriodEnd: boolean;
  status: "active" | "past_due" | "ended" | "other";
}

/** The subscription ended (cancelled at its period's end, or after its payment retries failed). */
export interface SubscriptionDeleted extends BillingEventBase {
  type: "subscription.deleted";
  endedAt: Date;
}

export type BillingEvent = InvoicePaid | InvoicePaymentFailed | SubscriptionUpdated | SubscriptionDeleted;

/** Any other event the provider sends, which we acknowledge and ignore. */
export interface OtherPaymentEvent {
  type: "other";
  eventId: string;
}

/**
 * The provider has refunded (some of) a payment (Stripe's `charge.refunded`): it confirms the
 * refunds asked of it for that payment, up to `amountRefundedCents` in all.
 */
export interface PaymentRefunded {
  type: "payment.refunded";
  eventId: string;
  /** The provider's payment, as RefundOutcome.paymentId named it. */
  paymentId: string;
  /** Everything refunded of the payment so far. */
  amountRefundedCents: number;
}

export type PaymentEvent = PaymentCompleted | BillingEvent | PaymentRefunded | OtherPaymentEvent;

/** The signature on a callback is missing, wrong or too old. */
export class WebhookSignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WebhookSignatureError";
  }
}

/** A charge to a saved card, made without the reader (a renewal at the sandbox). */
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

/** What a provider the site runs subscription renewals through offers (the sandbox). */
export interface RecurringBilling {
  /** The provider's time: the sandbox's clock can be moved ahead of the real one, like Stripe's test clocks. */
  now(real: Date): Promise<Date>;
  charge(request: OffSessionCharge): Promise<ChargeOutcome>;
}

/** A charge, made later and without the buyer, to the card an order's checkout saved (a pre-order on its date, ADR 092). */
export interface SavedCardCharge {
  /** The checkout session that saved the card. */
  sessionId: string;
  amountCents: number;
  /** What the provider's records of the payment say it is for. */
  description: string;
  /** The same key never charges twice: asked again, the provider answers the first charge's outcome. */
  idempotencyKey: string;
}

/** A saved card's charge: taken (its payment, which refunds name), or refused by the card or its bank. */
export type SavedCardOutcome = { status: "succeeded"; paymentId: string } | { status: "declined" };

/** What a provider that charges the card an order's checkout saved, later and on the site's schedule, offers (both do). */
export interface SavedCardCharges {
  /** Throws when the provider cannot be reached or refuses the request itself; a declined card is an outcome. */
  charge(request: SavedCardCharge): Promise<SavedCardOutcome>;
}

/** A span of time, e.g. a subscription's current billing period. */
export interface Period {
  start: Date;
  end: Date;
}

/** A subscription as the provider bills it now: its one item, that item's current period, and a change set for the renewal. */
export interface ProviderPlan {
  itemId: string;
  period: Period;
  /** The schedule that moves it to another plan at the renewal (a downgrade); null when none is set. */
  scheduleId: string | null;
}

/** Moves a subscription to another plan at once (an upgrade). */
export interface PlanChangeNow {
  subscriptionId: string;
  /** The subscription as retrievePlan answered: the item whose price changes, and a schedule to take back first. */
  current: ProviderPlan;
  to: PlanPrice;
  /** The moment the change is prorated as of (the quote's): its figures are the quote's. */
  prorationDate: Date;
  /** A plan of another interval (monthly to yearly): a new period starts now, charged in full less the unused part of this one. */
  newPeriod: boolean;
  /** Derived from the subscription and the quote: the same confirmation sent twice is one change and one charge. */
  idempotencyKey: string;
}

export type PlanChangeNowOutcome = { status: "paid"; invoice: PaidInvoice } | { status: "declined" };

/** Sets the plan a subscription renews at (a downgrade), charging nothing now. */
export interface PlanChangeAtRenewal {
  subscriptionId: string;
  current: ProviderPlan;
  from: PlanPrice;
  to: PlanPrice;
  idempotencyKey: string;
}

/** What a provider that renews subscriptions itself offers (Stripe Billing). */
export interface ProviderSubscriptions {
  /**
   * Cancels at the end of the paid period (true) or takes that back (false). The key makes a
   * retried call one change; setting the same value twice is harmless. Cancelling takes back a
   * plan set for the renewal first.
   */
  setCancelAtPeriodEnd(subscriptionId: string, cancel: boolean, idempotencyKey: string): Promise<void>;
  /** Ends the subscription now, charging nothing more (a plan replaced by another the reader bought). */
  cancelNow(subscriptionId: string): Promise<void>;
  /** Makes the card a setup checkout saved the one the subscription's renewals charge. */
  setDefaultPaymentMethod(subscriptionId: string, paymentMethodId: string, idempotencyKey: string): Promise<void>;
  /**
   * Tries the subscription's unpaid invoice again now, with its default card (a past-due plan
   * whose card was just changed): "none" when nothing is unpaid. The outcome also comes as events.
   */
  payOverdue(subscriptionId: string, idempotencyKey: string): Promise<"paid" | "declined" | "none">;
  /** The subscription's item, current period and any change set for the renewal, as the provider bills it now. */
  retrievePlan(subscriptionId: string): Promise<ProviderPlan>;
  /**
   * Changes the plan now: the unused part of the period is credited and the new plan charged for
   * the rest of it (or for a whole new period), prorated as of `prorationDate`, in one invoice
   * paid at once with the card on file. "declined": the card refused it, and nothing changed.
   */
  changePlanNow(change: PlanChangeNow): Promise<PlanChangeNowOutcome>;
  /** The next period renews at the other plan; this one runs to its end unchanged, and nothing is charged now. */
  changePlanAtRenewal(change: PlanChangeAtRenewal): Promise<void>;
  /** Takes back a plan set for the renewal: the subscription renews as it is. Nothing happens when none is set. */
  keepPlan(subscriptionId: string): Promise<void>;
  /** The sales tax rate the subscription's later invoices add (null: none), after a change of billing address. */
  setTaxRate(subscriptionId: string, rate: SalesTaxRate | null, idempotencyKey: string): Promise<void>;
}

/**
 * What a provider that keeps customers of its own offers (Stripe: a plan's, and an order's that
 * saves a card for its pre-orders), so the site can have them forgotten there (ADR 089, 092).
 */
export interface ProviderCustomers {
  /**
   * Deletes the customer with the e-mail and saved cards the provider keeps for it; one deleted
   * already, or unknown to the provider, counts as deleted. Idempotent at the provider, so a call
   * tried again after a failure asks again safely. Throws when the provider cannot be reached.
   */
  delete(customerId: string): Promise<void>;
}

/** Gives back some or all of what a checkout session took (ADR 086). */
export interface RefundRequest {
  /** The checkout session the payment was made through. */
  sessionId: string;
  /**
   * Refunds this payment instead of the session's: a pre-order's own, charged on its date to the
   * card the session saved or paid by the buyer afterwards (ADR 092).
   */
  chargeId?: string;
  amountCents: number;
  /** The same key never refunds twice: asked again, the provider answers the first refund. */
  idempotencyKey: string;
  /** Our refund's id, kept with the provider's refund. */
  reference: string;
}

export interface RefundOutcome {
  /** The provider's refund id. */
  id: string;
  /** The provider's payment it refunds, which its refund events name. */
  paymentId: string;
  /**
   * "succeeded": the money is on its way back (the sandbox, at once); "pending": asked, and the
   * provider's event confirms it (Stripe); "failed": refused, nothing moved.
   */
  status: "succeeded" | "pending" | "failed";
}

export interface PaymentProvider {
  readonly name: "sandbox" | "stripe";
  /** Present when the site runs the renewals itself through this provider. */
  readonly billing?: RecurringBilling;
  /** Present when the provider runs the renewals (Stripe Billing), and the site follows its events. */
  readonly subscriptions?: ProviderSubscriptions;
  /** Present when the card an order's checkout saves can be charged later: pre-orders then wait for their dates (ADR 092). */
  readonly savedCardCharges?: SavedCardCharges;
  /** Present when the provider keeps customers of its own, which the site deletes there once they are no longer needed. */
  readonly customers?: ProviderCustomers;
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
  /** Refunds part or all of a paid session. Throws when the provider cannot be reached or refuses the request. */
  refund(request: RefundRequest): Promise<RefundOutcome>;
}
