import Stripe from "stripe";
import {
  WebhookSignatureError,
  type BillingEvent,
  type CheckoutRequest,
  type CheckoutSession,
  type CheckoutState,
  type PaidInvoice,
  type PaymentEvent,
  type PaymentProvider,
  type PlanPrice,
  type ProviderPlan,
  type ProviderSubscriptionRef,
  type RecurringPrice,
  type RefundOutcome,
  type RefundRequest,
  type SalesTaxRate,
  type SavedCard,
} from "./provider";

export interface StripeOptions {
  secretKey: string;
  webhookSecret: string;
  /** Base URL of the API, e.g. "http://127.0.0.1:4321"; Stripe's own API when absent. */
  apiUrl?: string;
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 20_000;

/** The metadata key a sales tax rate is found again by. */
const TAX_RATE_KEY = "meridian_key";

/**
 * The API version every request names and every webhook endpoint must send: the one the
 * installed `stripe` package's types describe (a subscription's period is on its items, an
 * invoice's subscription under `parent.subscription_details`).
 */
export const STRIPE_API_VERSION = Stripe.API_VERSION;

/**
 * Stripe Checkout (hosted payment page), Stripe Billing (subscriptions Stripe renews, whose
 * events the site follows; ADR 067) and off-session PaymentIntents charging the card an order's
 * Checkout saved (pre-orders on their dates, ADR 092), and the deletion of the customers these
 * keep the reader's e-mail and cards with (ADR 089), behind our PaymentProvider interface.
 */
export function createStripeProvider(options: StripeOptions): PaymentProvider {
  if (!options.secretKey.trim()) throw new Error("Stripe: secretKey is required");
  if (!options.webhookSecret.trim()) throw new Error("Stripe: webhookSecret is required");

  const stripe = new Stripe(options.secretKey, {
    ...endpoint(options.apiUrl),
    timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxNetworkRetries: 0,
    apiVersion: STRIPE_API_VERSION,
  });

  /** The plan's recurring Price, found by its lookup key or created once (the key makes two creates one). */
  async function recurringPrice(recurring: RecurringPrice, amountCents: number, currency: string): Promise<string> {
    const found = await call("find price", () => stripe.prices.list({ lookup_keys: [recurring.key], active: true, limit: 1 }));
    if (found.data[0]) return found.data[0].id;
    const created = await call("create price", () =>
      stripe.prices.create(
        {
          currency,
          unit_amount: amountCents,
          recurring: { interval: recurring.interval },
          lookup_key: recurring.key,
          product_data: { name: recurring.productName },
        },
        { idempotencyKey: `price:${recurring.key}` },
      ),
    );
    return created.id;
  }

  const planPriceId = (price: PlanPrice) => recurringPrice(price, price.amountCents, "usd");

  async function retrievePlan(subscriptionId: string): Promise<ProviderPlan> {
    const subscription = await call("retrieve subscription", () => stripe.subscriptions.retrieve(subscriptionId));
    const item = subscription.items.data[0];
    if (!item) throw new Error(`Stripe: subscription ${subscriptionId} has no item`);
    return {
      itemId: item.id,
      period: { start: at(item.current_period_start), end: at(item.current_period_end) },
      scheduleId: idOf(subscription.schedule),
    };
  }

  /**
   * Releases the schedule that would move the subscription to another plan at its renewal: the
   * subscription goes on as it is. One already released (by an earlier try) answers 400, and is
   * released all the same.
   */
  async function releaseSchedule(scheduleId: string): Promise<void> {
    try {
      await stripe.subscriptionSchedules.release(scheduleId, {}, { idempotencyKey: `release:${scheduleId}` });
    } catch (error) {
      const released = error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 400;
      if (!released) throw restated("release subscription schedule", error);
    }
  }

  /**
   * The sales tax rate's id: found by its key in the rates' metadata, or created once (the key
   * makes two creates at once one). A rate's percentage never changes at Stripe, so a new one is a new key.
   */
  async function taxRateId(rate: SalesTaxRate): Promise<string> {
    const found = await call("find tax rate", async () => {
      for await (const existing of stripe.taxRates.list({ active: true, limit: 100 }))
        if (existing.metadata?.[TAX_RATE_KEY] === rate.key) return existing.id;
      return undefined;
    });
    if (found) return found;
    const created = await call("create tax rate", () =>
      stripe.taxRates.create(
        {
          display_name: rate.displayName,
          percentage: rate.basisPoints / 100,
          inclusive: false,
          country: rate.countryCode,
          ...(rate.region ? { state: rate.region } : {}),
          jurisdiction: rate.region ?? rate.countryCode,
          metadata: { [TAX_RATE_KEY]: rate.key },
        },
        { idempotencyKey: `tax-rate:${rate.key}` },
      ),
    );
    return created.id;
  }

  /** The customer a card kept for later is attached to: a subscription's, or one made once for the checkout's reference. */
  async function customerFor(request: CheckoutRequest): Promise<string> {
    if (request.customerId) return request.customerId;
    const customer = await call("create customer", () =>
      stripe.customers.create(
        { email: request.customerEmail, metadata: { reference: request.reference } },
        // A retried checkout finds the same customer, and so the same session.
        { idempotencyKey: `customer:${request.reference}` },
      ),
    );
    return customer.id;
  }

  return {
    name: "stripe",

    savedCardCharges: {
      async charge({ sessionId, amountCents, description, idempotencyKey }) {
        const session = await call("retrieve checkout session", () =>
          stripe.checkout.sessions.retrieve(sessionId, { expand: ["payment_intent", "setup_intent"] }),
        );
        const saved = (session.mode === "setup" ? session.setup_intent : session.payment_intent) as
          Stripe.SetupIntent | Stripe.PaymentIntent | null;
        const customer = idOf(session.customer);
        const paymentMethod = idOf(saved?.payment_method);
        if (!customer || !paymentMethod) return { status: "declined" };
        try {
          const intent = await stripe.paymentIntents.create(
            {
              amount: amountCents,
              currency: "usd",
              customer,
              payment_method: paymentMethod,
              off_session: true,
              confirm: true,
              description,
            },
            // Asked again (a round stopped before it recorded the charge), Stripe answers the first outcome.
            { idempotencyKey },
          );
          return intent.status === "succeeded" ? { status: "succeeded", paymentId: intent.id } : { status: "declined" };
        } catch (error) {
          // Declined, or the bank wants the buyer to authenticate (authentication_required): a card_error either way.
          if (error instanceof Stripe.errors.StripeCardError) return { status: "declined" };
          throw restated("create payment intent", error);
        }
      },
    },

    subscriptions: {
      async setCancelAtPeriodEnd(subscriptionId, cancel, idempotencyKey) {
        // Stripe refuses to change the cancellation of a subscription a schedule manages.
        if (cancel) {
          const { scheduleId } = await retrievePlan(subscriptionId);
          if (scheduleId) await releaseSchedule(scheduleId);
        }
        await call("update subscription", () =>
          stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: cancel }, { idempotencyKey }),
        );
      },
      // A DELETE, idempotent by itself: Stripe takes no key for it.
      async cancelNow(subscriptionId) {
        try {
          await stripe.subscriptions.cancel(subscriptionId);
        } catch (error) {
          // One already cancelled answers 400 (or 404 once gone): it charges nothing more either way.
          const gone = error instanceof Stripe.errors.StripeInvalidRequestError && (error.statusCode === 400 || error.statusCode === 404);
          if (!gone) throw restated("cancel subscription", error);
        }
      },
      async payOverdue(subscriptionId, idempotencyKey) {
        const subscription = await call("retrieve subscription", () =>
          stripe.subscriptions.retrieve(subscriptionId, { expand: ["latest_invoice"] }),
        );
        const invoice = subscription.latest_invoice as Stripe.Invoice | null;
        // A paid one is asked too: with the same key, Stripe answers as it did when this paid it.
        if (!invoice?.id || (invoice.status !== "open" && invoice.status !== "paid")) return "none";
        try {
          const paid = await stripe.invoices.pay(invoice.id, {}, { idempotencyKey });
          return paid.status === "paid" ? "paid" : "declined";
        } catch (error) {
          if (error instanceof Stripe.errors.StripeCardError) return "declined";
          // Paid before, by another key (a renewal, or another card change): nothing was overdue here.
          if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 400) return "none";
          throw restated("pay invoice", error);
        }
      },
      async setDefaultPaymentMethod(subscriptionId, paymentMethodId, idempotencyKey) {
        await call("update subscription", () =>
          stripe.subscriptions.update(subscriptionId, { default_payment_method: paymentMethodId }, { idempotencyKey }),
        );
      },
      retrievePlan,
      async changePlanNow({ subscriptionId, current, to, prorationDate, newPeriod, idempotencyKey }) {
        // A downgrade set for the renewal would otherwise undo the upgrade when its phase begins.
        if (current.scheduleId) await releaseSchedule(current.scheduleId);
        const price = await planPriceId(to);
        let updated: Stripe.Subscription;
        try {
          updated = await stripe.subscriptions.update(
            subscriptionId,
            {
              items: [{ id: current.itemId, price }],
              proration_behavior: "always_invoice",
              proration_date: Math.floor(prorationDate.getTime() / 1000),
              // Another interval starts a new period, which Stripe bills from now.
              ...(newPeriod ? { billing_cycle_anchor: { type: "now" } } : {}),
              // Declined, the change is not made: the reader stays on the plan they have.
              payment_behavior: "error_if_incomplete",
              metadata: { plan: to.planId },
              expand: ["latest_invoice"],
            },
            { idempotencyKey },
          );
        } catch (error) {
          if (error instanceof Stripe.errors.StripeCardError) return { status: "declined" };
          throw restated("update subscription", error);
        }
        const invoice = updated.latest_invoice as Stripe.Invoice | null;
        const paid = invoice?.status === "paid" ? paidInvoiceOf(invoice) : undefined;
        if (!paid) throw new Error(`Stripe: the change of ${subscriptionId} answered no paid invoice`);
        return { status: "paid", invoice: paid };
      },
      async changePlanAtRenewal({ subscriptionId, current, from, to, idempotencyKey }) {
        const [fromPrice, toPrice] = [await planPriceId(from), await planPriceId(to)];
        const schedule = current.scheduleId
          ? await call("retrieve subscription schedule", () => stripe.subscriptionSchedules.retrieve(current.scheduleId!))
          : await call("create subscription schedule", () =>
              stripe.subscriptionSchedules.create({ from_subscription: subscriptionId }, { idempotencyKey: `${idempotencyKey}:schedule` }),
            );
        // The phase under way keeps its start (Stripe refuses to move it) and runs to the period's
        // end on the current plan; the next runs one interval on the new one, then the schedule lets
        // the subscription go on by itself at that plan.
        const start = schedule.current_phase?.start_date ?? schedule.phases[0]?.start_date;
        if (start === undefined) throw new Error(`Stripe: subscription schedule ${schedule.id} has no current phase`);
        await call("update subscription schedule", () =>
          stripe.subscriptionSchedules.update(
            schedule.id,
            {
              end_behavior: "release",
              proration_behavior: "none",
              phases: [
                {
                  items: [{ price: fromPrice, quantity: 1 }],
                  start_date: start,
                  end_date: Math.floor(current.period.end.getTime() / 1000),
                  metadata: { plan: from.planId },
                },
                {
                  items: [{ price: toPrice, quantity: 1 }],
                  duration: { interval: to.interval, interval_count: 1 },
                  metadata: { plan: to.planId },
                },
              ],
            },
            { idempotencyKey },
          ),
        );
      },
      async keepPlan(subscriptionId) {
        const { scheduleId } = await retrievePlan(subscriptionId);
        if (scheduleId) await releaseSchedule(scheduleId);
      },
      // Later invoices take the subscription's default tax rates; none (an empty value) removes them.
      async setTaxRate(subscriptionId, rate, idempotencyKey) {
        const rates = rate ? [await taxRateId(rate)] : "";
        await call("update subscription", () =>
          stripe.subscriptions.update(subscriptionId, { default_tax_rates: rates }, { idempotencyKey }),
        );
      },
    },

    customers: {
      // A DELETE, like cancelNow: Stripe takes no key for it, and asked again it answers the same.
      async delete(customerId) {
        try {
          await stripe.customers.del(customerId);
        } catch (error) {
          // Unknown to Stripe (never made there, or deleted and gone): there is nothing to delete.
          const gone = error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404;
          if (!gone) throw restated("delete customer", error);
        }
      },
    },

    async createCheckout(request: CheckoutRequest): Promise<CheckoutSession> {
      if (request.setup) return createSetupCheckout(request);
      if (request.recurring) return createSubscriptionCheckout(request, request.recurring);
      const taxRates = request.tax ? { tax_rates: [await taxRateId(request.tax.rate)] } : {};
      // A card kept for later charges is attached to a customer (Stripe attaches it to none
      // otherwise), and saved for payments made without the buyer.
      const buyer = request.saveCard
        ? { customer: await customerFor(request), payment_intent_data: { setup_future_usage: "off_session" as const } }
        : { customer_email: request.customerEmail };
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
                ...taxRates,
              },
            ],
            ...buyer,
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
      return checkoutSession(session);
    },

    async retrieveCheckout(sessionId: string): Promise<CheckoutState> {
      // An empty id would turn the request into a GET of the session list.
      if (!sessionId) throw new Error("Stripe: checkout session id is required");
      const session = await call("retrieve checkout session", () =>
        stripe.checkout.sessions.retrieve(sessionId, {
          expand: ["subscription.default_payment_method", "setup_intent.payment_method"],
        }),
      );
      const state: CheckoutState = { id: session.id, reference: referenceOf(session), paid: isPaid(session) };
      const paymentId = session.mode === "payment" && state.paid ? idOf(session.payment_intent) : null;
      if (paymentId) state.paymentId = paymentId;
      if (session.mode === "subscription") {
        const subscription = session.subscription as Stripe.Subscription | null;
        state.subscription = subscriptionRef(session);
        state.card = cardOf(subscription?.default_payment_method);
      }
      if (session.mode === "setup") {
        const intent = session.setup_intent as Stripe.SetupIntent | null;
        state.card = intent?.status === "succeeded" ? cardOf(intent.payment_method) : null;
      }
      return state;
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

    async refund(request: RefundRequest): Promise<RefundOutcome> {
      if (!request.sessionId) throw new Error("Stripe: checkout session id is required");
      // A pre-order's own payment (ADR 092) is a PaymentIntent of its own.
      const paymentIntent =
        request.chargeId ??
        idOf((await call("retrieve checkout session", () => stripe.checkout.sessions.retrieve(request.sessionId))).payment_intent);
      if (!paymentIntent) throw new Error(`Stripe: checkout session ${request.sessionId} has no payment to refund`);
      const refund = await call("create refund", () =>
        stripe.refunds.create(
          { payment_intent: paymentIntent, amount: request.amountCents, metadata: { reference: request.reference } },
          { idempotencyKey: request.idempotencyKey },
        ),
      );
      const status =
        refund.status === "succeeded" ? "succeeded" : refund.status === "failed" || refund.status === "canceled" ? "failed" : "pending";
      return { id: refund.id, paymentId: paymentIntent, status };
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
            ...(session.mode === "subscription" ? { subscription: subscriptionRef(session) } : {}),
          };
        }
        case "charge.refunded": {
          const charge = event.data.object;
          const paymentId = idOf(charge.payment_intent);
          if (!paymentId) return { type: "other", eventId: event.id };
          return { type: "payment.refunded", eventId: event.id, paymentId, amountRefundedCents: charge.amount_refunded };
        }
        default:
          return billingEvent(event) ?? { type: "other", eventId: event.id };
      }
    },
  };

  async function createSubscriptionCheckout(request: CheckoutRequest, recurring: RecurringPrice): Promise<CheckoutSession> {
    const price = await recurringPrice(recurring, request.amountCents, request.currency);
    // The subscription's default tax rate: Stripe adds it to the first invoice and every renewal.
    const taxRates = request.tax ? { default_tax_rates: [await taxRateId(request.tax.rate)] } : {};
    const session = await call("create checkout session", () =>
      stripe.checkout.sessions.create(
        {
          mode: "subscription",
          line_items: [{ price, quantity: 1 }],
          customer_email: request.customerEmail,
          client_reference_id: request.reference,
          metadata: { reference: request.reference },
          subscription_data: { metadata: { reference: request.reference, plan: recurring.planId }, ...taxRates },
          success_url: withSessionIdPlaceholder(request.successUrl),
          cancel_url: request.cancelUrl,
        },
        { idempotencyKey: `checkout-session:${request.reference}` },
      ),
    );
    return checkoutSession(session);
  }

  async function createSetupCheckout(request: CheckoutRequest): Promise<CheckoutSession> {
    const customer = await customerFor(request);
    const session = await call("create checkout session", () =>
      stripe.checkout.sessions.create(
        {
          mode: "setup",
          currency: request.currency,
          customer,
          client_reference_id: request.reference,
          metadata: { reference: request.reference },
          success_url: withSessionIdPlaceholder(request.successUrl),
          cancel_url: request.cancelUrl,
        },
        { idempotencyKey: `checkout-session:${request.reference}` },
      ),
    );
    return checkoutSession(session);
  }
}

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  typeof value === "string" ? value : (value?.id ?? null);

