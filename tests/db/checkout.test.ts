import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertUser } from "~/server/accounts/users";
import type { Mailer, MailMessage } from "~/server/adapters/mail";
import type { Database } from "~/server/db/connection";
import type { PaymentProvider, RefundRequest } from "~/server/payments/provider";
import { CHECKOUT_EXPIRED, createSandboxProvider, SANDBOX_CARDS } from "~/server/payments/sandbox";
import { addressProblems, normalizeAddress } from "~/shared/address";
import { addToCart, createCart, readCart } from "~/server/store/cart";
import {
  buildReview,
  EMPTY_DRAFT,
  readDraft,
  saveAddress,
  saveDraft,
  savedAddresses,
  submitShippingPayment,
  type CheckoutDraft,
} from "~/server/store/checkout";
import { sendOrderConfirmation } from "~/server/store/order-mail";
import { cancelOrder, handleOrderPaymentEvent, markOrderPaid, settleOrder, startOrderPayment } from "~/server/store/order-payment";
import { claimGuestOrders, findOrder, listOrders, orderForViewer } from "~/server/store/order-records";
import { issueIdempotencyKey, submitOrder } from "~/server/store/order-submit";
import { cancelAbandonedOrders } from "~/server/store/order-sweep";
import { evaluatePromo } from "~/server/store/promo";
import { redeemVoucher, voucherState } from "~/server/store/vouchers";
import { NOON_IN_NEW_YORK as NOON, NY_ADDRESS as NY, STORE_OPEN as OPEN } from "~/tests/helpers/store-checkout";
import { seededTestDatabase } from "~/tests/helpers/test-db";
import { cartLineType } from "~/shared/product-types";

let db: Database;
let close: () => Promise<void>;
const ids = { hardcover: 0, ebook: 0, caseStudy: 0, comingSoon: 0 };
const price = { hardcover: 0, ebook: 0, caseStudy: 0 };

beforeAll(async () => {
  ({ db, close } = await seededTestDatabase());
  const rows = await db
    .selectFrom("product_availability as a")
    .innerJoin("product as p", "p.id", "a.product_id")
    .select(["a.id", "a.code", "a.status", "a.list_price_cents", "p.product_type"])
    .orderBy("a.id")
    .execute();
  const first = (test: (r: (typeof rows)[number]) => boolean) => rows.find(test)!;
  const hardcover = first((r) => r.code === "HBK" && r.status === "A");
  const ebook = first((r) => r.code === "KND" && r.status === "A");
  const caseStudy = first((r) => r.product_type === "Case Study" && r.status === "A");
  Object.assign(ids, { hardcover: hardcover.id, ebook: ebook.id, caseStudy: caseStudy.id, comingSoon: first((r) => r.status === "F").id });
  Object.assign(price, { hardcover: hardcover.list_price_cents, ebook: ebook.list_price_cents, caseStudy: caseStudy.list_price_cents });
});
afterAll(() => close());

/** 8am in New York, the day of NOON: inside the daily maintenance window. */
const EIGHT_AM = new Date("2026-11-24T13:00:00Z");

async function cartWith(lines: { id: number; quantity?: number }[]): Promise<string> {
  const cart = await createCart(db, null);
  for (const l of lines) {
    const { code } = await db.selectFrom("product_availability").select("code").where("id", "=", l.id).executeTakeFirstOrThrow();
    const type = cartLineType("item", code);
    const added = await addToCart(db, cart, { availabilityId: l.id, type, quantity: l.quantity ?? 1, referral: null });
    expect(added.ok).toBe(true);
  }
  return cart;
}

async function readyCart(lines: { id: number; quantity?: number }[], draft: Partial<CheckoutDraft> = {}): Promise<string> {
  const cart = await cartWith(lines);
  await saveDraft(db, cart, {
    ...EMPTY_DRAFT,
    email: "shopper@example.org",
    address: NY,
    shippingMethod: "standard",
    confirmed: true,
    ...draft,
  });
  return cart;
}

async function reviewTotal(cartId: string): Promise<number> {
  const outcome = await buildReview(
    db,
    { cart: await readCart(db, cartId), draft: await readDraft(db, cartId), userId: null, accountEmail: null },
    NOON,
  );
  if (!outcome.ok) throw new Error(outcome.problem);
  return outcome.review.totals.totalCents;
}

const sandbox = () => createSandboxProvider(db, { siteUrl: "https://site", webhookSecret: "whsec_test" });
const payUrls = { successUrl: "https://site/ok", cancelUrl: "https://site/no" };
const sessionOf = async (orderId: string) =>
  (await db.selectFrom("store_order").select("provider_session_id").where("id", "=", orderId).executeTakeFirstOrThrow())
    .provider_session_id!;

