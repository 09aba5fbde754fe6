import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertUser, type User } from "~/server/accounts/users";
import { contentGeneration } from "~/server/content/content-generation";
import { connect, type Database } from "~/server/db/connection";
import type { AuditActor } from "~/server/desk/audit";
import type { Editor } from "~/server/desk/catalogue/common";
import { createPromo, createVoucher, getDeskPromo, promoUsesOf, setPromoDisabled } from "~/server/desk/offers";
import {
  createAvailability,
  createProduct,
  getDeskProduct,
  saveAvailability,
  saveProduct,
  schedulePrice,
  withdrawPrice,
} from "~/server/desk/products";
import { createSandboxProvider, SANDBOX_CARDS } from "~/server/payments/sandbox";
import { addToCart, createCart, readCart } from "~/server/store/cart";
import { NO_STORE_CHOICES, productBySlug, storePage } from "~/server/store/catalogue";
import { buildReview, readDraft } from "~/server/store/checkout";
import { openDownload } from "~/server/store/downloads";
import { cancelOrder, markOrderPaid } from "~/server/store/order-payment";
import { findOrder } from "~/server/store/order-records";
import { issueIdempotencyKey, submitOrder, type SubmitOutcome } from "~/server/store/order-submit";
import { evaluatePromo, promoUses } from "~/server/store/promo";
import { refundOrder } from "~/server/store/refunds/refunds";
import { redeemVoucher, voucherState } from "~/server/store/vouchers";
import { checkoutCart, NOON_IN_NEW_YORK as NOON, placed, STORE_OPEN, submitCart } from "~/tests/helpers/store-checkout";
import { dialectName, isolatedConnection, type IsolatedConnection } from "~/tests/helpers/test-db";

// The store's catalogue and offers at the desk (issue 39, ADR 091) on the database the run uses:
// a product made at the desk is sold at once; a retired format can no longer be added or ordered,
// while orders of it keep their downloads; prices change from the moment staff set, each cart and
// order priced by the price in force at its own moment, and an order keeps the price it was placed
// at; promo codes and vouchers keep their limits when two shoppers race for the last use (two
// connections, as two instances would be), and a refund in full gives a use back.

const ACTOR: AuditActor = { id: null, label: "store@meridian.example" };
const STORE: Editor = { actor: ACTOR, name: "Stella Store" };
const OTHER: Editor = { actor: { id: null, label: "other@meridian.example" }, name: "Otto Other" };
/** An hour and a day after noon in New York (NOON, outside the store's maintenance window). */
const ONE_PM = new Date(NOON.getTime() + 3_600_000);
const NEXT_DAY = new Date(NOON.getTime() + 86_400_000);

let connection: IsolatedConnection;
let db: Database;
/** Another instance on the same database. */
let other: Database;
let buyer: User;
let counter = 0;

beforeAll(async () => {
  connection = await isolatedConnection("store-catalogue");
  db = connect(connection);
  other = connect(connection);
  buyer = (await insertUser(db, {
    firstName: "Nadia",
    lastName: "Perez",
    email: `catalogue-${crypto.randomUUID()}@example.org`,
    password: "Lantern5!quay",
    optIn: false,
  }))!;
}, 60_000);

afterAll(async () => {
  await db?.destroy();
  await other?.destroy();
  await connection?.drop();
});

/** A new product with one format, an ebook (KND) on sale at `cents`, made at the desk. */
async function newProduct(cents = 1500, code = "KND", lineType: "EBOOK" | "SHIP" = "EBOOK") {
  const n = ++counter;
  const made = await createProduct(
    db,
    STORE,
    {
      title: `The Quiet Ledger ${n}: Notes on Patience`,
      productType: "Book",
      topic: "Strategy",
      authors: ["Mara Quinn"],
      summary: "A short book on waiting well.",
      description: "Chapters on the discipline of doing nothing in particular, at length.",
      published: "2026-10-01",
      pages: 120,
    },
    NOON,
  );
  if (!made.ok) throw new Error(JSON.stringify(made));
  const format = await createAvailability(
    db,
    STORE,
    made.value.id,
    {
      format: code === "KND" ? "Ebook" : "Paperback",
      code,
      lineType,
      language: "English",
      status: "on-sale",
      listPrice: cents,
      permissionsAvailable: false,
      volumePricing: false,
      preorderCharge: "payment",
    },
    NOON,
  );
  if (!format.ok) throw new Error(JSON.stringify(format));
  return { product: made.value, format: format.value };
}