/** A session as ours: where to pay, and the customer it keeps the card with. */
function checkoutSession(session: Stripe.Checkout.Session): CheckoutSession {
  if (!session.url) throw new Error(`Stripe: checkout session ${session.id} has no URL`);
  const customerId = idOf(session.customer);
  return { id: session.id, url: session.url, ...(customerId ? { customerId } : {}) };
}

function subscriptionRef(session: Stripe.Checkout.Session): ProviderSubscriptionRef | null {
  const id = idOf(session.subscription);
  const customerId = idOf(session.customer);
  return id && customerId ? { id, customerId } : null;
}

const BRANDS: Record<string, string> = {
  visa: "Visa",
  mastercard: "Mastercard",
  amex: "American Express",
  discover: "Discover",
  diners: "Diners Club",
  jcb: "JCB",
  unionpay: "UnionPay",
};

/** A card payment method as the subscriber sees it ("Visa" ending in "4242"); null when not expanded or not a card. */
function cardOf(method: string | Stripe.PaymentMethod | null | undefined): SavedCard | null {
  if (!method || typeof method === "string" || !method.card) return null;
  return { id: method.id, brand: BRANDS[method.card.brand] ?? method.card.brand, last4: method.card.last4 };
}

const at = (seconds: number) => new Date(seconds * 1000);

