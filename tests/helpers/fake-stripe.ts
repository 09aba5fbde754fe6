import crypto from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";

/**
 * A loopback stand-in for Stripe's v1 API, as the `stripe` package uses it: form-encoded POSTs
 * with bracketed keys, bearer-key auth, JSON objects back, `{ error: { type, message } }` with a
 * 4xx/5xx status on failure, and idempotency keys that replay the first answer (and refuse a key
 * reused with other parameters). Point the adapter (or the built server's STRIPE_API_URL) at `url`.
 *
 * It speaks Checkout (modes payment, subscription and setup; a payment-mode session for a
 * `customer` may save its card with `payment_intent_data[setup_future_usage]`), PaymentIntents
 * charged off-session to a customer's saved card (`off_session` and `confirm`, declined with a
 * 402 card_error for the cards below), Refunds of any paid PaymentIntent (with `charge.refunded`),
 * Customers (create, retrieve), Products and Prices (by
 * lookup_key), Tax Rates, Subscriptions (retrieve; update cancel_at_period_end, default_payment_method,
 * default_tax_rates, metadata and the item's price; cancel), Subscription schedules (from a
 * subscription; phases; release), Invoices and test clocks, as of the API version the installed package pins
 * (STRIPE_API_VERSION): a subscription's period is on its items, an invoice names its
 * subscription under `parent.subscription_details` (with the subscription's metadata) and its
 * service period on its lines.
 *
 * A price change prorates to the second as Stripe does: as of `proration_date` (else the clock's
 * time), the unused part of the period is credited at the old price and, in the same interval,
 * the rest of it charged at the new one, each line `round(unit_amount × (period end −
 * proration_date) / (period end − period start))`. Another interval needs
 * `billing_cycle_anchor[type]=now` (the pinned version's form): a new period starts at the
 * clock's time, billed in full. `proration_behavior=always_invoice` puts these lines on an
 * invoice (`billing_reason=subscription_update`) charged at once, off-session;
 * `proration_behavior=none` charges nothing in the same interval. A decline with
 * `payment_behavior=error_if_incomplete` answers 402 and changes nothing (the invoice is voided);
 * with the default `allow_incomplete` the change stands and the subscription is past due.
 * Not modelled (answered 400): `create_prorations` (pending proration items) and the
 * pending/default_incomplete payment behaviours. A subscription a schedule manages refuses a
 * change of its cancellation; when its period ends, the next phase's price and metadata apply
 * before the renewal, and a schedule whose last phase is over is released.
 *
 * Billing runs on one test clock (`clock`): customers Checkout creates belong to it (real Stripe
 * needs the customer made on the clock first). Advancing it renews what fell due: a new invoice
 * paid, or for the card 4000 0000 0000 0341 `invoice.payment_failed`, retried 1, 3 and 5 days
 * after the first failure, after which the subscription is cancelled (deleted). A subscription
 * cancelled at period end is deleted at its end. An invoice adds the tax of the subscription's
 * default tax rates (exclusive ones) to each line, rounded half up to the cent, as Stripe does.
 *
 * Every change emits events, kept in order in `events`; `deliver` posts them, signed the way
 * Stripe signs (Stripe-Signature: t=…,v1=HMAC-SHA256 of "t.body"), to the webhook set with
 * `webhookTo`, in any order and as often as a test likes.
 *
 * Two session ids misbehave on purpose: `cs_test_outage` answers 500 and `cs_test_slow`
 * answers after two seconds.
 */

export const FAKE_API_VERSION = Stripe.API_VERSION;

/**
 * Test cards (the real numbers): succeeds; declined at checkout; saved, then declined when charged
 * later; saved (authenticated at checkout), then refused later for want of the buyer's
 * authentication (`authentication_required`).
 */
export const TEST_CARDS = {
  succeeds: "4242424242424242",
  declined: "4000000000000002",
  declinesLater: "4000000000000341",
  authenticatesEveryTime: "4000002760003184",
} as const;

type Json = Record<string, unknown>;

export interface FakeCheckoutSession {
  id: string;
  object: "checkout.session";
  mode: "payment" | "subscription" | "setup";
  status: "open" | "complete" | "expired";
  payment_status: "paid" | "unpaid" | "no_payment_required";
  amount_total: number | null;
  currency: string | null;
  customer: string | null;
  customer_email: string | null;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  subscription: string | null;
  setup_intent: string | null;
  /** A paid payment-mode session's PaymentIntent (its one charge), which refunds name. */
  payment_intent: string | null;
  /** As the client sent it, with the `{CHECKOUT_SESSION_ID}` placeholder still in it. */
  success_url: string;
  cancel_url: string;
  url: string | null;
  created: number;
  expires_at: number;
  livemode: false;
  /** Not Stripe's: what the session was asked for, to start its subscription once paid. */
  line_items_request: Json[];
  subscription_data_request: Json;
  /** Not Stripe's: a payment-mode session's `payment_intent_data` (`setup_future_usage` saves the card for its customer). */
  payment_intent_data_request: { setup_future_usage?: string };
}

export interface FakeSubscription {
  id: string;
  object: "subscription";
  customer: string;
  status: "active" | "past_due" | "canceled";
  schedule: string | null;
  cancel_at_period_end: boolean;
  cancel_at: number | null;
  canceled_at: number | null;
  ended_at: number | null;
  collection_method: "charge_automatically";
  created: number;
  start_date: number;
  billing_cycle_anchor: number;
  currency: string;
  default_payment_method: string | null;
  default_tax_rates: Json[];
  latest_invoice: string | null;
  metadata: Record<string, string>;
  test_clock: string | null;
  livemode: false;
  items: { object: "list"; data: FakeSubscriptionItem[]; has_more: false; url: string };
}

interface FakeSubscriptionItem {
  id: string;
  object: "subscription_item";
  created: number;
  current_period_start: number;
  current_period_end: number;
  price: Json;
  quantity: number;
  subscription: string;
  metadata: Record<string, string>;
}

export interface FakeInvoice {
  id: string;
  object: "invoice";
  customer: string;
  status: "draft" | "open" | "paid" | "void";
  billing_reason: "subscription_create" | "subscription_cycle" | "subscription_update";
  collection_method: "charge_automatically";
  currency: string;
  amount_due: number;
  amount_paid: number;
  amount_remaining: number;
  subtotal: number;
  total: number;
  total_excluding_tax: number;
  total_taxes: Json[];
  attempt_count: number;
  attempted: boolean;
  next_payment_attempt: number | null;
  created: number;
  period_start: number;
  period_end: number;
  number: string;
  parent: {
    type: "subscription_details";
    quote_details: null;
    subscription_details: { subscription: string; metadata: Record<string, string> };
  };
  lines: { object: "list"; data: Json[]; has_more: false; url: string };
  status_transitions: { finalized_at: number | null; paid_at: number | null; marked_uncollectible_at: null; voided_at: number | null };
  test_clock: string | null;
  livemode: false;
}

export interface FakeSchedulePhase {
  start_date: number;
  end_date: number;
  items: { price: string; quantity: number }[];
  metadata: Record<string, string>;
}

export interface FakeSchedule {
  id: string;
  object: "subscription_schedule";
  customer: string;
  subscription: string | null;
  status: "active" | "released" | "canceled";
  end_behavior: "release" | "cancel";
  current_phase: { start_date: number; end_date: number } | null;
  phases: FakeSchedulePhase[];
  released_at: number | null;
  released_subscription: string | null;
  created: number;
  metadata: Record<string, string>;
  test_clock: string | null;
  livemode: false;
}

export interface FakeEvent {
  id: string;
  object: "event";
  api_version: string;
  created: number;
  type: string;
  data: { object: Json; previous_attributes?: Json };
  livemode: false;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
}

export interface RecordedRequest {
  method: string;
  path: string;
  authorization: string;
  contentType: string;
  idempotencyKey: string | undefined;
  stripeVersion: string | undefined;
  form: URLSearchParams;
}