/** A cart holding one of the availability, with shipping and payment confirmed for `email`. */
const readyCart = (availabilityId: number, email = "shopper@example.org", draft: { promoCode?: string } = {}) =>
  checkoutCart(db, { guest: email }, [availabilityId], draft);

/** Places the cart's order at `at`, for the total the review shows at that moment (db: the instance asked). */
const place = (cart: string, at: Date, on: Database = db): Promise<SubmitOutcome> => submitCart(on, cart, at);

const auditOf = (subject: string) =>
  db.selectFrom("desk_audit").select(["action", "actor"]).where("subject", "=", subject).orderBy("at").orderBy("id").execute();

describe(`products and formats at the desk (${dialectName})`, () => {
  it("sells a product made at the desk at once, in the store and search's catalogue, and audits each step", async () => {
    const before = await contentGeneration(db, { now: () => Number.MAX_SAFE_INTEGER });
    const { product, format } = await newProduct(1500);
    expect(await contentGeneration(db, { now: () => Number.MAX_SAFE_INTEGER })).toBeGreaterThan(before);
    const page = await productBySlug(db, product.slug, NOON);
    expect(page?.availabilities).toEqual([
      expect.objectContaining({ id: format.id, listPriceCents: 1500, comingSoon: false, retired: false }),
    ]);
    const listed = await storePage(db, { ...NO_STORE_CHOICES, q: product.title }, 1, NOON);
    expect(listed.entries.map((e) => e.id)).toContain(product.id);
    const cart = await readyCart(format.id);
    expect((await readCart(db, cart, NOON)).subtotalCents).toBe(1500);
    const order = placed(await place(cart, NOON));
    expect(order.lines.map((l) => [l.availabilityId, l.unitPriceCents])).toEqual([[format.id, 1500]]);
    expect((await auditOf(`product:${product.slug}`)).map((a) => a.action)).toEqual(["product.create", "availability.create"]);
    const search = await db
      .selectFrom("search_document")
      .select("url")
      .where("kind", "=", "product")
      .where("ref_id", "=", product.id)
      .execute();
    expect(search.map((s) => s.url)).toEqual([format.path]);
  });

  it("never loses an update: a product or format saved from an old version writes nothing and answers what is there", async () => {
    const { product, format } = await newProduct();
    const fields = {
      title: product.title,
      productType: "Book" as const,
      topic: "Strategy",
      authors: ["Mara Quinn", "Leo Park"],
      summary: product.summary,
      description: product.description,
      published: product.published,
      pages: 130,
    };
    const first = await saveProduct(db, STORE, product.id, { ...fields, version: 1 }, ONE_PM);
    expect(first).toMatchObject({ ok: true, changed: true, value: { version: 2, authors: ["Mara Quinn", "Leo Park"], pages: 130 } });
    const stale = await saveProduct(other, OTHER, product.id, { ...fields, pages: 99, version: 1 }, ONE_PM);
    expect(stale).toMatchObject({ ok: false, reason: "stale", current: { version: 2, pages: 130, updatedBy: "Stella Store" } });
    expect(await saveProduct(db, STORE, product.id, { ...fields, version: 2 }, ONE_PM)).toMatchObject({ ok: true, changed: false });
    const formatFields = {
      format: "Ebook",
      code: "KND",
      lineType: "EBOOK" as const,
      language: "English",
      permissionsAvailable: false,
      volumePricing: false,
      preorderCharge: "payment" as const,
    };
    const both = await Promise.all([
      saveAvailability(
        db,
        STORE,
        product.id,
        format.id,
        { ...formatFields, status: "coming-soon", availableDate: "2027-01-01", version: 1 },
        ONE_PM,
      ),
      saveAvailability(other, OTHER, product.id, format.id, { ...formatFields, status: "retired", version: 1 }, ONE_PM),
    ]);
    expect(both.map((r) => (r.ok ? "saved" : r.reason)).sort()).toEqual(["saved", "stale"]);
    const audit = await auditOf(`product:${product.slug}`);
    expect(audit.map((a) => a.action)).toEqual(["product.create", "availability.create", "product.save", "availability.save"]);
  });

  it("refuses to add a retired format to a cart or to order one already in it, while an order of it keeps its download", async () => {
    const { product, format } = await newProduct(900);
    const earlier = placed(await place(await readyCart(format.id, `early-${crypto.randomUUID()}@example.org`), NOON));
    expect(await markOrderPaid(db, earlier.id, NOON)).toBe(true);
    const waiting = await readyCart(format.id);
    const retired = await saveAvailability(
      db,
      STORE,
      product.id,
      format.id,
      {
        format: "Ebook",
        code: "KND",
        lineType: "EBOOK",
        language: "English",
        status: "retired",
        permissionsAvailable: false,
        volumePricing: false,
        preorderCharge: "payment",
        version: 1,
      },
      ONE_PM,
    );
    expect(retired).toMatchObject({ ok: true, changed: true, value: { state: "retired" } });

    const cart = await createCart(db, null);
    expect(await addToCart(db, cart, { availabilityId: format.id, quantity: 1, referral: null })).toEqual({
      ok: false,
      problem: "retired",
    });
    expect((await readCart(db, waiting, ONE_PM)).lines[0]).toMatchObject({ retired: true });
    expect(await place(waiting, ONE_PM)).toEqual({ ok: false, problem: "retired", titles: [product.title] });
    // The page says so; the store no longer lists it.
    expect(await productBySlug(db, product.slug, ONE_PM)).toMatchObject({
      retired: true,
      availabilities: [{ id: format.id, retired: true }],
    });
    const listed = await storePage(db, { ...NO_STORE_CHOICES, q: product.title }, 1, ONE_PM);
    expect(listed.entries.map((e) => e.id)).not.toContain(product.id);
    const download = await openDownload(db, { orderId: earlier.id, position: "0", userId: null, key: earlier.accessToken }, ONE_PM);
    expect(download.status).toBe("ok");
  });
});