const submit = async (cartId: string, key = issueIdempotencyKey(), shown?: number) =>
  submitOrder(
    db,
    OPEN,
    { cartId, userId: null, accountEmail: null, idempotencyKey: key, shownTotalCents: shown ?? (await reviewTotal(cartId)) },
    NOON,
  );

/** A payment provider double that opens numbered sessions, one per reference, and reports the paid ones. */
function fakeProvider() {
  const sessions: { id: string; reference: string }[] = [];
  const paid = new Set<string>();
  const refunds: RefundRequest[] = [];
  const provider: PaymentProvider = {
    name: "sandbox",
    async createCheckout(request) {
      await new Promise((r) => setTimeout(r, 20));
      // As every provider must: one session per reference.
      const opened = sessions.find((s) => s.reference === request.reference);
      if (opened) return { id: opened.id, url: `https://pay.example/${opened.id}` };
      const id = `sess_${sessions.length + 1}`;
      sessions.push({ id, reference: request.reference });
      return { id, url: `https://pay.example/${id}` };
    },
    async retrieveCheckout(id) {
      return { id, reference: sessions.find((s) => s.id === id)!.reference, paid: paid.has(id) };
    },
    async expireCheckout(id) {
      return paid.has(id) ? "paid" : "closed";
    },
    parseWebhook() {
      throw new Error("not used");
    },
    async refund(request) {
      refunds.push(request);
      return { id: `re_${refunds.length}`, paymentId: `pi_${request.sessionId}`, status: "succeeded" };
    },
  };
  return { provider, sessions, paid, refunds };
}

describe("totals", () => {
  it("adds tax on the discounted amount and shipping for the physical units only", async () => {
    const cart = await readyCart([{ id: ids.hardcover, quantity: 2 }, { id: ids.ebook }], { promoCode: "welcome10" });
    const outcome = await buildReview(
      db,
      { cart: await readCart(db, cart), draft: await readDraft(db, cart), userId: null, accountEmail: null },
      NOON,
    );
    if (!outcome.ok) throw new Error(outcome.problem);
    const { totals } = outcome.review;
    const subtotal = price.hardcover * 2 + price.ebook;
    const discount = Math.round(subtotal * 0.1);
    expect(totals.subtotalCents).toBe(subtotal);
    expect(totals.discountCents).toBe(discount);
    // New York's 4% state rate, on the discounted amount.
    expect(totals.taxCents).toBe(Math.round((subtotal - discount) * 0.04));
    // Standard: $5.95 for the first shipped unit, $1 for the second; the ebook ships nothing.
    expect(totals.shippingCents).toBe(695);
    expect(totals.totalCents).toBe(subtotal - discount + totals.taxCents + 695);
  });

  it("charges no shipping and needs no method for a digital-only order", async () => {
    const cart = await readyCart([{ id: ids.ebook }], { shippingMethod: "" });
    const outcome = await buildReview(
      db,
      { cart: await readCart(db, cart), draft: await readDraft(db, cart), userId: null, accountEmail: null },
      NOON,
    );
    if (!outcome.ok) throw new Error(outcome.problem);
    expect(outcome.review.method).toBeNull();
    expect(outcome.review.totals.shippingCents).toBe(0);
  });

  it("sends a cart with physical items but no method for its country back to shipping and payment", async () => {
    const cart = await readyCart([{ id: ids.hardcover }], { shippingMethod: "international" });
    const outcome = await buildReview(
      db,
      { cart: await readCart(db, cart), draft: await readDraft(db, cart), userId: null, accountEmail: null },
      NOON,
    );
    expect(outcome).toEqual({ ok: false, problem: "incomplete" });
  });
});

describe("promo codes", () => {
  const lines = (productType: string, cents: number) => [{ productType, lineTotalCents: cents }];

  it("tells valid, expired, not applicable and unknown apart, each with its own message", async () => {
    const valid = await evaluatePromo(db, " welcome10 ", lines("Book", 3000), NOON);
    expect(valid).toMatchObject({ status: "valid", discountCents: 300, message: "Promo code WELCOME10 applied: 10% off your order." });
    expect(await evaluatePromo(db, "SUMMER24", lines("Book", 3000), NOON)).toEqual({
      status: "expired",
      message: "The promo code SUMMER24 has expired.",
    });
    expect(await evaluatePromo(db, "CASES25", lines("Book", 3000), NOON)).toEqual({
      status: "not-applicable",
      message: "The promo code CASES25 does not apply to the items in your cart. It applies to case study items only.",
    });
    expect(await evaluatePromo(db, "NOPE", lines("Book", 3000), NOON)).toEqual({
      status: "unknown",
      message: "We don't recognise the promo code NOPE. Please check it and try again.",
    });
  });

  it("discounts only the product type a code is for", async () => {
    const outcome = await evaluatePromo(db, "CASES25", [...lines("Book", 3000), ...lines("Case Study", 895)], NOON);
    expect(outcome).toMatchObject({ status: "valid", discountCents: 224 });
  });

  it("was valid before its expiry date and is unknown before it starts", async () => {
    expect((await evaluatePromo(db, "SUMMER24", lines("Book", 3000), new Date("2024-07-01T12:00:00Z"))).status).toBe("valid");
    expect(await evaluatePromo(db, "SUMMER24", lines("Book", 300), new Date("2024-07-01T12:00:00Z"))).toMatchObject({ discountCents: 300 });
    expect((await evaluatePromo(db, "WELCOME10", lines("Book", 3000), new Date("2024-12-31T12:00:00Z"))).status).toBe("unknown");
  });
});