export interface FakeStripe {
  /** Base URL, e.g. "http://127.0.0.1:41234". */
  url: string;
  /** Every request received, in order (tests may empty it). */
  requests: RecordedRequest[];
  /** The checkout sessions created, by id (tests may change their state). */
  sessions: Map<string, FakeCheckoutSession>;
  subscriptions: Map<string, FakeSubscription>;
  schedules: Map<string, FakeSchedule>;
  invoices: Map<string, FakeInvoice>;
  /** PaymentIntents by id: paid payment-mode sessions' and those created off-session. */
  paymentIntents: Map<string, Json>;
  /** Charges by their PaymentIntent's id (amount, amount_refunded), and refunds by id. */
  charges: Map<string, Json>;
  refunds: Map<string, Json>;
  customers: Map<string, Json>;
  prices: Map<string, Json>;
  taxRates: Map<string, Json>;
  /** Every event emitted, oldest first. */
  events: FakeEvent[];
  /** The one test clock's id. */
  clock: string;
  /** The test clock's time. */
  now(): Date;
  /** The session whose payment page URL this is (where the client sent the customer). */
  sessionAt(paymentUrl: string): FakeCheckoutSession | undefined;
  /** What Stripe records once the customer has paid on the hosted page (a payment-mode session). */
  completeSession(id: string, paymentStatus?: FakeCheckoutSession["payment_status"]): FakeCheckoutSession;
  /**
   * The customer pays (or saves a card) on the hosted page with `card`: for a subscription, a
   * customer, the subscription and its first invoice, paid; for a setup, a succeeded SetupIntent.
   * Throws for a card declined at checkout.
   */
  pay(sessionId: string, card?: string): FakeCheckoutSession;
  /** Where events go, and the endpoint's signing secret. */
  webhookTo(url: string, secret: string): void;
  /** Posts events, signed, one after another; answers the HTTP statuses. All not yet delivered when no ids are given. */
  deliver(...eventIds: string[]): Promise<number[]>;
  /** Events emitted since the last `deliver()` without ids. */
  pending(): FakeEvent[];
  close(): Promise<void>;
}

/** The URL Stripe sends the customer back to: the success URL with the placeholder filled in. */
export function returnUrlOf(session: FakeCheckoutSession): string {
  return session.success_url.replaceAll("{CHECKOUT_SESSION_ID}", session.id);
}

/** The JSON body of a webhook event about `object`, laid out as Stripe sends it. */
export function stripeEventBody(type: string, object: object, id = `evt_test_${crypto.randomBytes(8).toString("hex")}`): string {
  return JSON.stringify(
    {
      id,
      object: "event",
      api_version: FAKE_API_VERSION,
      created: Math.floor(Date.now() / 1000),
      data: { object },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    },
    null,
    2,
  );
}

/** The Stripe-Signature header for a body: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body" with the secret>`. */
export function stripeSignature(body: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
  const v1 = crypto.createHmac("sha256", secret).update(`${timestamp}.${body}`, "utf8").digest("hex");
  return `t=${timestamp},v1=${v1}`;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** Stripe's bracketed form keys (`a[b][0][c]=v`) read into nested objects and arrays. */
export function parseStripeForm(form: URLSearchParams): Json {
  const root: Json = {};
  for (const [name, value] of form) {
    const parts = [name.split("[")[0]!, ...[...name.matchAll(/\[([^\]]*)\]/g)].map((match) => match[1]!)];
    let node: Record<string, unknown> = root;
    parts.forEach((part, i) => {
      const last = i === parts.length - 1;
      const key = part === "" ? String(Object.keys(node).length) : part;
      if (last) node[key] = value;
      else node = (node[key] ??= {}) as Record<string, unknown>;
    });
  }
  const arrays = (value: unknown): unknown => {
    if (typeof value !== "object" || value === null) return value;
    const entries = Object.entries(value as Json).map(([k, v]) => [k, arrays(v)] as const);
    if (entries.length > 0 && entries.every(([k]) => /^\d+$/.test(k))) {
      return entries.sort(([a], [b]) => Number(a) - Number(b)).map(([, v]) => v);
    }
    return Object.fromEntries(entries);
  };
  return arrays(root) as Json;
}

const DAY = 86_400;

/** `months` calendar months after a time in Unix seconds. */
function addMonths(seconds: number, months: number): number {
  const date = new Date(seconds * 1000);
  date.setUTCMonth(date.getUTCMonth() + months);
  return Math.floor(date.getTime() / 1000);
}

const cardBrand = (number: string) => (number.startsWith("4") ? "visa" : number.startsWith("5") ? "mastercard" : "amex");

interface FakePaymentMethod extends Json {
  id: string;
  card: { brand: string; last4: string } & Json;
}