describe(`prices from a moment on (${dialectName})`, () => {
  it("prices the store, carts and orders at the moment asked, and an order keeps the price it was placed at", async () => {
    const { product, format } = await newProduct(2000);
    const scheduled = await schedulePrice(db, STORE, product.id, format.id, { priceCents: 2600, startsAt: ONE_PM }, NOON);
    expect(scheduled).toMatchObject({ ok: true, value: { prices: { nowCents: 2000, changes: [{ priceCents: 2600, started: false }] } } });
    const desk = await getDeskProduct(db, product.id, NOON);
    expect(desk?.availabilities[0]).toMatchObject({ priceCents: 2000, nextPrice: { priceCents: 2600, startsAt: ONE_PM.toISOString() } });

    const cart = await readyCart(format.id);
    const first = placed(await place(cart, NOON));
    expect(first.lines[0]?.unitPriceCents).toBe(2000);
    expect((await readCart(db, cart, new Date(ONE_PM.getTime() - 1))).subtotalCents).toBe(2000);
    expect((await readCart(db, cart, ONE_PM)).subtotalCents).toBe(2600);
    expect((await productBySlug(db, product.slug, ONE_PM))?.availabilities[0]?.listPriceCents).toBe(2600);
    const card = (await storePage(db, { ...NO_STORE_CHOICES, q: product.title }, 1, NOON)).entries.find((e) => e.id === product.id);
    expect(card).toMatchObject({ priceCents: 2000, pricedUntil: ONE_PM.toISOString() });

    const second = placed(await place(await readyCart(format.id, "second@example.org"), ONE_PM));
    expect(second.lines[0]?.unitPriceCents).toBe(2600);
    expect((await findOrder(db, first.id))?.lines[0]?.unitPriceCents).toBe(2000);
    expect((await findOrder(db, first.id))?.subtotalCents).toBe(2000);
  });

  it("refuses an order whose total changed since its review, and lets staff withdraw a change not started yet", async () => {
    const { product, format } = await newProduct(1000);
    const cart = await readyCart(format.id);
    const review = await buildReview(
      db,
      { cart: await readCart(db, cart, NOON), draft: await readDraft(db, cart), userId: null, accountEmail: null },
      NOON,
    );
    if (!review.ok) throw new Error(review.problem);
    await schedulePrice(db, STORE, product.id, format.id, { priceCents: 1200, startsAt: null }, NOON);
    const refused = await submitOrder(
      db,
      STORE_OPEN,
      {
        cartId: cart,
        userId: null,
        accountEmail: null,
        idempotencyKey: issueIdempotencyKey(),
        shownTotalCents: review.review.totals.totalCents,
      },
      NOON,
    );
    expect(refused).toMatchObject({ ok: false, problem: "prices-changed" });

    const later = await schedulePrice(db, STORE, product.id, format.id, { priceCents: 1500, startsAt: NEXT_DAY }, NOON);
    if (!later.ok) throw new Error(later.reason);
    const future = later.value.prices.changes.find((c) => !c.started)!;
    const past = later.value.prices.changes.find((c) => c.started)!;
    expect(await withdrawPrice(db, STORE, product.id, format.id, past.id, NOON)).toEqual({ ok: false, reason: "started" });
    expect(await withdrawPrice(db, STORE, product.id, format.id, future.id, NOON)).toEqual({ ok: true });
    expect((await readCart(db, cart, NEXT_DAY)).subtotalCents).toBe(1200);
    expect(
      await schedulePrice(db, STORE, product.id, format.id, { priceCents: 1, startsAt: new Date(NOON.getTime() - 3_600_000) }, NOON),
    ).toMatchObject({
      ok: false,
      reason: "invalid",
    });
    expect((await auditOf(`product:${product.slug}`)).map((a) => a.action)).toEqual([
      "product.create",
      "availability.create",
      "price.schedule",
      "price.schedule",
      "price.withdraw",
    ]);
  });
});