describe("address validation", () => {
  const problems = (changes: Record<string, string>) => addressProblems(normalizeAddress({ ...NY, ...changes }));

  it("accepts complete US and Canadian addresses", () => {
    expect(problems({})).toEqual({});
    expect(problems({ postalCode: "12207-1234" })).toEqual({});
    expect(problems({ countryCode: "CA", state: "ON", postalCode: "k1a 0b1", city: "Ottawa" })).toEqual({});
    expect(problems({ countryCode: "GB", state: "", postalCode: "SW1A 1AA", city: "London" })).toEqual({});
  });

  it("names each missing field", () => {
    expect(problems({ firstName: " ", address1: "", city: "", postalCode: "" })).toEqual({
      firstName: "This field is required.",
      address1: "This field is required.",
      city: "This field is required.",
      postalCode: "This field is required.",
    });
  });

  it("needs a country from the list and a state or province from that country's list", () => {
    expect(problems({ countryCode: "ZZ" }).countryCode).toBe("Please choose a country we ship to.");
    expect(problems({ state: "" }).state).toBe("Please choose a state.");
    expect(problems({ state: "ON" }).state).toBe("Please choose a state from the list.");
    expect(problems({ countryCode: "CA", state: "", postalCode: "K1A 0B1" }).state).toBe("Please choose a province or territory.");
  });

  it("checks US and Canadian postal code formats", () => {
    expect(problems({ postalCode: "1220" }).postalCode).toBe("Please enter a valid ZIP code: 5 digits, or 9 digits as 12345-6789.");
    expect(problems({ postalCode: "122071" }).postalCode).toBeDefined();
    expect(problems({ countryCode: "CA", state: "ON", postalCode: "12345" }).postalCode).toBe(
      "Please enter a valid postal code, like A1A 1A1.",
    );
  });

  it("caps every field's length", () => {
    expect(problems({ address1: "x".repeat(101) }).address1).toBe("This field must be less than 101 characters.");
    expect(problems({ lastName: "x".repeat(61) }).lastName).toBe("This field must be less than 61 characters.");
  });
});

describe("saved addresses and drafts", () => {
  it("keeps a reader's addresses once each, and a draft as typed", async () => {
    const user = (await insertUser(db, {
      email: `addr-${Date.now()}@example.org`,
      firstName: "A",
      lastName: "B",
      password: "Lantern5!quay",
      optIn: false,
    }))!;
    const first = await saveAddress(db, user.id, NY);
    expect(await saveAddress(db, user.id, { ...NY, city: "ALBANY" })).toBe(first);
    expect((await savedAddresses(db, user.id)).map((a) => a.city)).toEqual(["Albany"]);
    const cart = await createCart(db, user.id);
    await saveDraft(db, cart, { ...EMPTY_DRAFT, address: { ...NY, postalCode: "not yet" }, promoCode: "cases25" });
    expect(await readDraft(db, cart)).toMatchObject({ address: { postalCode: "not yet" }, promoCode: "CASES25", confirmed: false });
  });
});