/** The subscription an invoice bills (API 2025-03-31 on: under `parent.subscription_details`). */
function invoiceSubscription(invoice: Stripe.Invoice): string | null {
  return idOf(invoice.parent?.subscription_details?.subscription);
}

/**
 * The service period an invoice bills: its subscription lines' (the invoice's own
 * `period_start`/`period_end` are the period of usage collected, the one before for a renewal),
 * prorations included (a change of plan's credit and charge run from the moment it was prorated as of).
 */
function servicePeriod(invoice: Stripe.Invoice): { start: Date; end: Date } | null {
  const lines = invoice.lines.data.filter(
    (line) => line.parent?.type === "subscription_item_details" || line.parent?.invoice_item_details?.proration === true,
  );
  if (lines.length === 0) return null;
  return {
    start: at(Math.min(...lines.map((line) => line.period.start))),
    end: at(Math.max(...lines.map((line) => line.period.end))),
  };
}

const INVOICE_KINDS: Partial<Record<string, PaidInvoice["kind"]>> = {
  subscription_create: "first",
  subscription_cycle: "renewal",
  subscription_update: "change",
};

/** A paid invoice of a subscription as ours; undefined when it names no subscription or service period. */
function paidInvoiceOf(invoice: Stripe.Invoice): PaidInvoice | undefined {
  const period = servicePeriod(invoice);
  if (!invoiceSubscription(invoice) || !period || !invoice.id) return undefined;
  const taxCents = (invoice.total_taxes ?? []).reduce((sum, tax) => sum + tax.amount, 0);
  return {
    invoiceId: invoice.id,
    kind: INVOICE_KINDS[invoice.billing_reason ?? ""] ?? "other",
    amountCents: invoice.amount_paid - taxCents,
    taxCents,
    periodStart: period.start,
    periodEnd: period.end,
    planId: invoice.parent?.subscription_details?.metadata?.plan ?? null,
  };
}