/** Starts the fake on 127.0.0.1 and a free port; only `secretKey` is accepted as the API key. */
export function startFakeStripe(secretKey: string, options: { now?: Date } = {}): Promise<FakeStripe> {
  const requests: RecordedRequest[] = [];
  const sessions = new Map<string, FakeCheckoutSession>();
  const customers = new Map<string, Json>();
  const prices = new Map<string, Json>();
  const taxRates = new Map<string, Json>();
  const products = new Map<string, Json>();
  const paymentMethods = new Map<string, FakePaymentMethod>();
  const setupIntents = new Map<string, Json>();
  const subscriptions = new Map<string, FakeSubscription>();
  const schedules = new Map<string, FakeSchedule>();
  const invoices = new Map<string, FakeInvoice>();
  /** PaymentIntents, their charges (by the PaymentIntent's id), and the refunds made of them. */
  const paymentIntents = new Map<string, Json>();
  const charges = new Map<string, Json>();
  const refunds = new Map<string, Json>();
  const events: FakeEvent[] = [];
  const replays = new Map<string, { params: string; status: number; payload: object }>();
  let counter = 0;
  let delivered = 0;
  let lastEventAt = 0;
  let invoiceNumber = 0;
  let webhook: { url: string; secret: string } | undefined;
  const clock = {
    id: `clock_${crypto.randomBytes(12).toString("hex")}`,
    object: "test_helpers.test_clock",
    created: Math.floor(Date.now() / 1000),
    frozen_time: Math.floor((options.now ?? new Date()).getTime() / 1000),
    livemode: false,
    name: "Meridian tests",
    status: "ready",
  };
  const newId = (prefix: string) => `${prefix}_test_${String(++counter).padStart(6, "0")}${crypto.randomBytes(4).toString("hex")}`;

  function emit(type: string, object: object, previous?: Json): void {
    // Real time, one second apart at least, so that a later event never looks older.
    lastEventAt = Math.max(Math.floor(Date.now() / 1000), lastEventAt + 1);
    events.push({
      id: newId("evt"),
      object: "event",
      api_version: FAKE_API_VERSION,
      created: lastEventAt,
      type,
      data: { object: structuredClone(object) as Json, ...(previous ? { previous_attributes: previous } : {}) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
    });
  }

  function paymentMethodFor(number: string): FakePaymentMethod {
    const method: FakePaymentMethod = {
      id: newId("pm"),
      object: "payment_method",
      type: "card",
      card: { brand: cardBrand(number), last4: number.slice(-4), exp_month: 12, exp_year: 2034, funding: "credit", country: "US" },
      customer: null,
      created: clock.frozen_time,
      livemode: false,
      // Not Stripe's: how the test card behaves when charged without the customer.
      declines_off_session: number === TEST_CARDS.declinesLater || number === TEST_CARDS.authenticatesEveryTime,
      off_session_decline_code: number === TEST_CARDS.authenticatesEveryTime ? "authentication_required" : "card_declined",
    };
    paymentMethods.set(method.id, method);
    return method;
  }

  /** One line of an invoice: a period of the subscription's item at a price, or a proration of it. */
  interface LineSpec {
    amount: number;
    price: Json;
    start: number;
    end: number;
    proration: boolean;
    description: string;
  }

  const priceName = (price: Json) => String(price.nickname ?? products.get(String(price.product))?.name ?? price.id);

  /** The invoice for the subscription's next period, at its item's price. */
  function invoiceFor(
    subscription: FakeSubscription,
    reason: FakeInvoice["billing_reason"],
    start: number,
    end: number,
    previous: number,
  ): FakeInvoice {
    const price = subscription.items.data[0]!.price;
    const amount = Number(price.unit_amount);
    return invoiceWith(
      subscription,
      reason,
      [{ amount, price, start, end, proration: false, description: `1 × ${priceName(price)}` }],
      previous,
      start,
    );
  }

  /** A finalized invoice of the subscription with these lines; `periodStart`/`periodEnd` are the invoice's own (usage collected). */
  function invoiceWith(
    subscription: FakeSubscription,
    reason: FakeInvoice["billing_reason"],
    lines: LineSpec[],
    periodStart: number,
    periodEnd: number,
  ): FakeInvoice {
    const item = subscription.items.data[0]!;
    const total = lines.reduce((sum, line) => sum + line.amount, 0);
    // Each line taxed on its own, as Stripe does, and the invoice's taxes summed by rate.
    const lineTaxes = lines.map((line) => taxesOn(line.amount, subscription.default_tax_rates));
    const taxes = subscription.default_tax_rates.flatMap((rate) => {
      const ofRate = lineTaxes.flat().filter((t) => (t.tax_rate_details as Json).tax_rate === rate.id);
      return ofRate.length === 0
        ? []
        : [{ ...ofRate[0]!, amount: ofRate.reduce((sum, t) => sum + Number(t.amount), 0), taxable_amount: total }];
    });
    const tax = taxes.reduce((sum, t) => sum + Number(t.amount), 0);
    // A negative total would go to the customer's balance, which the fake does not keep.
    const amount = Math.max(0, total);
    const id = newId("in");
    const invoice: FakeInvoice = {
      id,
      object: "invoice",
      customer: subscription.customer,
      status: "open",
      billing_reason: reason,
      collection_method: "charge_automatically",
      currency: subscription.currency,
      amount_due: amount + tax,
      amount_paid: 0,
      amount_remaining: amount + tax,
      subtotal: total,
      total: total + tax,
      total_excluding_tax: total,
      total_taxes: taxes,
      attempt_count: 0,
      attempted: false,
      next_payment_attempt: null,
      created: clock.frozen_time,
      period_start: periodStart,
      period_end: periodEnd,
      number: `MRFAKE-${String(++invoiceNumber).padStart(4, "0")}`,
      parent: {
        type: "subscription_details",
        quote_details: null,
        subscription_details: { subscription: subscription.id, metadata: { ...subscription.metadata } },
      },
      lines: {
        object: "list",
        data: lines.map((line, index) => ({
          id: newId("il"),
          object: "line_item",
          amount: line.amount,
          taxes: lineTaxes[index]!,
          currency: subscription.currency,
          description: line.description,
          invoice: id,
          period: { start: line.start, end: line.end },
          quantity: 1,
          pricing: {
            type: "price_details",
            price_details: { price: line.price.id, product: line.price.product },
            unit_amount_decimal: String(line.proration ? line.amount : line.price.unit_amount),
          },
          parent: {
            type: "subscription_item_details",
            invoice_item_details: null,
            subscription_item_details: {
              subscription: subscription.id,
              subscription_item: item.id,
              proration: line.proration,
              proration_details: line.proration ? { credited_items: null } : null,
              // Stripe makes a proration from an invoice item of its own.
              invoice_item: line.proration ? newId("ii") : null,
            },
          },
          livemode: false,
          metadata: {},
        })),
        has_more: false,
        url: `/v1/invoices/${id}/lines`,
      },
      status_transitions: { finalized_at: clock.frozen_time, paid_at: null, marked_uncollectible_at: null, voided_at: null },
      test_clock: clock.id,
      livemode: false,
    };
    invoices.set(id, invoice);
    subscription.latest_invoice = id;
    emit("invoice.finalized", invoice);
    return invoice;
  }

  /**
   * The tax each exclusive rate adds to an amount: the percentage of it, rounded half up to the
   * cent (Stripe rounds each line's tax so), worked out in whole numbers.
   */
  function taxesOn(amount: number, rates: Json[]): Json[] {
    return rates
      .filter((rate) => rate.inclusive === false)
      .map((rate) => ({
        // Half away from zero, so a credit line's tax is the negative of the same charge's.
        amount: Math.sign(amount) * Math.round((Math.abs(amount) * Math.round(Number(rate.percentage) * 10_000)) / 1_000_000),
        tax_behavior: "exclusive",
        tax_rate_details: { tax_rate: rate.id },
        taxability_reason: "standard_rated",
        taxable_amount: amount,
        type: "tax_rate_details",
      }));
  }

  /** The tax rates named by ids a request sent (`""` removes them all); a string naming one that does not exist. */
  function taxRatesNamed(ids: unknown): Json[] | string {
    const list = ids === "" || ids === undefined ? [] : (ids as string[]);
    const missing = list.find((id) => !taxRates.has(id));
    return missing ?? list.map((id) => taxRates.get(id)!);
  }

  /** One attempt to collect an invoice with the subscription's card, at `at`. */
  /** Whether the subscription's card pays when charged now (`offSession`: without the customer). */
  function pays(subscription: FakeSubscription, offSession: boolean): boolean {
    const method = paymentMethods.get(subscription.default_payment_method ?? "");
    return Boolean(method && !(offSession && method.declines_off_session));
  }

  function attempt(invoice: FakeInvoice, subscription: FakeSubscription, at: number, offSession: boolean): void {
    invoice.attempt_count++;
    invoice.attempted = true;
    if (pays(subscription, offSession)) {
      Object.assign(invoice, { status: "paid", amount_paid: invoice.amount_due, amount_remaining: 0, next_payment_attempt: null });
      invoice.status_transitions.paid_at = at;
      emit("invoice.paid", invoice);
      emit("invoice.payment_succeeded", invoice);
      if (subscription.status === "past_due") {
        subscription.status = "active";
        emit("customer.subscription.updated", subscription, { status: "past_due" });
      }
      return;
    }
    // Retried 1, 3 and 5 days after the first failure; after the fourth, the subscription is cancelled.
    const retries = [1, 3, 5];
    const first = at - (invoice.attempt_count === 1 ? 0 : retries[invoice.attempt_count - 2]! * DAY);
    invoice.next_payment_attempt = invoice.attempt_count <= retries.length ? first + retries[invoice.attempt_count - 1]! * DAY : null;
    emit("invoice.payment_failed", invoice);
    if (invoice.next_payment_attempt === null) {
      endSubscription(subscription, at);
      return;
    }
    if (subscription.status === "active") {
      subscription.status = "past_due";
      emit("customer.subscription.updated", subscription, { status: "active" });
    }
  }

  function endSubscription(subscription: FakeSubscription, at: number): void {
    const schedule = schedules.get(subscription.schedule ?? "");
    if (schedule) {
      Object.assign(schedule, { status: "canceled", current_phase: null });
      emit("subscription_schedule.canceled", schedule);
    }
    Object.assign(subscription, { status: "canceled", ended_at: at, canceled_at: subscription.canceled_at ?? at });
    emit("customer.subscription.deleted", subscription);
  }

  /**
   * At the end of the period: the schedule's phase starting then applies (its price and
   * metadata), or, its last phase over, the schedule lets the subscription go on by itself.
   */
  function enterNextPhase(subscription: FakeSubscription, at: number): void {
    const schedule = schedules.get(subscription.schedule ?? "");
    if (!schedule || schedule.status !== "active") return;
    const phase = schedule.phases.find((p) => p.start_date === at);
    if (!phase) {
      if (schedule.end_behavior === "release") releaseSchedule(schedule, subscription, at);
      return;
    }
    const item = subscription.items.data[0]!;
    const price = prices.get(phase.items[0]!.price)!;
    item.price = price;
    subscription.metadata = mergedMetadata(subscription.metadata, phase.metadata);
    schedule.current_phase = { start_date: phase.start_date, end_date: phase.end_date };
    emit("subscription_schedule.updated", schedule);
  }

  function releaseSchedule(schedule: FakeSchedule, subscription: FakeSubscription, at: number): void {
    Object.assign(schedule, {
      status: "released",
      released_at: at,
      released_subscription: subscription.id,
      subscription: null,
      current_phase: null,
    });
    subscription.schedule = null;
    emit("subscription_schedule.released", schedule);
    emit("customer.subscription.updated", subscription, { schedule: schedule.id });
  }

  /** Metadata as Stripe updates it: keys added or replaced, and a key given an empty value removed. */
  const mergedMetadata = (metadata: Record<string, string>, update: Record<string, string>) =>
    Object.fromEntries(Object.entries({ ...metadata, ...update }).filter(([, value]) => value !== ""));

  /** What falls due next on the clock by `until`, done in time order until nothing is left. */
  function runClock(until: number): void {
    for (;;) {
      let next: { at: number; run: () => void } | undefined;
      const consider = (at: number, run: () => void) => {
        if (at <= until && (!next || at < next.at)) next = { at, run };
      };
      for (const subscription of subscriptions.values()) {
        if (subscription.status === "canceled") continue;
        const item = subscription.items.data[0]!;
        const end = item.current_period_end;
        if (subscription.cancel_at_period_end) consider(end, () => endSubscription(subscription, end));
        else if (subscription.status === "active")
          consider(end, () => {
            const previous = { items: { data: [{ ...item }] }, metadata: { ...subscription.metadata } };
            enterNextPhase(subscription, end);
            const interval = item.price.recurring as { interval: "month" | "year" };
            Object.assign(item, { current_period_start: end, current_period_end: addMonths(end, interval.interval === "year" ? 12 : 1) });
            emit("customer.subscription.updated", subscription, previous);
            const invoice = invoiceFor(subscription, "subscription_cycle", end, item.current_period_end, item.current_period_start);
            attempt(invoice, subscription, end, true);
          });
        const open = invoices.get(subscription.latest_invoice ?? "");
        if (open?.status === "open" && open.next_payment_attempt !== null) {
          const at = open.next_payment_attempt;
          consider(at, () => attempt(open, subscription, at, true));
        }
      }
      if (!next) break;
      clock.frozen_time = next.at;
      next.run();
    }
    clock.frozen_time = until;
  }

  function startSubscription(session: FakeCheckoutSession, method: FakePaymentMethod): void {
    const customer = {
      id: newId("cus"),
      object: "customer",
      email: session.customer_email,
      created: clock.frozen_time,
      invoice_settings: { default_payment_method: null },
      test_clock: clock.id,
      livemode: false,
      metadata: {},
    };
    customers.set(customer.id, customer);
    method.customer = customer.id;
    emit("customer.created", customer);
    const line = session.line_items_request[0]!;
    const price = prices.get(String(line.price));
    if (!price) throw new Error(`fake Stripe: no price ${String(line.price)}`);
    const now = clock.frozen_time;
    const id = newId("sub");
    const interval = (price.recurring as { interval: string }).interval;
    const subscription: FakeSubscription = {
      id,
      object: "subscription",
      customer: customer.id,
      status: "active",
      schedule: null,
      cancel_at_period_end: false,
      cancel_at: null,
      canceled_at: null,
      ended_at: null,
      collection_method: "charge_automatically",
      created: now,
      start_date: now,
      billing_cycle_anchor: now,
      currency: String(price.currency),
      default_payment_method: method.id,
      default_tax_rates: taxRatesNamed(session.subscription_data_request.default_tax_rates) as Json[],
      latest_invoice: null,
      metadata: { ...((session.subscription_data_request.metadata as Record<string, string>) ?? {}) },
      test_clock: clock.id,
      livemode: false,
      items: {
        object: "list",
        data: [
          {
            id: newId("si"),
            object: "subscription_item",
            created: now,
            current_period_start: now,
            current_period_end: addMonths(now, interval === "year" ? 12 : 1),
            price,
            quantity: Number(line.quantity ?? 1),
            subscription: id,
            metadata: {},
          },
        ],
        has_more: false,
        url: `/v1/subscription_items?subscription=${id}`,
      },
    };
    subscriptions.set(id, subscription);
    emit("customer.subscription.created", subscription);
    const item = subscription.items.data[0]!;
    const invoice = invoiceFor(subscription, "subscription_create", now, item.current_period_end, now);
    attempt(invoice, subscription, now, false);
    Object.assign(session, { customer: customer.id, subscription: id, amount_total: invoice.amount_paid, currency: subscription.currency });
  }

  function pay(sessionId: string, card: string = TEST_CARDS.succeeds): FakeCheckoutSession {
    const session = sessions.get(sessionId);
    if (!session) throw new Error(`fake Stripe: no session ${sessionId}`);
    if (session.status !== "open") throw new Error(`fake Stripe: session ${sessionId} is ${session.status}`);
    if (card === TEST_CARDS.declined) throw new Error("Your card was declined.");
    const method = paymentMethodFor(card);
    if (session.mode === "subscription") startSubscription(session, method);
    if (session.mode === "setup") {
      method.customer = session.customer;
      const intent = {
        id: newId("seti"),
        object: "setup_intent",
        status: "succeeded",
        customer: session.customer,
        payment_method: method.id,
        usage: "off_session",
        created: clock.frozen_time,
        livemode: false,
      };
      setupIntents.set(intent.id, intent);
      session.setup_intent = intent.id;
      emit("setup_intent.succeeded", intent);
    }
    // A card paid with and saved for later belongs to the session's customer.
    if (session.mode === "payment" && session.payment_intent_data_request.setup_future_usage && session.customer)
      method.customer = session.customer;
    Object.assign(session, { status: "complete", payment_status: session.mode === "setup" ? "no_payment_required" : "paid" });
    if (session.mode === "payment") charged(session, method);
    emit("checkout.session.completed", { ...shown(session), url: null });
    return session;
  }

  /** An object with the paths in `expand` (e.g. "subscription.default_payment_method") replaced by the objects they name. */
  function expanded(object: Json, expand: string[]): Json {
    const copy = structuredClone(object);
    for (const path of expand) {
      let node: Json | undefined = copy;
      const parts = path.split(".");
      parts.forEach((part, i) => {
        if (!node) return;
        const value = node[part];
        if (typeof value === "string") node[part] = structuredClone(byId(value)) ?? value;
        node = i < parts.length - 1 && typeof node[part] === "object" ? (node[part] as Json) : undefined;
      });
    }
    return copy;
  }

  function byId(id: string): object | undefined {
    const stores: Array<[string, Map<string, object>]> = [
      ["sub_sched_", schedules],
      ["sub_", subscriptions],
      ["cus_", customers],
      ["pm_", paymentMethods],
      ["pi_", paymentIntents],
      ["seti_", setupIntents],
      ["in_", invoices],
      ["price_", prices],
      ["prod_", products],
      ["txr_", taxRates],
    ];
    return stores.find(([prefix]) => id.startsWith(prefix))?.[1].get(id);
  }

  /** A payment-mode session's PaymentIntent and its charge, made when it is paid (with `method`, when paid on the hosted page). */
  function charged(session: FakeCheckoutSession, method?: FakePaymentMethod): void {
    if (session.payment_intent) return;
    session.payment_intent = paymentIntent({
      amount: session.amount_total ?? 0,
      currency: session.currency ?? "usd",
      customer: session.customer,
      payment_method: method?.id ?? null,
      setup_future_usage: session.payment_intent_data_request.setup_future_usage ?? null,
      status: "succeeded",
    }).id;
  }

  /** A PaymentIntent, with its charge (kept by the PaymentIntent's id) when it succeeded. */
  function paymentIntent(fields: {
    amount: number;
    currency: string;
    customer: string | null;
    payment_method: string | null;
    setup_future_usage: string | null;
    status: "succeeded" | "requires_payment_method";
    description?: string | null;
    last_payment_error?: Json | null;
  }): Json & { id: string } {
    const id = newId("pi");
    const charge = fields.status === "succeeded" ? newId("ch") : null;
    const intent = {
      id,
      object: "payment_intent",
      amount_received: charge ? fields.amount : 0,
      created: clock.frozen_time,
      latest_charge: charge,
      livemode: false,
      metadata: {},
      description: null,
      last_payment_error: null,
      ...fields,
    };
    paymentIntents.set(id, intent);
    if (charge) {
      charges.set(id, {
        id: charge,
        object: "charge",
        amount: fields.amount,
        amount_refunded: 0,
        currency: fields.currency,
        customer: fields.customer,
        payment_intent: id,
        payment_method: fields.payment_method,
        refunded: false,
        status: "succeeded",
        livemode: false,
      });
      emit("payment_intent.succeeded", intent);
    } else emit("payment_intent.payment_failed", intent);
    return intent;
  }

  /**
   * POST /v1/payment_intents, confirmed at once off-session with a customer's saved card: paid,
   * or refused with 402 as Stripe refuses it (a card_error with the failed PaymentIntent).
   * Without `off_session` and `confirm` (an on-session PaymentIntent) it answers 400: not modelled.
   */
  function createPaymentIntent(params: Json): { status: number; payload: object } {
    if (params.confirm !== "true" || params.off_session !== "true")
      return failure(400, "invalid_request_error", "fake Stripe: only PaymentIntents confirmed off-session are modelled");
    const amount = Number(params.amount);
    if (!Number.isInteger(amount) || amount < 50)
      return failure(400, "invalid_request_error", "Amount must be at least $0.50 usd", { code: "amount_too_small", param: "amount" });
    const customer = String(params.customer ?? "");
    if (!customers.has(customer)) return notFound("customer", customer, "customer");
    const method = paymentMethods.get(String(params.payment_method ?? ""));
    if (!method) return notFound("PaymentMethod", String(params.payment_method ?? ""), "payment_method");
    if (method.customer !== customer)
      return failure(400, "invalid_request_error", `The provided PaymentMethod ${method.id} does not belong to the Customer ${customer}.`, {
        param: "payment_method",
      });
    const fields = {
      amount,
      currency: String(params.currency ?? "usd"),
      customer,
      payment_method: method.id,
      setup_future_usage: null,
      description: (params.description as string | undefined) ?? null,
    };
    if (!method.declines_off_session) return { status: 200, payload: paymentIntent({ ...fields, status: "succeeded" }) };
    const code = String(method.off_session_decline_code);
    const message =
      code === "authentication_required" ? "Your card was declined. This transaction requires authentication." : "Your card was declined.";
    const error = { type: "card_error", code, message, ...(code === "card_declined" ? { decline_code: "generic_decline" } : {}) };
    const intent = paymentIntent({ ...fields, status: "requires_payment_method", payment_method: null, last_payment_error: error });
    return failure(402, "card_error", message, {
      code,
      ...(code === "card_declined" ? { decline_code: "generic_decline" } : {}),
      payment_intent: intent,
    });
  }

  function createCustomer(params: Json): { status: number; payload: object } {
    const customer = {
      id: newId("cus"),
      object: "customer",
      email: (params.email as string | undefined) ?? null,
      created: clock.frozen_time,
      invoice_settings: { default_payment_method: null },
      test_clock: null,
      livemode: false,
      metadata: (params.metadata as Record<string, string> | undefined) ?? {},
    };
    customers.set(customer.id, customer);
    emit("customer.created", customer);
    return { status: 200, payload: customer };
  }

  /**
   * POST /v1/refunds with payment_intent and amount (all that is left when absent): refused with
   * 400 past what the charge has left, as Stripe refuses it; answered `pending` (a card refund
   * still on its way), with `charge.refunded` emitted for the charge's new amount_refunded.
   */
  function createRefund(params: Json): { status: number; payload: object } {
    const charge = charges.get(String(params.payment_intent ?? ""));
    if (!charge) return notFound("payment_intent", String(params.payment_intent ?? ""), "payment_intent");
    const left = Number(charge.amount) - Number(charge.amount_refunded);
    const amount = params.amount === undefined ? left : Number(params.amount);
    if (!(amount > 0) || amount > left)
      return failure(
        400,
        "invalid_request_error",
        `Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${(left / 100).toFixed(2)})`,
        { param: "amount" },
      );
    charge.amount_refunded = Number(charge.amount_refunded) + amount;
    charge.refunded = charge.amount_refunded === charge.amount;
    const refund = {
      id: newId("re"),
      object: "refund",
      amount,
      charge: charge.id,
      currency: charge.currency,
      payment_intent: charge.payment_intent,
      metadata: (params.metadata as Record<string, string> | undefined) ?? {},
      status: "pending",
      created: clock.frozen_time,
    };
    refunds.set(String(refund.id), refund);
    emit("refund.created", refund);
    emit("charge.refunded", charge);
    return { status: 200, payload: refund };
  }

  const shown = ({
    line_items_request: _l,
    subscription_data_request: _s,
    payment_intent_data_request: _p,
    ...session
  }: FakeCheckoutSession) => session;

  function createSession(params: Json): { status: number; payload: object } {
    const mode = (params.mode as FakeCheckoutSession["mode"] | undefined) ?? "payment";
    const lineItems = ((params.line_items as Json[] | undefined) ?? []).map((line) => line);
    if (mode === "payment") {
      const amount = Number((lineItems[0]?.price_data as Json | undefined)?.unit_amount);
      if (amount < 50) {
        return failure(400, "invalid_request_error", "The Checkout Session's total amount due must add up to at least $0.50 usd", {
          code: "amount_too_small",
          param: "line_items[0][price_data][unit_amount]",
        });
      }
    }
    if (mode === "subscription" && !prices.has(String(lineItems[0]?.price))) {
      return failure(400, "invalid_request_error", `No such price: '${String(lineItems[0]?.price)}'`, {
        code: "resource_missing",
        param: "line_items[0][price]",
      });
    }
    const sessionTaxRates = taxRatesNamed(
      mode === "payment" ? lineItems[0]?.tax_rates : (params.subscription_data as Json | undefined)?.default_tax_rates,
    );
    if (typeof sessionTaxRates === "string") return noSuchTaxRate(sessionTaxRates, "tax_rates");
    if (params.customer && params.customer_email) {
      return failure(400, "invalid_request_error", "You may only specify one of these parameters: customer, customer_email.", {
        param: "customer_email",
      });
    }
    if (params.customer && !customers.has(String(params.customer))) {
      return failure(400, "invalid_request_error", `No such customer: '${String(params.customer)}'`, {
        code: "resource_missing",
        param: "customer",
      });
    }
    const id = `cs_test_a1${String(++counter).padStart(6, "0")}`;
    const now = Math.floor(Date.now() / 1000);
    const priceData = lineItems[0]?.price_data as Json | undefined;
    const session: FakeCheckoutSession = {
      id,
      object: "checkout.session",
      mode,
      status: "open",
      payment_status: mode === "setup" ? "no_payment_required" : "unpaid",
      amount_total:
        mode === "payment" ? paymentTotal(Number(priceData?.unit_amount) * Number(lineItems[0]?.quantity), sessionTaxRates) : null,
      currency: mode === "payment" ? String(priceData?.currency ?? "") : ((params.currency as string | undefined) ?? null),
      customer: (params.customer as string | undefined) ?? null,
      customer_email: (params.customer_email as string | undefined) ?? null,
      client_reference_id: (params.client_reference_id as string | undefined) ?? null,
      metadata: (params.metadata as Record<string, string> | undefined) ?? {},
      subscription: null,
      setup_intent: null,
      payment_intent: null,
      success_url: String(params.success_url ?? ""),
      cancel_url: String(params.cancel_url ?? ""),
      url: `https://checkout.stripe.com/c/pay/${id}#fidkdWxOYHwnPyd1blpxYHZxWjA0`,
      created: now,
      expires_at: now + 24 * 3600,
      livemode: false,
      line_items_request: lineItems,
      subscription_data_request: (params.subscription_data as Json | undefined) ?? {},
      payment_intent_data_request: (params.payment_intent_data as Json | undefined) ?? {},
    };
    sessions.set(id, session);
    return { status: 200, payload: shown(session) };
  }

  const paymentTotal = (amount: number, rates: Json[]) => amount + taxesOn(amount, rates).reduce((sum, t) => sum + Number(t.amount), 0);

  function createPrice(params: Json): { status: number; payload: object } {
    const lookupKey = params.lookup_key as string | undefined;
    if (lookupKey && [...prices.values()].some((p) => p.lookup_key === lookupKey)) {
      return failure(400, "invalid_request_error", `A price (\`${lookupKey}\`) already uses that lookup key.`, { param: "lookup_key" });
    }
    let product = params.product as string | undefined;
    if (!product) {
      const data = params.product_data as Json;
      product = newId("prod");
      products.set(product, { id: product, object: "product", name: data.name, active: true, created: clock.frozen_time, livemode: false });
    }
    const recurring = params.recurring as Json | undefined;
    const price = {
      id: newId("price"),
      object: "price",
      active: true,
      currency: params.currency,
      unit_amount: Number(params.unit_amount),
      unit_amount_decimal: String(params.unit_amount),
      lookup_key: lookupKey ?? null,
      nickname: null,
      product,
      recurring: recurring
        ? { interval: recurring.interval, interval_count: Number(recurring.interval_count ?? 1), usage_type: "licensed", meter: null }
        : null,
      type: recurring ? "recurring" : "one_time",
      billing_scheme: "per_unit",
      created: clock.frozen_time,
      livemode: false,
      metadata: {},
    };
    prices.set(price.id, price);
    return { status: 200, payload: price };
  }

  function updateSubscription(subscription: FakeSubscription, params: Json, expand: string[]): { status: number; payload: object } {
    if (subscription.status === "canceled") {
      return failure(400, "invalid_request_error", "A canceled subscription can only update its cancellation_details and metadata.");
    }
    if (params.cancel_at_period_end !== undefined && subscription.schedule) {
      return failure(
        400,
        "invalid_request_error",
        `The subscription is managed by the subscription schedule \`${subscription.schedule}\`, and updating any cancelation behavior directly is not allowed. Please update the schedule instead.`,
      );
    }
    if (params.items !== undefined) return changePrice(subscription, params, expand);
    const previous: Json = {};
    if (params.cancel_at_period_end !== undefined) {
      const cancel = params.cancel_at_period_end === "true";
      if (cancel !== subscription.cancel_at_period_end) {
        Object.assign(previous, { cancel_at_period_end: subscription.cancel_at_period_end, cancel_at: subscription.cancel_at });
        subscription.cancel_at_period_end = cancel;
        subscription.cancel_at = cancel ? subscription.items.data[0]!.current_period_end : null;
        subscription.canceled_at = cancel ? clock.frozen_time : null;
      }
    }
    if (params.default_payment_method !== undefined) {
      const method = paymentMethods.get(String(params.default_payment_method));
      if (!method || method.customer !== subscription.customer) {
        return failure(400, "invalid_request_error", `No such PaymentMethod: '${String(params.default_payment_method)}'`, {
          code: "resource_missing",
          param: "default_payment_method",
        });
      }
      previous.default_payment_method = subscription.default_payment_method;
      subscription.default_payment_method = method.id;
    }
    if (params.metadata !== undefined) {
      previous.metadata = { ...subscription.metadata };
      subscription.metadata = mergedMetadata(subscription.metadata, params.metadata as Record<string, string>);
    }
    if (params.default_tax_rates !== undefined) {
      const rates = taxRatesNamed(params.default_tax_rates);
      if (typeof rates === "string") return noSuchTaxRate(rates, "default_tax_rates");
      previous.default_tax_rates = subscription.default_tax_rates;
      subscription.default_tax_rates = rates;
    }
    if (Object.keys(previous).length > 0) emit("customer.subscription.updated", subscription, previous);
    return { status: 200, payload: expanded(subscription as unknown as Json, expand) };
  }

  /**
   * A new price for the subscription's item, prorated to the second as of `proration_date` (see
   * the header), invoiced and charged at once with `always_invoice`.
   */
  function changePrice(subscription: FakeSubscription, params: Json, expand: string[]): { status: number; payload: object } {
    const item = subscription.items.data[0]!;
    const requested = params.items as Json[];
    if (requested.length !== 1 || requested[0]!.id !== item.id) {
      return failure(400, "invalid_request_error", `No such subscription item: '${String(requested[0]?.id)}'`, {
        code: "resource_missing",
        param: "items[0][id]",
      });
    }
    const price = prices.get(String(requested[0]!.price));
    if (!price) return notFound("price", String(requested[0]!.price), "items[0][price]");
    const behavior = String(params.proration_behavior ?? "create_prorations");
    const paymentBehavior = String(params.payment_behavior ?? "allow_incomplete");
    if (behavior === "create_prorations" || !["allow_incomplete", "error_if_incomplete"].includes(paymentBehavior)) {
      return failure(
        400,
        "invalid_request_error",
        "fake Stripe: only proration_behavior always_invoice or none, paid at once, is modelled.",
      );
    }
    if (params.billing_cycle_anchor !== undefined && typeof params.billing_cycle_anchor !== "object") {
      return failure(400, "invalid_request_error", "Invalid object", { param: "billing_cycle_anchor" });
    }
    const anchor = (params.billing_cycle_anchor as Json | undefined)?.type ?? "unchanged";
    const interval = (p: Json) => (p.recurring as { interval: "month" | "year" }).interval;
    const newPeriod = anchor === "now";
    if (interval(price) !== interval(item.price) && !newPeriod) {
      return failure(400, "invalid_request_error", "Changing to a price with another interval needs billing_cycle_anchor `now`.", {
        param: "billing_cycle_anchor",
      });
    }
    const now = clock.frozen_time;
    const { current_period_start: start, current_period_end: end } = item;
    const prorationDate = params.proration_date === undefined ? now : Number(params.proration_date);
    if (!Number.isInteger(prorationDate) || prorationDate < start || prorationDate >= end) {
      return failure(400, "invalid_request_error", "The proration_date must be within the subscription's current billing period.", {
        param: "proration_date",
      });
    }
    // Stripe's prorations: to the second, each line rounded to the cent on its own.
    const unused = (end - prorationDate) / (end - start);
    const prorated = (unitAmount: unknown) => Math.round(Number(unitAmount) * unused);
    const when = new Date(prorationDate * 1000).toUTCString().slice(5, 16);
    const lines: LineSpec[] = [];
    if (behavior === "always_invoice") {
      lines.push({
        amount: -prorated(item.price.unit_amount),
        price: item.price,
        start: prorationDate,
        end,
        proration: true,
        description: `Unused time on ${priceName(item.price)} after ${when}`,
      });
      if (!newPeriod)
        lines.push({
          amount: prorated(price.unit_amount),
          price,
          start: prorationDate,
          end,
          proration: true,
          description: `Remaining time on ${priceName(price)} after ${when}`,
        });
    }
    const periodEnd = newPeriod ? addMonths(now, interval(price) === "year" ? 12 : 1) : end;
    if (newPeriod)
      lines.push({
        amount: Number(price.unit_amount),
        price,
        start: now,
        end: periodEnd,
        proration: false,
        description: `1 × ${priceName(price)}`,
      });
    if (lines.length > 0 && paymentBehavior === "error_if_incomplete" && !pays(subscription, true)) {
      // Not made: the invoice it would have needed is tried once and voided.
      const latest = subscription.latest_invoice;
      const refused = invoiceWith(subscription, "subscription_update", lines, now, now);
      Object.assign(refused, { attempt_count: 1, attempted: true });
      emit("invoice.payment_failed", refused);
      Object.assign(refused, { status: "void" });
      refused.status_transitions.voided_at = now;
      emit("invoice.voided", refused);
      subscription.latest_invoice = latest;
      return failure(402, "card_error", "Your card was declined.", { code: "card_declined", decline_code: "generic_decline" });
    }
    const previous: Json = { items: { data: [{ ...item }] }, metadata: { ...subscription.metadata } };
    item.price = price;
    if (newPeriod) {
      Object.assign(item, { current_period_start: now, current_period_end: periodEnd });
      previous.billing_cycle_anchor = subscription.billing_cycle_anchor;
      subscription.billing_cycle_anchor = now;
    }
    if (params.metadata !== undefined)
      subscription.metadata = mergedMetadata(subscription.metadata, params.metadata as Record<string, string>);
    emit("customer.subscription.updated", subscription, previous);
    if (lines.length > 0) attempt(invoiceWith(subscription, "subscription_update", lines, now, now), subscription, now, true);
    return { status: 200, payload: expanded(subscription as unknown as Json, expand) };
  }

  function createSchedule(params: Json): { status: number; payload: object } {
    const subscription = subscriptions.get(String(params.from_subscription ?? ""));
    if (!subscription) {
      if (params.from_subscription === undefined)
        return failure(400, "invalid_request_error", "fake Stripe: only schedules made from_subscription are modelled.");
      return notFound("subscription", String(params.from_subscription), "from_subscription");
    }
    if (subscription.schedule) {
      return failure(
        400,
        "invalid_request_error",
        `You cannot migrate a subscription that is already attached to a schedule: \`${subscription.schedule}\`.`,
      );
    }
    const item = subscription.items.data[0]!;
    const phase = { start_date: item.current_period_start, end_date: item.current_period_end };
    const schedule: FakeSchedule = {
      id: newId("sub_sched"),
      object: "subscription_schedule",
      customer: subscription.customer,
      subscription: subscription.id,
      status: "active",
      end_behavior: "release",
      current_phase: phase,
      phases: [{ ...phase, items: [{ price: String(item.price.id), quantity: item.quantity }], metadata: {} }],
      released_at: null,
      released_subscription: null,
      created: clock.frozen_time,
      metadata: {},
      test_clock: clock.id,
      livemode: false,
    };
    schedules.set(schedule.id, schedule);
    subscription.schedule = schedule.id;
    emit("subscription_schedule.created", schedule);
    emit("customer.subscription.updated", subscription, { schedule: null });
    return { status: 200, payload: schedule };
  }

  /** New phases: the current one keeps its start; each later one starts where the one before ends. */
  function updateSchedule(schedule: FakeSchedule, params: Json): { status: number; payload: object } {
    if (schedule.status !== "active") {
      return failure(
        400,
        "invalid_request_error",
        `You cannot update a subscription schedule that is currently in the \`${schedule.status}\` status.`,
      );
    }
    const subscription = subscriptions.get(schedule.subscription!)!;
    const requested = (params.phases as Json[] | undefined) ?? [];
    if (requested.length === 0 || Number(requested[0]!.start_date) !== schedule.current_phase!.start_date) {
      return failure(400, "invalid_request_error", "You can not modify the start date of the current phase.", {
        param: "phases[0][start_date]",
      });
    }
    const phases: FakeSchedulePhase[] = [];
    for (const [i, requestedPhase] of requested.entries()) {
      const items = (requestedPhase.items as Json[] | undefined) ?? [];
      const price = prices.get(String(items[0]?.price));
      if (items.length !== 1 || !price) return notFound("price", String(items[0]?.price), `phases[${i}][items][0][price]`);
      const start = i === 0 ? schedule.current_phase!.start_date : phases[i - 1]!.end_date;
      const duration = requestedPhase.duration as { interval: string; interval_count?: string } | undefined;
      const end =
        requestedPhase.end_date !== undefined
          ? Number(requestedPhase.end_date)
          : duration
            ? addMonths(start, (duration.interval === "year" ? 12 : 1) * Number(duration.interval_count ?? 1))
            : NaN;
      if (!(end > start)) return failure(400, "invalid_request_error", `Phase ${i} needs an end_date or a duration after its start.`);
      phases.push({
        start_date: start,
        end_date: end,
        items: [{ price: price.id as string, quantity: Number(items[0]!.quantity ?? 1) }],
        metadata: (requestedPhase.metadata as Record<string, string> | undefined) ?? {},
      });
    }
    if (phases[0]!.items[0]!.price !== subscription.items.data[0]!.price.id) {
      return failure(400, "invalid_request_error", "fake Stripe: changing the current phase's price is not modelled.");
    }
    schedule.phases = phases;
    schedule.end_behavior = (params.end_behavior as FakeSchedule["end_behavior"] | undefined) ?? schedule.end_behavior;
    schedule.current_phase = { start_date: phases[0]!.start_date, end_date: phases[0]!.end_date };
    // The phase under way applies now: its metadata goes onto the subscription.
    const previous = { metadata: { ...subscription.metadata } };
    subscription.metadata = mergedMetadata(subscription.metadata, phases[0]!.metadata);
    emit("subscription_schedule.updated", schedule);
    emit("customer.subscription.updated", subscription, previous);
    return { status: 200, payload: schedule };
  }

  const failure = (status: number, type: string, message: string, extra: object = {}) => ({
    status,
    payload: { error: { type, message, ...extra } },
  });

  const noSuchTaxRate = (id: string, param: string) =>
    failure(400, "invalid_request_error", `No such tax rate: '${id}'`, { code: "resource_missing", param });

  function createTaxRate(params: Json): { status: number; payload: object } {
    const percentage = Number(params.percentage);
    if (!params.display_name || !(percentage >= 0 && percentage <= 100) || params.inclusive === undefined) {
      return failure(400, "invalid_request_error", "Missing required param: display_name, percentage or inclusive.");
    }
    const rate = {
      id: newId("txr"),
      object: "tax_rate",
      active: true,
      country: (params.country as string | undefined) ?? null,
      state: (params.state as string | undefined) ?? null,
      created: clock.frozen_time,
      description: (params.description as string | undefined) ?? null,
      display_name: params.display_name,
      effective_percentage: percentage,
      flat_amount: null,
      inclusive: params.inclusive === "true",
      jurisdiction: (params.jurisdiction as string | undefined) ?? null,
      jurisdiction_level: null,
      livemode: false,
      metadata: (params.metadata as Record<string, string> | undefined) ?? {},
      percentage,
      rate_type: "percentage",
      tax_type: null,
    };
    taxRates.set(rate.id, rate);
    return { status: 200, payload: rate };
  }

  const notFound = (kind: string, id: string, param = "id") =>
    failure(404, "invalid_request_error", `No such ${kind}: '${id}'`, { code: "resource_missing", param });

  /** The answer to one authenticated request; POSTs go through the idempotency layer. */
  function route(method: string, path: string, params: Json, query: URLSearchParams): { status: number; payload: object } | "slow" {
    const expand = (params.expand as string[] | undefined) ?? [];
    for (const [name, value] of query) if (/^expand\[\d*\]$/.test(name)) expand.push(value);
    let m: RegExpExecArray | null;

    if (method === "POST" && path === "/v1/checkout/sessions") return createSession(params);
    if (method === "POST" && path === "/v1/refunds") return createRefund(params);
    if (method === "POST" && path === "/v1/customers") return createCustomer(params);
    if (method === "POST" && path === "/v1/payment_intents") return createPaymentIntent(params);
    if ((m = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path)) && method === "GET") {
      const id = decodeURIComponent(m[1]!);
      if (id === "cs_test_outage") return failure(500, "api_error", "An unknown error occurred");
      if (id === "cs_test_slow") return "slow";
      const session = sessions.get(id);
      if (!session) return notFound("checkout.session", id, "session");
      return { status: 200, payload: expanded(shown(session), expand) };
    }
    if ((m = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(path)) && method === "POST") {
      const session = sessions.get(decodeURIComponent(m[1]!));
      if (!session) return notFound("checkout.session", m[1]!, "session");
      if (session.status !== "open") {
        return failure(
          400,
          "invalid_request_error",
          `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${session.status}".`,
        );
      }
      session.status = "expired";
      return { status: 200, payload: shown(session) };
    }
    if (method === "GET" && path === "/v1/prices") {
      const keys = [...query.getAll("lookup_keys[]"), ...[...query].filter(([k]) => /^lookup_keys\[\d+\]$/.test(k)).map(([, v]) => v)];
      const data = [...prices.values()].filter((p) => p.active && (keys.length === 0 || keys.includes(String(p.lookup_key))));
      return { status: 200, payload: { object: "list", data, has_more: false, url: "/v1/prices" } };
    }
    if (method === "POST" && path === "/v1/prices") return createPrice(params);
    if (method === "POST" && path === "/v1/tax_rates") return createTaxRate(params);
    if (method === "GET" && path === "/v1/tax_rates") {
      // Newest first, a page at a time after `starting_after`, as Stripe lists them.
      const active = query.get("active");
      const all = [...taxRates.values()].filter((r) => active === null || String(r.active) === active).reverse();
      const after = query.get("starting_after");
      const from = after ? all.findIndex((r) => r.id === after) + 1 : 0;
      const limit = Number(query.get("limit") ?? 10);
      const data = all.slice(from, from + limit);
      return { status: 200, payload: { object: "list", data, has_more: from + limit < all.length, url: "/v1/tax_rates" } };
    }
    if ((m = /^\/v1\/tax_rates\/([^/]+)$/.exec(path)) && method === "GET") {
      const rate = taxRates.get(decodeURIComponent(m[1]!));
      return rate ? { status: 200, payload: rate } : notFound("tax_rate", m[1]!);
    }
    if ((m = /^\/v1\/subscriptions\/([^/]+)$/.exec(path))) {
      const subscription = subscriptions.get(decodeURIComponent(m[1]!));
      if (!subscription) return notFound("subscription", m[1]!);
      if (method === "GET") return { status: 200, payload: expanded(subscription as unknown as Json, expand) };
      if (method === "POST") return updateSubscription(subscription, params, expand);
      if (method === "DELETE") {
        if (subscription.status === "canceled") {
          return failure(400, "invalid_request_error", `No such subscription: '${subscription.id}'`, { code: "resource_missing" });
        }
        endSubscription(subscription, clock.frozen_time);
        return { status: 200, payload: subscription };
      }
    }
    if (method === "POST" && path === "/v1/subscription_schedules") return createSchedule(params);
    if ((m = /^\/v1\/subscription_schedules\/([^/]+)(\/release)?$/.exec(path))) {
      const schedule = schedules.get(decodeURIComponent(m[1]!));
      if (!schedule) return notFound("subscription_schedule", m[1]!);
      if (method === "GET" && !m[2]) return { status: 200, payload: schedule };
      if (method === "POST" && !m[2]) return updateSchedule(schedule, params);
      if (method === "POST") {
        if (schedule.status !== "active") {
          return failure(
            400,
            "invalid_request_error",
            `You cannot release a subscription schedule that is currently in the \`${schedule.status}\` status.`,
          );
        }
        releaseSchedule(schedule, subscriptions.get(schedule.subscription!)!, clock.frozen_time);
        return { status: 200, payload: schedule };
      }
    }
    // A customer deleted: its live subscriptions end, a tombstone stays, and asked again it answers the same.
    if ((m = /^\/v1\/customers\/([^/]+)$/.exec(path)) && method === "DELETE") {
      const customer = customers.get(decodeURIComponent(m[1]!));
      if (!customer) return notFound("customer", m[1]!);
      const deleted = { id: customer.id, object: "customer", deleted: true };
      if (customer.deleted) return { status: 200, payload: deleted };
      for (const s of subscriptions.values())
        if (s.customer === customer.id && s.status !== "canceled") endSubscription(s, clock.frozen_time);
      customers.set(String(customer.id), deleted);
      emit("customer.deleted", customer);
      return { status: 200, payload: deleted };
    }
    if ((m = /^\/v1\/invoices\/([^/]+)\/pay$/.exec(path)) && method === "POST") {
      const invoice = invoices.get(decodeURIComponent(m[1]!));
      if (!invoice) return notFound("invoice", m[1]!);
      if (invoice.status !== "open") return failure(400, "invalid_request_error", "Invoice is already paid");
      const subscription = subscriptions.get(invoice.parent.subscription_details.subscription)!;
      attempt(invoice, subscription, clock.frozen_time, true);
      if (subscription.status === "canceled") return { status: 200, payload: invoice };
      if ((invoice.status as FakeInvoice["status"]) !== "paid") {
        return failure(402, "card_error", "Your card was declined.", { code: "card_declined", decline_code: "generic_decline" });
      }
      return { status: 200, payload: invoice };
    }
    if ((m = /^\/v1\/invoices\/([^/]+)$/.exec(path)) && method === "GET") {
      const invoice = invoices.get(decodeURIComponent(m[1]!));
      return invoice ? { status: 200, payload: invoice } : notFound("invoice", m[1]!);
    }
    if ((m = /^\/v1\/customers\/([^/]+)$/.exec(path)) && method === "GET") {
      const customer = customers.get(decodeURIComponent(m[1]!));
      return customer ? { status: 200, payload: customer } : notFound("customer", m[1]!);
    }
    if ((m = /^\/v1\/test_helpers\/test_clocks\/([^/]+)(\/advance)?$/.exec(path))) {
      if (decodeURIComponent(m[1]!) !== clock.id) return notFound("test_helpers.test_clock", m[1]!);
      if (method === "GET") return { status: 200, payload: clock };
      if (method === "POST" && m[2]) {
        const to = Number(params.frozen_time);
        if (!(to > clock.frozen_time)) {
          return failure(400, "invalid_request_error", "The frozen_time must be after the test clock's current frozen_time.", {
            param: "frozen_time",
          });
        }
        runClock(to);
        emit("test_helpers.test_clock.ready", clock);
        return { status: 200, payload: clock };
      }
    }
    return failure(404, "invalid_request_error", `Unrecognized request URL (${method}: ${path}).`);
  }

  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    const url = new URL(req.url ?? "/", "http://localhost");
    const path = url.pathname;
    const idempotencyKey = req.headers["idempotency-key"] as string | undefined;
    const form = new URLSearchParams(body);
    requests.push({
      method: req.method ?? "",
      path,
      authorization: req.headers.authorization ?? "",
      contentType: req.headers["content-type"] ?? "",
      idempotencyKey,
      stripeVersion: req.headers["stripe-version"] as string | undefined,
      form,
    });
    const json = (status: number, payload: object, headers: Record<string, string> = {}) =>
      res
        .writeHead(status, { "content-type": "application/json", "request-id": `req_${++counter}`, ...headers })
        .end(JSON.stringify(payload));

    const key = (req.headers.authorization ?? "").replace(/^Bearer /, "");
    if (key !== secretKey) {
      return json(401, { error: { type: "invalid_request_error", message: `Invalid API Key provided: sk_test_****${key.slice(-4)}` } });
    }
    if (req.method === "POST" && idempotencyKey && replays.has(idempotencyKey)) {
      const first = replays.get(idempotencyKey)!;
      if (first.params !== body) {
        return json(400, {
          error: {
            type: "idempotency_error",
            message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
          },
        });
      }
      return json(first.status, first.payload, { "idempotent-replayed": "true" });
    }
    const answer = route(req.method ?? "", path, parseStripeForm(form), url.searchParams);
    if (answer === "slow") {
      const timer = setTimeout(() => json(200, { id: "cs_test_slow", object: "checkout.session" }), 2000);
      res.on("close", () => clearTimeout(timer));
      return;
    }
    // Stripe keeps a key's answer unless the request failed on its side (a 500 may be retried).
    if (req.method === "POST" && idempotencyKey && answer.status < 500) replays.set(idempotencyKey, { params: body, ...answer });
    return json(answer.status, answer.payload);
  });

  async function post(event: FakeEvent): Promise<number> {
    if (!webhook) throw new Error("fake Stripe: no webhook endpoint (webhookTo)");
    const payload = JSON.stringify(event, null, 2);
    const response = await fetch(webhook.url, {
      method: "POST",
      body: payload,
      headers: { "Content-Type": "application/json; charset=utf-8", "Stripe-Signature": stripeSignature(payload, webhook.secret) },
    });
    await response.arrayBuffer();
    return response.status;
  }

  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        requests,
        sessions,
        subscriptions,
        schedules,
        invoices,
        paymentIntents,
        charges,
        refunds,
        customers,
        prices,
        taxRates,
        events,
        clock: clock.id,
        now: () => new Date(clock.frozen_time * 1000),
        sessionAt: (paymentUrl) => [...sessions.values()].find((s) => s.url === paymentUrl),
        completeSession(id, paymentStatus = "paid") {
          const session = sessions.get(id);
          if (!session) throw new Error(`fake Stripe: no session ${id}`);
          Object.assign(session, { status: "complete", payment_status: paymentStatus });
          if (session.mode === "payment" && paymentStatus === "paid") charged(session);
          return session;
        },
        pay,
        webhookTo(url, secret) {
          webhook = { url, secret };
        },
        pending: () => events.slice(delivered),
        async deliver(...eventIds) {
          const chosen = eventIds.length > 0 ? eventIds.map((id) => events.find((e) => e.id === id)!) : events.slice(delivered);
          if (eventIds.length === 0) delivered = events.length;
          const statuses: number[] = [];
          for (const event of chosen) statuses.push(await post(event));
          return statuses;
        },
        close() {
          server.closeAllConnections();
          return new Promise<void>((done) => server.close(() => done()));
        },
      });
    }),
  );
}