describe("shipping and payment details", () => {
  const typed = (draft: Partial<CheckoutDraft>): CheckoutDraft => ({
    ...EMPTY_DRAFT,
    email: "shopper@example.org",
    address: NY,
    shippingMethod: "standard",
    ...draft,
  });
  const send = async (
    cartId: string,
    intent: "continue" | "country" | "promo",
    draft: Partial<CheckoutDraft>,
    userId: string | null = null,
  ) => submitShippingPayment(db, { cartId, cart: await readCart(db, cartId), userId, intent, draft: typed(draft), formValid: true }, NOON);

  it("keeps what was typed, unconfirmed, when the country or promo code changes, and returns to that part of the form", async () => {
    const cart = await cartWith([{ id: ids.hardcover }]);
    expect(await send(cart, "country", { address: { ...NY, countryCode: "CA", state: "" } })).toEqual({
      kind: "redirect",
      to: "/shipping-payment#address",
    });
    expect(await readDraft(db, cart)).toMatchObject({ address: { countryCode: "CA" }, confirmed: false });
    expect(await send(cart, "promo", { promoCode: "nope" })).toEqual({ kind: "redirect", to: "/shipping-payment#promoCode" });
    expect(await readDraft(db, cart)).toMatchObject({ promoCode: "NOPE", confirmed: false });
  });

  it("confirms complete details and sends the shopper to the review; an empty cart goes back to the form", async () => {
    const cart = await cartWith([{ id: ids.hardcover }]);
    expect(await send(cart, "continue", { promoCode: "welcome10" })).toEqual({ kind: "redirect", to: "/review-order" });
    expect(await readDraft(db, cart)).toMatchObject({ email: "shopper@example.org", promoCode: "WELCOME10", confirmed: true });
    const empty = await createCart(db, null);
    expect(await send(empty, "continue", {})).toEqual({ kind: "redirect", to: "/shipping-payment" });
  });

  it("leaves the draft unconfirmed when the form, the shipping method or the promo code is refused", async () => {
    const cart = await cartWith([{ id: ids.hardcover }]);
    await send(cart, "country", {});
    const outcome = await submitShippingPayment(
      db,
      { cartId: cart, cart: await readCart(db, cart), userId: null, intent: "continue", draft: typed({}), formValid: false },
      NOON,
    );
    expect(outcome).toEqual({ kind: "invalid-form" });
    expect(await send(cart, "continue", { shippingMethod: "international" })).toEqual({ kind: "no-shipping-method" });
    expect(await send(cart, "continue", { promoCode: "SUMMER24" })).toEqual({
      kind: "promo-refused",
      message: "The promo code SUMMER24 has expired.",
    });
    expect(await readDraft(db, cart)).toMatchObject({
      address: { city: "Albany" },
      shippingMethod: "standard",
      promoCode: "",
      confirmed: false,
    });
  });

  it("takes only the reader's own saved address, and saves a new one when asked", async () => {
    const reader = (await insertUser(db, {
      email: `ship-${Date.now()}@example.org`,
      firstName: "A",
      lastName: "B",
      password: "Lantern5!quay",
      optIn: false,
    }))!;
    const other = (await insertUser(db, {
      email: `ship-other-${Date.now()}@example.org`,
      firstName: "C",
      lastName: "D",
      password: "Lantern5!quay",
      optIn: false,
    }))!;
    const othersAddress = (await saveAddress(db, other.id, NY))!;
    const cart = await createCart(db, reader.id);
    await addToCart(db, cart, { availabilityId: ids.hardcover, type: "Ship", quantity: 1, referral: null });
    expect(await send(cart, "continue", { addressId: othersAddress }, reader.id)).toEqual({ kind: "unknown-address" });

    expect(await send(cart, "continue", { saveAddress: true }, reader.id)).toEqual({ kind: "redirect", to: "/review-order" });
    const [saved] = await savedAddresses(db, reader.id);
    expect(saved).toMatchObject({ city: "Albany", postalCode: "12207" });
    // The reader's order uses their account's e-mail address, so the draft keeps none.
    expect(await readDraft(db, cart)).toMatchObject({ addressId: saved!.id, email: "", confirmed: true });
  });
});

