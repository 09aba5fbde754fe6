import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { WebhookSignatureError, type CheckoutRequest, type PlanPrice } from "~/server/payments/provider";
import { createStripeProvider, STRIPE_API_VERSION } from "~/server/payments/stripe";
import { startFakeStripe, stripeEventBody, TEST_CARDS, type FakeCheckoutSession, type FakeStripe } from "~/tests/helpers/fake-stripe";

const SECRET_KEY = "sk_test_51MeridianLoopbackKey0000000000";
const WEBHOOK_SECRET = "whsec_loopbackSigningSecret";

async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

const subscription: CheckoutRequest = {
  reference: "sub_chk_01HZX4",
  description: "Digital subscription, monthly",
  amountCents: 1299,
  currency: "usd",
  customerEmail: "reader@example.com",
  successUrl: "https://meridian.example/subscribe/done",
  cancelUrl: "https://meridian.example/subscribe",
};

describe("Stripe provider against a loopback Stripe API", () => {
  let api: FakeStripe;

  beforeAll(async () => {
    api = await startFakeStripe(SECRET_KEY);
  });

  afterAll(async () => {
    await api.close();
  });

  beforeEach(() => {
    api.requests.length = 0;
  });

  const provider = (overrides: { secretKey?: string; apiUrl?: string; timeoutMs?: number } = {}) =>
    createStripeProvider({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, apiUrl: api.url, ...overrides });

  describe("createCheckout", () => {
    it("creates a one-item payment session for the amount, description, e-mail and reference", async () => {
      const session = await provider().createCheckout(subscription);

      expect(session.id).toMatch(/^cs_test_/);
      expect(session.url).toBe(`https://checkout.stripe.com/c/pay/${session.id}#fidkdWxOYHwnPyd1blpxYHZxWjA0`);
      expect(api.requests).toHaveLength(1);
      const request = api.requests[0]!;
      expect(request.method).toBe("POST");
      expect(request.path).toBe("/v1/checkout/sessions");
      expect(request.authorization).toBe(`Bearer ${SECRET_KEY}`);
      expect(request.contentType).toMatch(/^application\/x-www-form-urlencoded/);
      expect(Object.fromEntries(request.form)).toEqual({
        mode: "payment",
        "line_items[0][price_data][currency]": "usd",
        "line_items[0][price_data][unit_amount]": "1299",
        "line_items[0][price_data][product_data][name]": "Digital subscription, monthly",
        "line_items[0][quantity]": "1",
        customer_email: "reader@example.com",
        client_reference_id: "sub_chk_01HZX4",
        "metadata[reference]": "sub_chk_01HZX4",
        success_url: "https://meridian.example/subscribe/done?session_id={CHECKOUT_SESSION_ID}",
        cancel_url: "https://meridian.example/subscribe",
      });
      expect(api.sessions.get(session.id)).toMatchObject({ amount_total: 1299, currency: "usd" });
    });

    it("keeps an existing query and fragment on the success URL, with the placeholder left for Stripe", async () => {
      await provider().createCheckout({
        ...subscription,
        reference: "sub_chk_query",
        successUrl: "https://meridian.example/subscribe/done?plan=monthly&src=paywall#welcome",
      });
      expect(api.requests[0]!.form.get("success_url")).toBe(
        "https://meridian.example/subscribe/done?plan=monthly&src=paywall&session_id={CHECKOUT_SESSION_ID}#welcome",
      );
    });

    it("sends an idempotency key from the reference, so a retried create returns the same session", async () => {
      const stripe = provider();
      const first = await stripe.createCheckout({ ...subscription, reference: "sub_chk_retry" });
      const retried = await stripe.createCheckout({ ...subscription, reference: "sub_chk_retry" });
      const other = await stripe.createCheckout({ ...subscription, reference: "sub_chk_other" });

      expect(retried).toEqual(first);
      expect(other.id).not.toBe(first.id);
      const [key1, key2, key3] = api.requests.map((r) => r.idempotencyKey);
      expect(key1).toContain("sub_chk_retry");
      expect(key2).toBe(key1);
      expect(key3).not.toBe(key1);
    });

    it("rejects with Stripe's status and message when Stripe refuses the session", async () => {
      await expect(provider().createCheckout({ ...subscription, reference: "sub_chk_tiny", amountCents: 10 })).rejects.toThrow(
        "Stripe: create checkout session failed (status 400): The Checkout Session's total amount due must add up to at least $0.50 usd",
      );
    });

    it("rejects on a wrong key without putting the key in the error", async () => {
      const wrongKey = "sk_test_51WrongKeyForMeridian99999999";
      const failure = await provider({ secretKey: wrongKey })
        .createCheckout({ ...subscription, reference: "sub_chk_wrongkey" })
        .then(
          () => {
            throw new Error("expected the create to be rejected");
          },
          (error: unknown) => error as Error,
        );

      expect(failure.message).toMatch(/^Stripe: create checkout session failed \(status 401\): Invalid API Key/);
      expect(failure.message).not.toContain(wrongKey);
      expect(failure.message).not.toContain(SECRET_KEY);
    });

    it("rejects, naming Stripe, when nothing listens at the API address", async () => {
      const unreachable = provider({ apiUrl: await closedPortUrl() });
      await expect(unreachable.createCheckout(subscription)).rejects.toThrow(
        /^Stripe: create checkout session failed \(StripeConnectionError\)/,
      );
    });
  });

  describe("retrieveCheckout", () => {
    async function sessionIn(state: Pick<FakeCheckoutSession, "status" | "payment_status">, reference: string) {
      const { id } = await provider().createCheckout({ ...subscription, reference });
      Object.assign(api.sessions.get(id)!, state);
      return id;
    }

    it("reports an open, unpaid session as not paid", async () => {
      const id = await sessionIn({ status: "open", payment_status: "unpaid" }, "sub_chk_open");
      await expect(provider().retrieveCheckout(id)).resolves.toEqual({ id, reference: "sub_chk_open", paid: false });
      expect(api.requests.at(-1)).toMatchObject({ method: "GET", path: `/v1/checkout/sessions/${id}` });
    });

    it("reports a completed, paid session as paid", async () => {
      const id = await sessionIn({ status: "complete", payment_status: "paid" }, "sub_chk_paid");
      await expect(provider().retrieveCheckout(id)).resolves.toEqual({ id, reference: "sub_chk_paid", paid: true });
    });

    it("reports a completed session with nothing to pay as paid", async () => {
      const id = await sessionIn({ status: "complete", payment_status: "no_payment_required" }, "sub_chk_free");
      await expect(provider().retrieveCheckout(id)).resolves.toMatchObject({ paid: true });
    });

    it("reports a completed session whose delayed payment has not cleared as not paid", async () => {
      const id = await sessionIn({ status: "complete", payment_status: "unpaid" }, "sub_chk_pending");
      await expect(provider().retrieveCheckout(id)).resolves.toMatchObject({ paid: false });
    });

    it("reports an expired session as not paid", async () => {
      const id = await sessionIn({ status: "expired", payment_status: "unpaid" }, "sub_chk_expired");
      await expect(provider().retrieveCheckout(id)).resolves.toMatchObject({ paid: false });
    });

    it("falls back to the metadata reference when the session has no client reference", async () => {
      const id = await sessionIn({ status: "complete", payment_status: "paid" }, "sub_chk_meta");
      api.sessions.get(id)!.client_reference_id = null;
      await expect(provider().retrieveCheckout(id)).resolves.toEqual({ id, reference: "sub_chk_meta", paid: true });
    });

    it("rejects with the status for an unknown session", async () => {
      await expect(provider().retrieveCheckout("cs_test_missing")).rejects.toThrow(
        "Stripe: retrieve checkout session failed (status 404): No such checkout.session: 'cs_test_missing'",
      );
    });

    it("rejects with the status when Stripe has an outage", async () => {
      await expect(provider().retrieveCheckout("cs_test_outage")).rejects.toThrow(
        "Stripe: retrieve checkout session failed (status 500): An unknown error occurred",
      );
      expect(api.requests).toHaveLength(1);
    });

    it("gives up on a slow answer after the timeout", async () => {
      const started = Date.now();
      await expect(provider({ timeoutMs: 200 }).retrieveCheckout("cs_test_slow")).rejects.toThrow(
        /^Stripe: retrieve checkout session failed \(StripeConnectionError\): Request aborted due to timeout/,
      );
      expect(Date.now() - started).toBeLessThan(1500);
    });

    it("refuses an empty session id without asking Stripe", async () => {
      await expect(provider().retrieveCheckout("")).rejects.toThrow(/session id/);
      expect(api.requests).toHaveLength(0);
    });
  });

  describe("expireCheckout", () => {
    it("expires an open session, which then reads as expired", async () => {
      const { id } = await provider().createCheckout({ ...subscription, reference: "ord_expire_open" });
      await expect(provider().expireCheckout(id)).resolves.toBe("closed");
      expect(api.requests.at(-1)).toMatchObject({ method: "POST", path: `/v1/checkout/sessions/${id}/expire` });
      expect(api.sessions.get(id)?.status).toBe("expired");
    });

    it("says paid when the session was paid before it could be expired", async () => {
      const { id } = await provider().createCheckout({ ...subscription, reference: "ord_expire_paid" });
      api.completeSession(id);
      await expect(provider().expireCheckout(id)).resolves.toBe("paid");
      expect(api.requests.at(-1)).toMatchObject({ method: "GET", path: `/v1/checkout/sessions/${id}` });
    });

    it("treats a session that has expired already as closed", async () => {
      const { id } = await provider().createCheckout({ ...subscription, reference: "ord_expire_twice" });
      await provider().expireCheckout(id);
      await expect(provider().expireCheckout(id)).resolves.toBe("closed");
    });

    it("rejects with the status for an unknown session", async () => {
      await expect(provider().expireCheckout("cs_test_unknown")).rejects.toThrow(/^Stripe: expire checkout session failed \(status 404\)/);
    });
  });

  describe("parseWebhook", () => {
    const completedSession = {
      id: "cs_test_a1hook01",
      object: "checkout.session",
      mode: "payment",
      status: "complete",
      payment_status: "paid",
      amount_total: 1299,
      currency: "usd",
      customer_email: "reader@example.com",
      client_reference_id: "sub_chk_hook",
      metadata: { reference: "sub_chk_hook" },
      url: null,
      livemode: false,
    };

    const eventBody = (type: string, object: object, id = "evt_1PqHook") => stripeEventBody(type, object, id);

    const sign = (payload: string, options: { secret?: string; timestamp?: number } = {}) =>
      Stripe.webhooks.generateTestHeaderString({
        payload,
        secret: options.secret ?? WEBHOOK_SECRET,
        ...(options.timestamp === undefined ? {} : { timestamp: options.timestamp }),
      });

    it("reads a correctly signed checkout.session.completed event", () => {
      const body = eventBody("checkout.session.completed", completedSession);
      expect(provider().parseWebhook(body, sign(body))).toEqual({
        type: "checkout.completed",
        eventId: "evt_1PqHook",
        sessionId: "cs_test_a1hook01",
        reference: "sub_chk_hook",
        paid: true,
      });
    });

    it("reports a completed checkout whose delayed payment has not cleared as unpaid", () => {
      const body = eventBody("checkout.session.completed", { ...completedSession, payment_status: "unpaid" });
      expect(provider().parseWebhook(body, sign(body))).toMatchObject({ type: "checkout.completed", paid: false });
    });

    it("reads the later async_payment_succeeded event as a paid completion", () => {
      const body = eventBody("checkout.session.async_payment_succeeded", completedSession, "evt_1PqAsync");
      expect(provider().parseWebhook(body, sign(body))).toEqual({
        type: "checkout.completed",
        eventId: "evt_1PqAsync",
        sessionId: "cs_test_a1hook01",
        reference: "sub_chk_hook",
        paid: true,
      });
    });

    it("acknowledges an unrelated event as other", () => {
      const body = eventBody("payment_intent.succeeded", { id: "pi_3PqHook", object: "payment_intent" }, "evt_1PqOther");
      expect(provider().parseWebhook(body, sign(body))).toEqual({ type: "other", eventId: "evt_1PqOther" });
    });

    it("rejects a body altered after signing", () => {
      const body = eventBody("checkout.session.completed", { ...completedSession, payment_status: "unpaid" });
      const header = sign(body);
      const tampered = body.replace('"payment_status": "unpaid"', '"payment_status": "paid"');
      expect(tampered).not.toBe(body);
      expect(() => provider().parseWebhook(tampered, header)).toThrow(WebhookSignatureError);
    });

    it("rejects a signature made with another secret", () => {
      const body = eventBody("checkout.session.completed", completedSession);
      expect(() => provider().parseWebhook(body, sign(body, { secret: "whsec_someoneElse" }))).toThrow(WebhookSignatureError);
    });

    it("rejects a missing, blank or malformed signature header", () => {
      const body = eventBody("checkout.session.completed", completedSession);
      expect(() => provider().parseWebhook(body, null)).toThrow(WebhookSignatureError);
      expect(() => provider().parseWebhook(body, "")).toThrow(WebhookSignatureError);
      expect(() => provider().parseWebhook(body, "not-a-signature")).toThrow(WebhookSignatureError);
    });

    it("rejects a correctly signed event whose timestamp is too old to trust", () => {
      const body = eventBody("checkout.session.completed", completedSession);
      const tenMinutesAgo = Math.floor(Date.now() / 1000) - 600;
      expect(() => provider().parseWebhook(body, sign(body, { timestamp: tenMinutesAgo }))).toThrow(WebhookSignatureError);
    });

    it("keeps the rejection message to one short line", () => {
      const body = eventBody("checkout.session.completed", completedSession);
      const failure = (() => {
        try {
          provider().parseWebhook(body, sign(body, { secret: "whsec_someoneElse" }));
        } catch (error) {
          return error as Error;
        }
      })();
      expect(failure?.message).toBe("Stripe signature rejected: No signatures found matching the expected signature for payload");
    });
  });

  describe("Stripe Billing", () => {
    const renewing: CheckoutRequest = {
      ...subscription,
      amountCents: 1200,
      saveCard: true,
      recurring: { key: "plan:digital:1200", productName: "Meridian Review Digital", interval: "month", planId: "digital" },
    };

    it("opens a subscription-mode session with the plan's Price, created once by lookup key and found again after", async () => {
      const first = await provider().createCheckout({ ...renewing, reference: "sub_chk_renew1" });
      const second = await provider().createCheckout({ ...renewing, reference: "sub_chk_renew2" });
      const prices = [...api.prices.values()];
      expect(prices).toEqual([
        expect.objectContaining({
          lookup_key: "plan:digital:1200",
          unit_amount: 1200,
          currency: "usd",
          recurring: expect.objectContaining({ interval: "month" }),
        }),
      ]);
      const created = api.requests.filter((r) => r.method === "POST" && r.path === "/v1/prices");
      expect(created).toHaveLength(1);
      expect(created[0]!.idempotencyKey).toBe("price:plan:digital:1200");
      const sessions = api.requests.filter((r) => r.method === "POST" && r.path === "/v1/checkout/sessions");
      expect(Object.fromEntries(sessions[0]!.form)).toMatchObject({
        mode: "subscription",
        "line_items[0][price]": prices[0]!.id,
        "line_items[0][quantity]": "1",
        customer_email: "reader@example.com",
        client_reference_id: "sub_chk_renew1",
        "subscription_data[metadata][reference]": "sub_chk_renew1",
        "subscription_data[metadata][plan]": "digital",
      });
      expect(sessions.every((r) => r.stripeVersion === STRIPE_API_VERSION)).toBe(true);
      expect(second.id).not.toBe(first.id);
    });

    it("reports the paid session's subscription, customer and card", async () => {
      const { id } = await provider().createCheckout({ ...renewing, reference: "sub_chk_renew3" });
      api.pay(id, TEST_CARDS.succeeds);
      const state = await provider().retrieveCheckout(id);
      const stripeSubscription = api.subscriptions.get(api.sessions.get(id)!.subscription!)!;
      expect(state).toEqual({
        id,
        reference: "sub_chk_renew3",
        paid: true,
        subscription: { id: stripeSubscription.id, customerId: stripeSubscription.customer },
        card: { id: stripeSubscription.default_payment_method, brand: "Visa", last4: "4242" },
      });
    });

    it("saves a card in a setup session for the customer and makes it the subscription's default", async () => {
      const { id } = await provider().createCheckout({ ...renewing, reference: "sub_chk_renew4" });
      api.pay(id, TEST_CARDS.declinesLater);
      const stripeSubscription = api.subscriptions.get(api.sessions.get(id)!.subscription!)!;
      const setup = await provider().createCheckout({
        ...subscription,
        reference: "card_change_4",
        setup: true,
        customerId: stripeSubscription.customer,
      });
      expect(api.requests.at(-1)!.form.get("mode")).toBe("setup");
      expect(api.requests.at(-1)!.form.get("customer")).toBe(stripeSubscription.customer);
      expect(await provider().retrieveCheckout(setup.id)).toMatchObject({ paid: false, card: null });
      api.pay(setup.id, "5555555555554444");
      const { card } = await provider().retrieveCheckout(setup.id);
      expect(card).toMatchObject({ brand: "Mastercard", last4: "4444" });
      await provider().subscriptions!.setDefaultPaymentMethod(stripeSubscription.id, card!.id, "card:4");
      expect(stripeSubscription.default_payment_method).toBe(card!.id);
      expect(api.requests.at(-1)).toMatchObject({ path: `/v1/subscriptions/${stripeSubscription.id}`, idempotencyKey: "card:4" });
    });

    it("adds sales tax through a tax rate made once per key and found again by its metadata; sets and clears a subscription's", async () => {
      const newYork = { key: "sales-tax:US:NY:400", countryCode: "US", region: "NY", basisPoints: 400, displayName: "Sales tax" };
      const taxed = { ...renewing, tax: { rate: newYork, cents: 48 } };
      const { id } = await provider().createCheckout({ ...taxed, reference: "sub_chk_tax1" });
      await provider().createCheckout({ ...taxed, reference: "sub_chk_tax2" });
      const created = api.requests.filter((r) => r.method === "POST" && r.path === "/v1/tax_rates");
      expect(created).toHaveLength(1);
      expect(created[0]!.idempotencyKey).toBe("tax-rate:sales-tax:US:NY:400");
      expect(Object.fromEntries(created[0]!.form)).toEqual({
        display_name: "Sales tax",
        percentage: "4",
        inclusive: "false",
        country: "US",
        state: "NY",
        jurisdiction: "NY",
        "metadata[meridian_key]": "sales-tax:US:NY:400",
      });
      const [rate] = api.taxRates.values();
      const sessions = api.requests.filter((r) => r.method === "POST" && r.path === "/v1/checkout/sessions");
      expect(sessions.map((r) => r.form.get("subscription_data[default_tax_rates][0]"))).toEqual([rate!.id, rate!.id]);

      // Stripe adds the tax to the first invoice itself, as the site works it out.
      api.pay(id);
      const subscriptionId = api.sessions.get(id)!.subscription!;
      const first = api.invoices.get(api.subscriptions.get(subscriptionId)!.latest_invoice!)!;
      expect(first).toMatchObject({ subtotal: 1200, total: 1248, amount_paid: 1248, total_taxes: [{ amount: 48 }] });

      const ontario = { key: "sales-tax:CA:500", countryCode: "CA", region: null, basisPoints: 500, displayName: "GST" };
      await provider().subscriptions!.setTaxRate(subscriptionId, ontario, "tax-rate:1");
      const gst = [...api.taxRates.values()].find((r) => r.country === "CA")!;
      expect(gst).toMatchObject({ percentage: 5, state: null, jurisdiction: "CA" });
      expect(api.subscriptions.get(subscriptionId)!.default_tax_rates).toEqual([gst]);
      await provider().subscriptions!.setTaxRate(subscriptionId, null, "tax-rate:2");
      expect(api.requests.at(-1)).toMatchObject({ path: `/v1/subscriptions/${subscriptionId}`, idempotencyKey: "tax-rate:2" });
      expect(api.requests.at(-1)!.form.get("default_tax_rates")).toBe("");
      expect(api.subscriptions.get(subscriptionId)!.default_tax_rates).toEqual([]);
    });

    it("cancels at period end and takes it back, each call with its key; a key reused for the other change is refused", async () => {
      const { id } = await provider().createCheckout({ ...renewing, reference: "sub_chk_renew5" });
      api.pay(id);
      const subscriptionId = api.sessions.get(id)!.subscription!;
      await provider().subscriptions!.setCancelAtPeriodEnd(subscriptionId, true, "cancel:5");
      await provider().subscriptions!.setCancelAtPeriodEnd(subscriptionId, true, "cancel:5");
      expect(api.subscriptions.get(subscriptionId)!.cancel_at_period_end).toBe(true);
      expect(api.events.filter((e) => e.type === "customer.subscription.updated" && e.data.object.id === subscriptionId)).toHaveLength(1);
      await expect(provider().subscriptions!.setCancelAtPeriodEnd(subscriptionId, false, "cancel:5")).rejects.toThrow(
        /^Stripe: update subscription failed \(status 400\): Keys for idempotent requests/,
      );
      await provider().subscriptions!.setCancelAtPeriodEnd(subscriptionId, false, "resume:5");
      expect(api.subscriptions.get(subscriptionId)!.cancel_at_period_end).toBe(false);
    });

    const premium: PlanPrice = {
      key: "plan:premium:2000",
      productName: "Meridian Review Premium",
      interval: "month",
      planId: "premium",
      amountCents: 2000,
    };

    it("changes the plan now: the item's price, prorated as of the quote and paid at once, answered as a paid change; a declined card changes nothing", async () => {
      const { id } = await provider().createCheckout({ ...renewing, reference: "sub_chk_change1" });
      api.pay(id);
      const subscriptionId = api.sessions.get(id)!.subscription!;
      const current = await provider().subscriptions!.retrievePlan(subscriptionId);
      const item = api.subscriptions.get(subscriptionId)!.items.data[0]!;
      expect(current).toEqual({
        itemId: item.id,
        period: { start: new Date(item.current_period_start * 1000), end: new Date(item.current_period_end * 1000) },
        scheduleId: null,
      });
      const prorationDate = new Date((item.current_period_start + 10 * 86_400 + 17) * 1000);
      const change = { subscriptionId, current, to: premium, prorationDate, newPeriod: false, idempotencyKey: "upgrade:1" };
      const outcome = await provider().subscriptions!.changePlanNow(change);
      const update = api.requests.find((r) => r.path === `/v1/subscriptions/${subscriptionId}` && r.method === "POST")!;
      expect(Object.fromEntries(update.form)).toEqual({
        "items[0][id]": item.id,
        "items[0][price]": [...api.prices.values()].find((p) => p.lookup_key === "plan:premium:2000")!.id,
        proration_behavior: "always_invoice",
        proration_date: String(prorationDate.getTime() / 1000),
        payment_behavior: "error_if_incomplete",
        "metadata[plan]": "premium",
        "expand[0]": "latest_invoice",
      });
      expect(update.idempotencyKey).toBe("upgrade:1");
      const invoice = api.invoices.get(api.subscriptions.get(subscriptionId)!.latest_invoice!)!;
      expect(outcome).toEqual({
        status: "paid",
        invoice: {
          invoiceId: invoice.id,
          kind: "change",
          amountCents: invoice.amount_paid,
          taxCents: 0,
          periodStart: prorationDate,
          periodEnd: current.period.end,
          planId: "premium",
        },
      });
      // Asked again with the same key: Stripe's first answer, and no second invoice.
      const invoices = api.invoices.size;
      expect(await provider().subscriptions!.changePlanNow(change)).toEqual(outcome);
      expect(api.invoices.size).toBe(invoices);

      const declining = await provider().createCheckout({ ...renewing, reference: "sub_chk_change2" });
      api.pay(declining.id, TEST_CARDS.declinesLater);
      const declinedId = api.sessions.get(declining.id)!.subscription!;
      const plan = await provider().subscriptions!.retrievePlan(declinedId);
      expect(
        await provider().subscriptions!.changePlanNow({
          ...change,
          subscriptionId: declinedId,
          current: plan,
          idempotencyKey: "upgrade:2",
        }),
      ).toEqual({ status: "declined" });
      expect(api.subscriptions.get(declinedId)!.items.data[0]!.price.lookup_key).toBe("plan:digital:1200");
    });

    it("sets the next plan with a schedule made from the subscription, and takes it back by releasing it, before a cancel too", async () => {
      const { id } = await provider().createCheckout({ ...renewing, reference: "sub_chk_change3" });
      api.pay(id);
      const subscriptionId = api.sessions.get(id)!.subscription!;
      const current = await provider().subscriptions!.retrievePlan(subscriptionId);
      const from: PlanPrice = {
        ...premium,
        key: "plan:digital:1200",
        productName: "Meridian Review Digital",
        planId: "digital",
        amountCents: 1200,
      };
      await provider().subscriptions!.changePlanAtRenewal({ subscriptionId, current, from, to: premium, idempotencyKey: "downgrade:3" });
      const [created, updated] = api.requests.filter((r) => r.path.startsWith("/v1/subscription_schedules") && r.method === "POST");
      expect(created).toMatchObject({ path: "/v1/subscription_schedules", idempotencyKey: "downgrade:3:schedule" });
      expect(created!.form.get("from_subscription")).toBe(subscriptionId);
      const scheduleId = api.subscriptions.get(subscriptionId)!.schedule!;
      expect(updated).toMatchObject({ path: `/v1/subscription_schedules/${scheduleId}`, idempotencyKey: "downgrade:3" });
      const periodStart = String(current.period.start.getTime() / 1000);
      expect(Object.fromEntries(updated!.form)).toMatchObject({
        end_behavior: "release",
        proration_behavior: "none",
        "phases[0][start_date]": periodStart,
        "phases[0][end_date]": String(current.period.end.getTime() / 1000),
        "phases[0][metadata][plan]": "digital",
        "phases[1][duration][interval]": "month",
        "phases[1][duration][interval_count]": "1",
        "phases[1][metadata][plan]": "premium",
      });
      expect((await provider().subscriptions!.retrievePlan(subscriptionId)).scheduleId).toBe(scheduleId);

      await provider().subscriptions!.keepPlan(subscriptionId);
      expect(api.requests.at(-1)).toMatchObject({
        path: `/v1/subscription_schedules/${scheduleId}/release`,
        idempotencyKey: `release:${scheduleId}`,
      });
      expect(api.subscriptions.get(subscriptionId)!.schedule).toBeNull();
      await provider().subscriptions!.keepPlan(subscriptionId);
      expect(api.requests.at(-1)!.method).toBe("GET");

      const current2 = await provider().subscriptions!.retrievePlan(subscriptionId);
      await provider().subscriptions!.changePlanAtRenewal({
        subscriptionId,
        current: current2,
        from,
        to: premium,
        idempotencyKey: "downgrade:4",
      });
      await provider().subscriptions!.setCancelAtPeriodEnd(subscriptionId, true, "cancel:4");
      expect(api.subscriptions.get(subscriptionId)).toMatchObject({ schedule: null, cancel_at_period_end: true });
    });

    const sign = (payload: string) => Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    const parse = (type: string, object: object, id: string) => {
      const body = stripeEventBody(type, object, id);
      return provider().parseWebhook(body, sign(body));
    };

    it("reads invoice.paid for a renewal: the subscription from invoice.parent, the service period from its lines", async () => {
      const { id } = await provider().createCheckout({ ...renewing, reference: "sub_chk_renew6" });
      api.pay(id);
      const subscriptionId = api.sessions.get(id)!.subscription!;
      const first = api.invoices.get(api.subscriptions.get(subscriptionId)!.latest_invoice!)!;
      expect(parse("invoice.paid", first, "evt_first")).toMatchObject({ type: "invoice.paid", kind: "first", subscriptionId });
      const stripeClock = new Stripe(SECRET_KEY, { host: "127.0.0.1", port: Number(new URL(api.url).port), protocol: "http" });
      const clock = await stripeClock.testHelpers.testClocks.retrieve(api.clock);
      await stripeClock.testHelpers.testClocks.advance(api.clock, { frozen_time: clock.frozen_time + 32 * 86_400 });
      const renewal = api.invoices.get(api.subscriptions.get(subscriptionId)!.latest_invoice!)!;
      const line = renewal.lines.data[0] as { period: { start: number; end: number } };
      expect(parse("invoice.paid", renewal, "evt_renewal")).toEqual({
        type: "invoice.paid",
        eventId: "evt_renewal",
        created: expect.any(Date),
        subscriptionId,
        invoiceId: renewal.id,
        kind: "renewal",
        amountCents: 1200,
        taxCents: 0,
        periodStart: new Date(line.period.start * 1000),
        periodEnd: new Date(line.period.end * 1000),
        planId: "digital",
      });
      expect(renewal.period_end).toBe(line.period.start);
    });

    it("reads invoice.payment_failed, subscription updates and deletion", () => {
      const invoice = {
        id: "in_failed",
        object: "invoice",
        attempt_count: 2,
        billing_reason: "subscription_cycle",
        parent: { type: "subscription_details", subscription_details: { subscription: "sub_x", metadata: {} }, quote_details: null },
        lines: {
          object: "list",
          data: [{ period: { start: 1_800_000_000, end: 1_802_592_000 }, parent: { type: "subscription_item_details" } }],
        },
      };
      expect(parse("invoice.payment_failed", invoice, "evt_failed")).toMatchObject({
        type: "invoice.payment_failed",
        subscriptionId: "sub_x",
        renewal: true,
        attempt: 2,
        periodEnd: new Date(1_802_592_000_000),
      });
      const sub = { id: "sub_x", object: "subscription", status: "past_due", cancel_at_period_end: true, ended_at: null };
      expect(parse("customer.subscription.updated", sub, "evt_upd")).toMatchObject({
        type: "subscription.updated",
        cancelAtPeriodEnd: true,
        status: "past_due",
      });
      expect(parse("customer.subscription.deleted", { ...sub, status: "canceled", ended_at: 1_802_592_000 }, "evt_del")).toMatchObject({
        type: "subscription.deleted",
        endedAt: new Date(1_802_592_000_000),
      });
      expect(parse("invoice.paid", { ...invoice, parent: null }, "evt_noparent")).toEqual({ type: "other", eventId: "evt_noparent" });
    });
  });
});