function subscriptionStatus(status: Stripe.Subscription.Status): "active" | "past_due" | "ended" | "other" {
  if (status === "active" || status === "trialing") return "active";
  if (status === "past_due" || status === "unpaid") return "past_due";
  if (status === "canceled" || status === "incomplete_expired") return "ended";
  return "other";
}

/** The four Stripe Billing events the site follows, read into ours; undefined for any other. */
function billingEvent(event: Stripe.Event): BillingEvent | undefined {
  const base = { eventId: event.id, created: at(event.created) };
  switch (event.type) {
    case "invoice.paid": {
      const subscriptionId = invoiceSubscription(event.data.object);
      const paid = paidInvoiceOf(event.data.object);
      return subscriptionId && paid ? { ...base, type: "invoice.paid", subscriptionId, ...paid } : undefined;
    }
    case "invoice.payment_failed": {
      const invoice = event.data.object;
      const subscriptionId = invoiceSubscription(invoice);
      const period = servicePeriod(invoice);
      if (!subscriptionId || !period || !invoice.id) return undefined;
      return {
        ...base,
        type: "invoice.payment_failed",
        subscriptionId,
        invoiceId: invoice.id,
        renewal: invoice.billing_reason === "subscription_cycle",
        attempt: invoice.attempt_count,
        periodEnd: period.end,
        nextAttempt: invoice.next_payment_attempt ? at(invoice.next_payment_attempt) : null,
      };
    }
    case "customer.subscription.updated": {
      const subscription = event.data.object;
      return {
        ...base,
        type: "subscription.updated",
        subscriptionId: subscription.id,
        cancelAtPeriodEnd: subscription.cancel_at_period_end,
        status: subscriptionStatus(subscription.status),
      };
    }
    case "customer.subscription.deleted": {
      const subscription = event.data.object;
      return {
        ...base,
        type: "subscription.deleted",
        subscriptionId: subscription.id,
        endedAt: at(subscription.ended_at ?? event.created),
      };
    }
    default:
      return undefined;
  }
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