describe("submitting an order", () => {
  it("copies the cart's lines and charged prices into a pending order", async () => {
    const cart = await readyCart([{ id: ids.hardcover }, { id: ids.ebook }]);
    const outcome = await submit(cart);
    if (!outcome.ok) throw new Error(outcome.problem);
    expect(outcome.created).toBe(true);
    expect(outcome.order).toMatchObject({
      status: "pending_payment",
      kind: "purchase",
      email: "shopper@example.org",
      shippingMethod: "standard",
    });
    expect(outcome.order.id).toMatch(/^ord_[A-Za-z0-9_-]{22}$/);
    expect(outcome.order.lines.map((l) => [l.availabilityId, l.quantity, l.unitPriceCents])).toEqual([
      [ids.hardcover, 1, price.hardcover],
      [ids.ebook, 1, price.ebook],
    ]);
  });

  it("creates one order from 8 concurrent submissions with the same key", async () => {
    const cart = await readyCart([{ id: ids.hardcover }]);
    const key = issueIdempotencyKey();
    const total = await reviewTotal(cart);
    const outcomes = await Promise.all(Array.from({ length: 8 }, () => submit(cart, key, total)));
    const orderIds = new Set(outcomes.map((o) => (o.ok ? o.order.id : o.problem)));
    expect(orderIds.size).toBe(1);
    expect(outcomes.filter((o) => o.ok && o.created)).toHaveLength(1);
    const count = await db
      .selectFrom("store_order")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("idempotency_key", "=", key)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
  });

  it("makes one order from a cart submitted from two review tabs at once; the other tab gets that order", async () => {
    const cart = await readyCart([{ id: ids.hardcover }]);
    const total = await reviewTotal(cart);
    const [first, second] = await Promise.all([submit(cart, issueIdempotencyKey(), total), submit(cart, issueIdempotencyKey(), total)]);
    const placed = [first, second].filter((o) => o.ok);
    const sentOn = [first, second].filter((o) => !o.ok && o.problem === "already-ordered");
    expect(placed).toHaveLength(1);
    expect(sentOn).toHaveLength(1);
    const order = placed[0]!.ok ? placed[0]!.order : undefined;
    expect(sentOn[0]).toMatchObject({ problem: "already-ordered", order: { id: order!.id } });
    expect(await db.selectFrom("store_order").select("id").where("cart_id", "=", cart).execute()).toEqual([{ id: order!.id }]);

    // Once that order is cancelled, the cart (still full) may be ordered again.
    expect(await cancelOrder(db, sandbox(), order!.id, NOON)).toBe("cancelled");
    const again = await submit(cart, issueIdempotencyKey(), total);
    expect(again).toMatchObject({ ok: true, created: true });
    expect(await db.selectFrom("store_order").select("id").where("cart_id", "=", cart).execute()).toHaveLength(2);
  });

  it("opens one provider session for an order, however many replays ask at once", async () => {
    const cart = await readyCart([{ id: ids.hardcover }]);
    const outcome = await submit(cart);
    if (!outcome.ok) throw new Error(outcome.problem);
    const urls = await Promise.all(Array.from({ length: 5 }, () => startOrderPayment(db, sandbox(), outcome.order, payUrls)));
    const opened = await db.selectFrom("sandbox_payment").select("id").where("reference", "=", outcome.order.id).execute();
    expect(opened).toHaveLength(1);
    expect(new Set(urls)).toEqual(new Set([`https://site/sandbox-checkout/${opened[0]!.id}`]));
    expect(await sessionOf(outcome.order.id)).toBe(opened[0]!.id);
  });

  it("finds the session again when the server stopped between opening it and keeping it", async () => {
    const cart = await readyCart([{ id: ids.hardcover }]);
    const outcome = await submit(cart);
    if (!outcome.ok) throw new Error(outcome.problem);
    // What a crash leaves: the order claimed for the provider, which has the session; the order does not know it.
    await db.updateTable("store_order").set({ provider: "sandbox" }).where("id", "=", outcome.order.id).execute();
    const orphan = await sandbox().createCheckout({
      reference: outcome.order.id,
      description: "Order",
      amountCents: outcome.order.totalCents,
      currency: "usd",
      customerEmail: outcome.order.email,
      ...payUrls,
    });
    expect(await sessionOf(outcome.order.id)).toBeNull();
    expect(await startOrderPayment(db, sandbox(), outcome.order, payUrls)).toBe(orphan.url);
    expect(await sessionOf(outcome.order.id)).toBe(orphan.id);
    expect(await db.selectFrom("sandbox_payment").select("id").where("reference", "=", outcome.order.id).execute()).toHaveLength(1);
  });

  it("does not let another shopper replay a key", async () => {
    const cart = await readyCart([{ id: ids.ebook }]);
    const key = issueIdempotencyKey();
    expect((await submit(cart, key)).ok).toBe(true);
    const other = await readyCart([{ id: ids.ebook }]);
    expect(await submit(other, key)).toEqual({ ok: false, problem: "foreign-key" });
    expect(await submit(other, "short")).toEqual({ ok: false, problem: "bad-key" });
  });

  it("shows the new total instead of charging when prices changed since the review", async () => {
    const cart = await readyCart([{ id: ids.hardcover }]);
    const shown = await reviewTotal(cart);
    await db
      .updateTable("product_availability")
      .set({ list_price_cents: price.hardcover + 500 })
      .where("id", "=", ids.hardcover)
      .execute();
    try {
      const outcome = await submit(cart, issueIdempotencyKey(), shown);
      expect(outcome.ok).toBe(false);
      if (outcome.ok || outcome.problem !== "prices-changed") throw new Error("expected prices-changed");
      expect(outcome.review.totals.subtotalCents).toBe(price.hardcover + 500);
      expect(await db.selectFrom("store_order").select("id").where("cart_id", "=", cart).execute()).toEqual([]);
    } finally {
      await db.updateTable("product_availability").set({ list_price_cents: price.hardcover }).where("id", "=", ids.hardcover).execute();
    }
  });

  it("places coming-soon lines as pre-orders with their date, and refuses a promo code that no longer applies", async () => {
    const cart = await readyCart([{ id: ids.hardcover }]);
    await db
      .updateTable("product_availability")
      .set({ status: "F", available_date: "2027-03-01" })
      .where("id", "=", ids.hardcover)
      .execute();
    try {
      const placed = await submit(cart);
      if (!placed.ok) throw new Error(placed.problem);
      expect(placed.order.lines.map((l) => [l.availabilityId, l.availableDate, l.chargeLaterCents])).toEqual([
        [ids.hardcover, "2027-03-01", null],
      ]);
    } finally {
      await db.updateTable("product_availability").set({ status: "A", available_date: null }).where("id", "=", ids.hardcover).execute();
    }
    const expired = await readyCart([{ id: ids.hardcover }], { promoCode: "SUMMER24" });
    expect(await submit(expired)).toEqual({ ok: false, problem: "promo", message: "The promo code SUMMER24 has expired." });
  });

  it("is refused during the maintenance window, leaving the cart as it was", async () => {
    const cart = await readyCart([{ id: ids.hardcover }]);
    const before = await readCart(db, cart);
    const outcome = await submitOrder(
      db,
      OPEN,
      { cartId: cart, userId: null, accountEmail: null, idempotencyKey: issueIdempotencyKey(), shownTotalCents: await reviewTotal(cart) },
      EIGHT_AM,
    );
    expect(outcome).toEqual({ ok: false, problem: "closed" });
    const switched = await submitOrder(
      db,
      { ...OPEN, STORE_MAINTENANCE_WINDOW: "off", MAINTENANCE_MODE: true },
      { cartId: cart, userId: null, accountEmail: null, idempotencyKey: issueIdempotencyKey(), shownTotalCents: 0 },
      NOON,
    );
    expect(switched).toEqual({ ok: false, problem: "closed" });
    expect(await readCart(db, cart)).toEqual(before);
  });
});