describe(`promo codes' and vouchers' limits (${dialectName})`, () => {
  const promo = (code: string, extra: { maxUses?: number; maxUsesPerReader?: number; products?: number[] } = {}) =>
    createPromo(db, STORE, { code, description: "5% off your order", percentOff: 5, products: [], startsOn: "2026-01-01", ...extra }, NOON);

  it("gives the last use of a code to one of two shoppers racing for it, and tells the other why", async () => {
    const { format } = await newProduct(2000);
    const code = `LAST${crypto.randomBytes(3).toString("hex").toUpperCase()}`;
    expect(await promo(code, { maxUses: 1 })).toMatchObject({ ok: true });
    const carts = [
      await readyCart(format.id, "one@example.org", { promoCode: code }),
      await readyCart(format.id, "two@example.org", { promoCode: code }),
    ];
    const outcomes = await Promise.all([place(carts[0]!, NOON, db), place(carts[1]!, NOON, other)]);
    expect(outcomes.filter((o) => o.ok)).toHaveLength(1);
    expect(outcomes.find((o) => !o.ok)).toEqual({
      ok: false,
      problem: "promo",
      message: `The promo code ${code} has been used as many times as it can be, so it no longer applies.`,
    });
    expect(await promoUses(db, code)).toBe(1);
    // The loser's cart was left as it was: no order, no use.
    expect(await db.selectFrom("store_order").select("id").where("cart_id", "in", carts).execute()).toHaveLength(1);
    // The shopper is told before placing too.
    const third = await evaluatePromo(db, code, [{ productType: "Book", lineTotalCents: 2000 }], NOON);
    expect(third.status).toBe("used-up");
  });

  it("holds a code to its uses per reader (a guest known by their address), its products and being disabled", async () => {
    const { product, format } = await newProduct(2000);
    const { format: elsewhere } = await newProduct(3000);
    const code = `ONCE${crypto.randomBytes(3).toString("hex").toUpperCase()}`;
    expect(await promo(code, { maxUsesPerReader: 1, products: [product.id] })).toMatchObject({ ok: true });
    const email = `once-${crypto.randomUUID()}@example.org`;
    const first = placed(await place(await readyCart(format.id, email, { promoCode: code }), NOON));
    expect(first.discountCents).toBe(100);
    const again = await place(await readyCart(format.id, email.toUpperCase(), { promoCode: code }), NOON);
    expect(again).toEqual({
      ok: false,
      problem: "promo",
      message: `You have already used the promo code ${code} as many times as it allows.`,
    });
    const notThis = await evaluatePromo(db, code, [{ productType: "Book", lineTotalCents: 3000, productId: elsewhere.productId }], NOON);
    expect(notThis).toMatchObject({ status: "not-applicable" });
    // Cancelling the order gives the reader's use back.
    expect(await cancelOrder(db, createSandboxProvider(db, { siteUrl: "https://site", webhookSecret: "x" }), first.id, NOON)).toBe(
      "cancelled",
    );
    placed(await place(await readyCart(format.id, email, { promoCode: code }), NOON));

    expect(await setPromoDisabled(db, STORE, code, true, ONE_PM)).toEqual({ ok: true, changed: true });
    expect(await place(await readyCart(format.id, "late@example.org", { promoCode: code }), ONE_PM)).toEqual({
      ok: false,
      problem: "promo",
      message: `The promo code ${code} is no longer available.`,
    });
    expect((await auditOf(`promo-code:${code}`)).map((a) => a.action)).toEqual(["promo-code.create", "promo-code.disable"]);
  });

  it("gives a voucher's last use to one of two readers at once, and a refund in full gives a promo code's and a voucher's use back", async () => {
    const { format } = await newProduct(1200);
    const made = await createVoucher(
      db,
      STORE,
      { code: `GIFT-${crypto.randomBytes(3).toString("hex").toUpperCase()}`, availability: format.id, maxUses: 1 },
      NOON,
    );
    if (!made.ok) throw new Error(made.reason);
    const code = made.value.code;
    const readers = await Promise.all(
      [1, 2].map(
        async (i) =>
          (await insertUser(db, {
            firstName: "R",
            lastName: `${i}`,
            email: `voucher-${i}-${crypto.randomUUID()}@example.org`,
            password: "Lantern5!quay",
            optIn: false,
          }))!,
      ),
    );
    const raced = await Promise.all([redeemVoucher(db, code, readers[0]!, NOON), redeemVoucher(other, code, readers[1]!, NOON)]);
    expect(raced.filter((r) => r.ok)).toHaveLength(1);
    expect(raced.find((r) => !r.ok)).toEqual({ ok: false, problem: "used" });
    const won = raced.find((r) => r.ok) as { ok: true; orderId: string };

    const sandbox = createSandboxProvider(db, { siteUrl: "https://site", webhookSecret: "x" });
    const refunded = await refundOrder(
      db,
      sandbox,
      ACTOR,
      won.orderId,
      { reason: "Wrong item", idempotencyKey: crypto.randomUUID() },
      ONE_PM,
    );
    expect(refunded).toMatchObject({ ok: true, status: "succeeded" });
    expect((await voucherState(db, code, ONE_PM)).status).toBe("available");

    const promoCode = `BACK${crypto.randomBytes(3).toString("hex").toUpperCase()}`;
    expect(await promo(promoCode, { maxUses: 1 })).toMatchObject({ ok: true });
    const order = placed(await place(await readyCart(format.id, buyer.email, { promoCode }), NOON));
    const session = await sandbox.createCheckout({
      reference: order.id,
      description: order.number,
      amountCents: order.totalCents,
      currency: "usd",
      customerEmail: buyer.email,
      successUrl: "https://site/ok",
      cancelUrl: "https://site/no",
    });
    await db.updateTable("store_order").set({ provider: "sandbox", provider_session_id: session.id }).where("id", "=", order.id).execute();
    expect((await sandbox.pay(session.id, SANDBOX_CARDS.succeeds, NOON)).ok).toBe(true);
    expect(await markOrderPaid(db, order.id, NOON)).toBe(true);
    expect((await getDeskPromo(db, promoCode, NOON))?.state).toBe("used-up");
    await refundOrder(db, sandbox, ACTOR, order.id, { reason: "Returned", idempotencyKey: crypto.randomUUID() }, ONE_PM);
    expect(await promoUses(db, promoCode)).toBe(0);
    expect((await getDeskPromo(db, promoCode, ONE_PM))?.state).toBe("active");
    const uses = await promoUsesOf(db, promoCode);
    expect(uses.uses).toEqual([
      expect.objectContaining({ orderNumber: order.number, email: buyer.email.toLowerCase(), releasedAt: ONE_PM.toISOString() }),
    ]);
  });
});
