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
 * It speaks Checkout (modes payment, subscription and setup), Customers, Products and Prices (by
 * lookup_key), Tax Rates, Subscriptions (retrieve; update cancel_at_period_end, default_payment_method
 * and default_tax_rates; cancel), Invoices and test clocks, as of the API version the installed package pins
 * (STRIPE_API_VERSION): a subscription's period is on its items, an invoice names its
 * subscription under `parent.subscription_details` and its service period on its lines.
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

/** Test cards (the real numbers): succeeds; declined at checkout; saved, then declined when charged later. */
export const TEST_CARDS = { succeeds: "4242424242424242", declined: "4000000000000002", declinesLater: "4000000000000341" } as const;

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
}

export interface FakeSubscription {
  id: string;
  object: "subscription";
  customer: string;
  status: "active" | "past_due" | "canceled";
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
  status: "draft" | "open" | "paid";
  billing_reason: "subscription_create" | "subscription_cycle";
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
  status_transitions: { finalized_at: number | null; paid_at: number | null; marked_uncollectible_at: null; voided_at: null };
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
  invoices: Map<string, FakeInvoice>;
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
  const invoices = new Map<string, FakeInvoice>();
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
      declines_off_session: number === TEST_CARDS.declinesLater,
    };
    paymentMethods.set(method.id, method);
    return method;
  }

  function invoiceFor(
    subscription: FakeSubscription,
    reason: FakeInvoice["billing_reason"],
    start: number,
    end: number,
    previous: number,
  ): FakeInvoice {
    const item = subscription.items.data[0]!;
    const amount = Number(item.price.unit_amount);
    const taxes = taxesOn(amount, subscription.default_tax_rates);
    const tax = taxes.reduce((sum, t) => sum + Number(t.amount), 0);
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
      subtotal: amount,
      total: amount + tax,
      total_excluding_tax: amount,
      total_taxes: taxes,
      attempt_count: 0,
      attempted: false,
      next_payment_attempt: null,
      created: clock.frozen_time,
      period_start: previous,
      period_end: start,
      number: `MRFAKE-${String(++invoiceNumber).padStart(4, "0")}`,
      parent: {
        type: "subscription_details",
        quote_details: null,
        subscription_details: { subscription: subscription.id, metadata: { ...subscription.metadata } },
      },
      lines: {
        object: "list",
        data: [
          {
            id: newId("il"),
            object: "line_item",
            amount,
            taxes,
            currency: subscription.currency,
            description: `1 × ${String(item.price.nickname ?? item.price.id)}`,
            invoice: id,
            period: { start, end },
            quantity: 1,
            pricing: {
              type: "price_details",
              price_details: { price: item.price.id, product: item.price.product },
              unit_amount_decimal: String(amount),
            },
            parent: {
              type: "subscription_item_details",
              invoice_item_details: null,
              subscription_item_details: {
                subscription: subscription.id,
                subscription_item: item.id,
                proration: false,
                invoice_item: null,
              },
            },
            livemode: false,
            metadata: {},
          },
        ],
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
        amount: Math.round((amount * Math.round(Number(rate.percentage) * 10_000)) / 1_000_000),
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
  function attempt(invoice: FakeInvoice, subscription: FakeSubscription, at: number, offSession: boolean): void {
    const method = paymentMethods.get(subscription.default_payment_method ?? "");
    invoice.attempt_count++;
    invoice.attempted = true;
    if (method && !(offSession && method.declines_off_session)) {
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
    Object.assign(subscription, { status: "canceled", ended_at: at, canceled_at: subscription.canceled_at ?? at });
    emit("customer.subscription.deleted", subscription);
  }

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
            const previous = { items: { data: [{ ...item }] } };
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
    Object.assign(session, { status: "complete", payment_status: session.mode === "setup" ? "no_payment_required" : "paid" });
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
      ["sub_", subscriptions],
      ["cus_", customers],
      ["pm_", paymentMethods],
      ["seti_", setupIntents],
      ["in_", invoices],
      ["price_", prices],
      ["prod_", products],
      ["txr_", taxRates],
    ];
    return stores.find(([prefix]) => id.startsWith(prefix))?.[1].get(id);
  }

  /** What Stripe shows of a session: without the fake's own request fields. */
  const shown = ({ line_items_request: _l, subscription_data_request: _s, ...session }: FakeCheckoutSession) => session;

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
    if (mode === "setup" && params.customer && !customers.has(String(params.customer))) {
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
      success_url: String(params.success_url ?? ""),
      cancel_url: String(params.cancel_url ?? ""),
      url: `https://checkout.stripe.com/c/pay/${id}#fidkdWxOYHwnPyd1blpxYHZxWjA0`,
      created: now,
      expires_at: now + 24 * 3600,
      livemode: false,
      line_items_request: lineItems,
      subscription_data_request: (params.subscription_data as Json | undefined) ?? {},
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

  function updateSubscription(subscription: FakeSubscription, params: Json): { status: number; payload: object } {
    if (subscription.status === "canceled") {
      return failure(400, "invalid_request_error", "A canceled subscription can only update its cancellation_details and metadata.");
    }
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
    if (params.default_tax_rates !== undefined) {
      const rates = taxRatesNamed(params.default_tax_rates);
      if (typeof rates === "string") return noSuchTaxRate(rates, "default_tax_rates");
      previous.default_tax_rates = subscription.default_tax_rates;
      subscription.default_tax_rates = rates;
    }
    if (Object.keys(previous).length > 0) emit("customer.subscription.updated", subscription, previous);
    return { status: 200, payload: subscription };
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
      if (method === "POST") return updateSubscription(subscription, params);
      if (method === "DELETE") {
        if (subscription.status === "canceled") {
          return failure(400, "invalid_request_error", `No such subscription: '${subscription.id}'`, { code: "resource_missing" });
        }
        endSubscription(subscription, clock.frozen_time);
        return { status: 200, payload: subscription };
      }
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
        invoices,
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
          return Object.assign(session, { status: "complete", payment_status: paymentStatus });
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