describe("settling a payment", () => {
  it("marks an order paid once, empties its cart and mails one confirmation", async () => {
    const cart = await readyCart([{ id: ids.hardcover }, { id: ids.ebook }]);
    const outcome = await submit(cart);
    if (!outcome.ok) throw new Error(outcome.problem);
    const { provider, paid } = fakeProvider();
    await startOrderPayment(db, provider, outcome.order, { successUrl: "https://site/ok", cancelUrl: "https://site/no" });
    expect(await settleOrder(db, provider, outcome.order.id, NOON)).toBe("pending");
    paid.add("sess_1");
    const event = { type: "checkout.completed" as const, eventId: "evt_1", sessionId: "sess_1", reference: outcome.order.id, paid: true };
    const results = await Promise.all([
      settleOrder(db, provider, outcome.order.id, NOON),
      handleOrderPaymentEvent(db, provider, event, NOON),
      handleOrderPaymentEvent(db, provider, event, NOON),
    ]);
    expect(results[0]).toBe("paid");
    expect((await findOrder(db, outcome.order.id))!.status).toBe("paid");
    expect((await readCart(db, cart)).lines).toEqual([]);
    // A callback about some other session is not this order's payment.
    expect(await handleOrderPaymentEvent(db, provider, { ...event, sessionId: "sess_9" }, NOON)).toBe("ignored");

    const sent: MailMessage[] = [];
    const mailer: Mailer = { send: async (m) => (sent.push(m), { messageId: String(sent.length) }) };
    await Promise.all([1, 2, 3].map(() => sendOrderConfirmation(db, mailer, outcome.order.id, "https://site")));
    expect(sent).toHaveLength(1);
    expect(sent[0]!.to).toBe("shopper@example.org");
    expect(sent[0]!.text).toContain(`Order number: ${outcome.order.number}`);
    expect(sent[0]!.text).toContain(`https://site/order/${outcome.order.id}?key=${outcome.order.accessToken}`);
    expect(sent[0]!.text).toContain("Albany, NY 12207");
  });

  it("does not mark an order paid twice", async () => {
    const cart = await readyCart([{ id: ids.ebook }]);
    const outcome = await submit(cart);
    if (!outcome.ok) throw new Error(outcome.problem);
    expect(await Promise.all([markOrderPaid(db, outcome.order.id), markOrderPaid(db, outcome.order.id)])).toEqual(
      expect.arrayContaining([true, false]),
    );
  });
});

describe("cancelling an order", () => {
  it("cancels an order awaiting payment once, keeps the cart, and refuses a paid order", async () => {
    const cart = await readyCart([{ id: ids.ebook }]);
    const outcome = await submit(cart);
    if (!outcome.ok) throw new Error(outcome.problem);
    expect(
      await Promise.all([cancelOrder(db, sandbox(), outcome.order.id, NOON), cancelOrder(db, sandbox(), outcome.order.id, NOON)]),
    ).toEqual(expect.arrayContaining(["cancelled", "already-cancelled"]));
    const cancelled = (await findOrder(db, outcome.order.id))!;
    expect(cancelled.status).toBe("cancelled");
    expect(cancelled.cancelledAt).toBe(NOON.toISOString());
    expect((await readCart(db, cart)).lines).toHaveLength(1);

    const paidCart = await readyCart([{ id: ids.ebook }]);
    const paidOrder = await submit(paidCart);
    if (!paidOrder.ok) throw new Error(paidOrder.problem);
    await markOrderPaid(db, paidOrder.order.id, NOON);
    expect(await cancelOrder(db, sandbox(), paidOrder.order.id, NOON)).toBe("paid");
    expect((await findOrder(db, paidOrder.order.id))!.status).toBe("paid");
  });

  it("keeps a cancelled order cancelled when its payment completes afterwards, and refunds that payment once", async () => {
    const cart = await readyCart([{ id: ids.hardcover }]);
    const outcome = await submit(cart);
    if (!outcome.ok) throw new Error(outcome.problem);
    const { provider, paid, refunds } = fakeProvider();
    await startOrderPayment(db, provider, outcome.order, { successUrl: "https://site/ok", cancelUrl: "https://site/no" });
    const sessionId = (
      await db.selectFrom("store_order").select("provider_session_id").where("id", "=", outcome.order.id).executeTakeFirstOrThrow()
    ).provider_session_id!;
    expect(await cancelOrder(db, provider, outcome.order.id, NOON)).toBe("cancelled");
    // The provider took the payment anyway (its page was still open in another tab, say).

    paid.add(sessionId);
    const event = { type: "checkout.completed" as const, eventId: "evt_late", sessionId, reference: outcome.order.id, paid: true };
    expect(await handleOrderPaymentEvent(db, provider, event, NOON)).toBe("paid-after-cancel");
    // The provider tells us again: the payment is refunded once, in full.
    expect(await handleOrderPaymentEvent(db, provider, event, NOON)).toBe("paid-after-cancel");
    expect(await settleOrder(db, provider, outcome.order.id, NOON)).not.toBe("paid");
    expect(refunds.map((r) => [r.sessionId, r.amountCents])).toEqual([[sessionId, outcome.order.totalCents]]);
    const refund = await db.selectFrom("store_refund").selectAll().where("order_id", "=", outcome.order.id).executeTakeFirstOrThrow();
    expect(refund).toMatchObject({
      kind: "late-payment",
      status: "succeeded",
      amount_cents: outcome.order.totalCents,
      requested_by: "payments",
    });
    const order = (await findOrder(db, outcome.order.id))!;
    expect(order.status).toBe("cancelled");
    expect(order.paidAt).toBeNull();
    // The cart stays as it was, for the shopper to order again.
    expect((await readCart(db, cart)).lines).toHaveLength(1);
  });
});

describe("closing the payment page", () => {
  it("a cancelled order's checkout page can no longer be paid", async () => {
    const outcome = await submit(await readyCart([{ id: ids.hardcover }]));
    if (!outcome.ok) throw new Error(outcome.problem);
    const provider = sandbox();
    await startOrderPayment(db, provider, outcome.order, payUrls);
    const session = await sessionOf(outcome.order.id);
    expect(await cancelOrder(db, provider, outcome.order.id, NOON)).toBe("cancelled");
    expect(await provider.pay(session, SANDBOX_CARDS.succeeds, NOON)).toEqual({ ok: false, error: CHECKOUT_EXPIRED });
    expect((await provider.payment(session))?.status).toBe("expired");
    expect((await findOrder(db, outcome.order.id))?.status).toBe("cancelled");
  });

  it("an order paid just before the cancel reached the provider stays paid", async () => {
    const outcome = await submit(await readyCart([{ id: ids.ebook }]));
    if (!outcome.ok) throw new Error(outcome.problem);
    const provider = sandbox();
    await startOrderPayment(db, provider, outcome.order, payUrls);
    expect((await provider.pay(await sessionOf(outcome.order.id), SANDBOX_CARDS.succeeds, NOON)).ok).toBe(true);
    // The payment's callback has not arrived yet: the cancel learns of it from the provider.
    expect(await cancelOrder(db, provider, outcome.order.id, NOON)).toBe("paid");
    expect((await findOrder(db, outcome.order.id))?.status).toBe("paid");
  });

  it("orders unpaid for more than 24 hours are cancelled and their pages closed; newer and paid ones are left", async () => {
    const provider = sandbox();
    const placed = async (at: Date) => {
      const cart = await readyCart([{ id: ids.ebook }]);
      const outcome = await submitOrder(
        db,
        OPEN,
        { cartId: cart, userId: null, accountEmail: null, idempotencyKey: issueIdempotencyKey(), shownTotalCents: await reviewTotal(cart) },
        at,
      );
      if (!outcome.ok) throw new Error(outcome.problem);
      await startOrderPayment(db, provider, outcome.order, payUrls);
      return outcome.order.id;
    };
    const hour = 3_600_000;
    const abandoned = await placed(new Date(NOON.getTime() - 25 * hour));
    const paidLate = await placed(new Date(NOON.getTime() - 26 * hour));
    const recent = await placed(new Date(NOON.getTime() - 23 * hour));
    await markOrderPaid(db, paidLate, NOON);

    const cancelled = await cancelAbandonedOrders(db, provider, NOON);
    expect(cancelled).toContain(abandoned);
    expect(cancelled).not.toContain(paidLate);
    expect(cancelled).not.toContain(recent);
    expect((await findOrder(db, abandoned))?.status).toBe("cancelled");
    expect((await provider.payment(await sessionOf(abandoned)))?.status).toBe("expired");
    expect((await findOrder(db, paidLate))?.status).toBe("paid");
    expect((await findOrder(db, recent))?.status).toBe("pending_payment");
    // A second run, or another instance's, finds nothing left to do.
    expect(await cancelAbandonedOrders(db, provider, NOON)).not.toContain(abandoned);
  });
});

describe("who sees an order", () => {
  it("shows it to its buyer and to whoever holds its key, and to nobody else", async () => {
    const buyer = (await insertUser(db, {
      email: `buyer-${Date.now()}@example.org`,
      firstName: "A",
      lastName: "B",
      password: "Lantern5!quay",
      optIn: false,
    }))!;
    const cart = await createCart(db, buyer.id);
    await addToCart(db, cart, { availabilityId: ids.ebook, type: "Digital", quantity: 1, referral: null });
    await saveDraft(db, cart, { ...EMPTY_DRAFT, address: NY, confirmed: true });
    const shown = await buildReview(
      db,
      { cart: await readCart(db, cart), draft: await readDraft(db, cart), userId: buyer.id, accountEmail: buyer.email },
      NOON,
    );
    if (!shown.ok) throw new Error(shown.problem);
    const outcome = await submitOrder(
      db,
      OPEN,
      {
        cartId: cart,
        userId: buyer.id,
        accountEmail: buyer.email,
        idempotencyKey: issueIdempotencyKey(),
        shownTotalCents: shown.review.totals.totalCents,
      },
      NOON,
    );
    if (!outcome.ok) throw new Error(outcome.problem);
    const id = outcome.order.id;
    expect(outcome.order.email).toBe(buyer.email);
    expect((await orderForViewer(db, id, { userId: buyer.id, key: null }))?.id).toBe(id);
    expect((await orderForViewer(db, id, { userId: null, key: outcome.order.accessToken }))?.id).toBe(id);
    expect(await orderForViewer(db, id, { userId: null, key: "wrong" })).toBeUndefined();
    expect(await orderForViewer(db, id, { userId: "someone-else", key: null })).toBeUndefined();
    expect((await listOrders(db, buyer.id)).map((o) => o.id)).toEqual([id]);
  });

  it("gives a new account the guest orders its browser placed with the same address, and no others", async () => {
    const mine = await submit(await readyCart([{ id: ids.ebook }], { email: "Guest.Claim@example.org" }));
    const otherAddress = await submit(await readyCart([{ id: ids.ebook }], { email: "someone@example.org" }));
    const notListed = await submit(await readyCart([{ id: ids.ebook }], { email: "guest.claim@example.org" }));
    if (!mine.ok || !otherAddress.ok || !notListed.ok) throw new Error("submit failed");
    const user = (await insertUser(db, {
      email: "guest.claim@example.org",
      firstName: "G",
      lastName: "C",
      password: "Lantern5!quay",
      optIn: false,
    }))!;
    expect(await claimGuestOrders(db, user.id, user.email, [mine.order.id, otherAddress.order.id, "ord_bogus"])).toBe(1);
    expect((await listOrders(db, user.id)).map((o) => o.id)).toEqual([mine.order.id]);
    // Already claimed: nothing moves again.
    expect(await claimGuestOrders(db, "another", user.email, [mine.order.id])).toBe(0);
  });
});

describe("vouchers", () => {
  it("redeems once, at no charge, as a voucher order", async () => {
    const user = (await insertUser(db, {
      email: `voucher-${Date.now()}@example.org`,
      firstName: "V",
      lastName: "R",
      password: "Lantern5!quay",
      optIn: false,
    }))!;
    expect(await voucherState(db, "gift-ledger-0001")).toMatchObject({ status: "available", availabilityId: ids.ebook });
    const outcomes = await Promise.all([redeemVoucher(db, "GIFT-LEDGER-0001", user), redeemVoucher(db, "GIFT-LEDGER-0001", user)]);
    const redeemed = outcomes.filter((o) => o.ok);
    expect(redeemed).toHaveLength(1);
    expect(outcomes.find((o) => !o.ok)).toEqual({ ok: false, problem: "used" });
    const order = await findOrder(db, (redeemed[0] as { orderId: string }).orderId);
    expect(order).toMatchObject({ kind: "voucher", status: "paid", totalCents: 0, userId: user.id });
    expect(order!.lines.map((l) => [l.availabilityId, l.unitPriceCents])).toEqual([[ids.ebook, 0]]);
    expect((await voucherState(db, "GIFT-LEDGER-0001")).status).toBe("used");
    expect(await redeemVoucher(db, "NO-SUCH-VOUCHER", user)).toEqual({ ok: false, problem: "unknown" });
  });
});
