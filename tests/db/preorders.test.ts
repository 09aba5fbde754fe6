import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type Database } from "~/server/db/connection";
import type { PreorderCharge } from "~/server/db/schema";
import type { AuditActor } from "~/server/desk/audit";
import type { Editor } from "~/server/desk/catalogue/common";
import { getDeskAvailability, saveAvailability } from "~/server/desk/products";
import { createSandboxProvider, SANDBOX_CARDS, type SandboxProvider } from "~/server/payments/sandbox";
import { addToCart, createCart, readCart } from "~/server/store/cart";
import { downloadsForOrder, openDownload } from "~/server/store/downloads";
import { deskOrder } from "~/server/store/fulfilment/desk-orders";
import { fulfilLines } from "~/server/store/fulfilment/shipments";
import { settleOrder, startOrderPayment } from "~/server/store/order-payment";
import { findOrder, orderForViewer, type Order } from "~/server/store/order-records";
import { issueIdempotencyKey } from "~/server/store/order-submit";
import { canPayAgain, handlePreorderPaymentEvent, settlePreorderPayment, startPreorderPayment } from "~/server/store/preorder-payment";
import { chargeDue, runPreorders, sendPreorderNotices } from "~/server/store/preorders";
import { cancelPaidOrder, refundOrder } from "~/server/store/refunds/refunds";
import { formatUsd } from "~/shared/money";
import { PAY_AGAIN } from "~/shared/preorders";
import { NOON_IN_NEW_YORK as NOON, placeOrder, preorderCatalogue, recordingMail } from "~/tests/helpers/store-checkout";
import { dialectName, isolatedConnection, type IsolatedConnection } from "~/tests/helpers/test-db";

// Pre-orders (issue 39, ADR 092) on the database the run uses, through the real cart, order and
// sandbox checkout: a coming-soon format charged with the order or on its date, the scheduled
// job's run on the date (run twice, it charges once), downloads and dispatch held until then, the
// buyer's mails, a declined card, and cancelling or refunding before and after the charge.

const STAFF: AuditActor = { id: null, label: "store@meridian.example" };
const EDITOR: Editor = { actor: STAFF, name: "Stella Store" };
const GUEST = { guest: "preorder@example.org" };
/** When the job runs: noon the day before the coming-soon date and the day after (orders are placed at NOON, long before). */
let BEFORE: Date;
let AFTER: Date;

let connection: IsolatedConnection;
let db: Database;
let sandbox: SandboxProvider;
const { sent, mail } = recordingMail();
let soonEbook: number;
let soonHardcover: number;
let onSaleHardcover: number;

beforeAll(async () => {
  connection = await isolatedConnection("preorders");
  db = connect(connection);
  sandbox = createSandboxProvider(db, { siteUrl: "https://meridian.test", webhookSecret: "whsec_test" });
  ({ soonEbook, soonHardcover, onSaleHardcover, dayBefore: BEFORE, dayAfter: AFTER } = await preorderCatalogue(db));
}, 60_000);

afterAll(async () => {
  await db?.destroy();
  await connection?.drop();
});

const chargedWhen = (availabilityId: number, policy: PreorderCharge) =>
  db.updateTable("product_availability").set({ preorder_charge: policy }).where("id", "=", availabilityId).execute();

/** A guest's order of these items, placed through the cart and checkout, paid at the sandbox with `card`. */
async function paidOrder(items: number[], card: string = SANDBOX_CARDS.succeeds): Promise<Order & { sessionId: string }> {
  const order = await placeOrder(db, GUEST, items, NOON, sandbox);
  await startOrderPayment(db, sandbox, order, { successUrl: "https://meridian.test/ok", cancelUrl: "https://meridian.test/no" });
  const { provider_session_id: sessionId } = await db
    .selectFrom("store_order")
    .select("provider_session_id")
    .where("id", "=", order.id)
    .executeTakeFirstOrThrow();
  expect((await sandbox.pay(sessionId!, card, NOON)).ok).toBe(true);
  expect(await settleOrder(db, sandbox, order.id, NOON)).toBe("paid");
  return { ...order, sessionId: sessionId! };
}

const sandboxPayment = async (sessionId: string) => (await sandbox.payment(sessionId))!;
const chargesOf = (orderId: string) =>
  db
    .selectFrom("sandbox_charge")
    .select(["id", "amount_cents", "status"])
    .where("idempotency_key", "like", `preorder:${orderId}:%`)
    .execute();
/** What the sandbox gave back of the session's payment, or of a charge made later to its card. */
const refundsAt = (sessionId: string, chargeId: string | null = null) =>
  db
    .selectFrom("sandbox_refund")
    .select("amount_cents")
    .where("payment_id", "=", sessionId)
    .where("charge_id", chargeId ? "=" : "is", chargeId)
    .execute();
const mailsTo = (subject: RegExp) => sent.filter((m) => subject.test(m.subject));
const desk = async (order: Order) => (await deskOrder(db, order.number))!;
const open = (order: Order, position: number, at: Date) =>
  openDownload(db, { orderId: order.id, position: String(position), userId: null, key: order.accessToken }, at);

describe(`pre-orders (${dialectName})`, () => {
  it("lets the desk choose when a coming-soon format's pre-orders are charged, audited, and the cart follows it", async () => {
    const { product_id } = await db
      .selectFrom("product_availability")
      .select("product_id")
      .where("id", "=", soonEbook)
      .executeTakeFirstOrThrow();
    const format = (await getDeskAvailability(db, product_id, soonEbook, NOON))!;
    expect(format.preorderCharge).toBe("payment");
    const fields = {
      format: format.format,
      code: format.code,
      lineType: format.lineType,
      language: format.language,
      status: format.state,
      availableDate: format.availableDate ?? undefined,
      permissionsAvailable: format.permissionsAvailable,
      volumePricing: format.volumePricing,
      version: format.version,
    };
    const saved = await saveAvailability(db, EDITOR, product_id, soonEbook, { ...fields, preorderCharge: "ship" }, NOON);
    expect(saved).toMatchObject({ ok: true, changed: true, value: { preorderCharge: "ship" } });
    const audit = await db
      .selectFrom("desk_audit")
      .select(["action", "before", "after"])
      .where("action", "=", "availability.save")
      .orderBy("at", "desc")
      .executeTakeFirstOrThrow();
    expect(JSON.parse(audit.before!)).toMatchObject({ preorderCharge: "payment" });
    expect(JSON.parse(audit.after!)).toMatchObject({ preorderCharge: "ship" });
    const cart = await createCart(db, null, NOON);
    await addToCart(db, cart, { availabilityId: soonEbook, quantity: 1, referral: null }, NOON);
    expect((await readCart(db, cart, NOON)).lines).toMatchObject([{ comingSoon: true, preorderCharge: "ship" }]);
    await chargedWhen(soonEbook, "payment");
  });

  it("charges a pre-order 'when it ships' on its date, once however often the job runs, and opens its download then", async () => {
    await chargedWhen(soonEbook, "ship");
    const order = await paidOrder([soonEbook, onSaleHardcover]);
    const ebook = order.lines.find((l) => l.availabilityId === soonEbook);
    const hardcover = order.lines.find((l) => l.availabilityId === onSaleHardcover);
    expect(ebook!.chargeLaterCents).toBeGreaterThan(0);
    expect(hardcover!.chargeLaterCents).toBeNull();
    expect(order.deferredCents).toBe(ebook!.chargeLaterCents);
    // The checkout took the rest, and kept the card.
    expect((await sandboxPayment(order.sessionId)).amountCents).toBe(order.totalCents - order.deferredCents);
    expect((await sandbox.retrieveCheckout(order.sessionId)).card).not.toBeNull();

    expect(await downloadsForOrder(db, order.id, BEFORE, order.accessToken)).toEqual([]);
    expect(await open(order, ebook!.position, BEFORE)).toEqual({ status: "not-found" });
    expect((await desk(order)).lines.map((l) => [l.availability_id, l.preorder, l.dispatchable])).toEqual(
      expect.arrayContaining([
        [soonEbook, "awaiting", false],
        [onSaleHardcover, null, true],
      ]),
    );
    expect(await runPreorders(db, sandbox, mail, BEFORE)).toEqual({ charged: 0, declined: 0, released: 0, mailed: 0, customersDeleted: 0 });
    expect(await chargesOf(order.id)).toEqual([]);

    const before = mailsTo(/ready to download/).length;
    expect(await runPreorders(db, sandbox, mail, AFTER)).toMatchObject({ charged: 1, declined: 0, released: 1 });
    expect(await runPreorders(db, sandbox, mail, AFTER)).toEqual({ charged: 0, declined: 0, released: 0, mailed: 0, customersDeleted: 0 });
    const charges = await chargesOf(order.id);
    expect(charges).toEqual([expect.objectContaining({ amount_cents: ebook!.chargeLaterCents, status: "succeeded" })]);
    // Taken in all: the order's total, never more.
    expect((await sandboxPayment(order.sessionId)).amountCents + charges[0]!.amount_cents).toBe(order.totalCents);
    expect((await open(order, ebook!.position, AFTER)).status).toBe("ok");
    const told = mailsTo(/ready to download/).slice(before);
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ to: "preorder@example.org" });
    expect(told[0]!.text).toContain(`/order/${order.id}?key=${order.accessToken}`);
    expect(told[0]!.text).toContain(`We have taken ${formatUsd(ebook!.chargeLaterCents!)} for it.`);
    expect((await desk(order)).lines.find((l) => l.position === ebook!.position)!.preorder).toBe("released");

    // Refunding the pre-order after its charge gives that charge back.
    const refund = await refundOrder(
      db,
      sandbox,
      STAFF,
      order.id,
      { lines: [{ position: ebook!.position, quantity: 1 }], reason: "Changed their mind", idempotencyKey: issueIdempotencyKey() },
      AFTER,
    );
    expect(refund).toMatchObject({ ok: true, status: "succeeded", amountCents: ebook!.chargeLaterCents });
    expect(await refundsAt(order.sessionId, charges[0]!.id)).toEqual([{ amount_cents: ebook!.chargeLaterCents }]);
    expect(await refundsAt(order.sessionId)).toEqual([]);
  });

  it("charges a pre-order 'at payment' with the order, and makes its print copy ready to ship on its date", async () => {
    await chargedWhen(soonHardcover, "payment");
    const order = await paidOrder([soonHardcover]);
    expect(order.deferredCents).toBe(0);
    expect((await sandboxPayment(order.sessionId)).amountCents).toBe(order.totalCents);
    const [line] = (await desk(order)).lines;
    expect([line!.preorder, line!.dispatchable]).toEqual(["awaiting", false]);
    const parcel = { positions: [line!.position], carrier: "ups", trackingNumber: "1Z999", idempotencyKey: issueIdempotencyKey() };
    expect(await fulfilLines(db, STAFF, order.id, parcel, BEFORE)).toEqual({ ok: false, problem: "not-shippable" });

    const mails = sent.length;
    expect(await runPreorders(db, sandbox, mail, AFTER)).toMatchObject({ charged: 0, released: 1 });
    // A print copy's buyer hears of it when it is dispatched.
    expect(sent.length).toBe(mails);
    expect(await chargesOf(order.id)).toEqual([]);
    expect((await desk(order)).lines.map((l) => [l.preorder, l.dispatchable])).toEqual([["released", true]]);
    expect(await fulfilLines(db, STAFF, order.id, parcel, AFTER)).toMatchObject({ ok: true, replay: false });
  });

  it("tells the buyer of a print pre-order charged on its date what was taken, once, before its dispatch mail", async () => {
    await chargedWhen(soonHardcover, "ship");
    const order = await paidOrder([soonHardcover]);
    const [line] = order.lines;
    expect(line!.chargeLaterCents).toBeGreaterThan(0);
    const before = mailsTo(/Payment taken for your pre-order/).length;
    expect(await runPreorders(db, sandbox, mail, AFTER)).toMatchObject({ charged: 1, released: 1, mailed: 1 });
    expect(await runPreorders(db, sandbox, mail, AFTER)).toMatchObject({ charged: 0, released: 0, mailed: 0 });
    const told = mailsTo(/Payment taken for your pre-order/).slice(before);
    expect(told).toEqual([expect.objectContaining({ subject: `Payment taken for your pre-order ${order.number}` })]);
    expect(told[0]!.text).toContain(`We have taken ${formatUsd(line!.chargeLaterCents!)} for it.`);
    expect(told[0]!.text).toContain("We will e-mail you again when it is dispatched");
    expect(told[0]!.text).not.toContain("Download");
    expect((await desk(order)).lines.map((l) => [l.preorder, l.dispatchable])).toEqual([["released", true]]);
  });

  it("marks a declined charge for staff, mails the buyer once, and keeps the download closed", async () => {
    await chargedWhen(soonEbook, "ship");
    const order = await paidOrder([soonEbook, onSaleHardcover], SANDBOX_CARDS.declinesLater);
    const before = mailsTo(/could not take the payment/).length;
    expect(await runPreorders(db, sandbox, mail, AFTER)).toMatchObject({ charged: 0, declined: 1, released: 0 });
    expect(await runPreorders(db, sandbox, mail, AFTER)).toEqual({ charged: 0, declined: 0, released: 0, mailed: 0, customersDeleted: 0 });
    expect(await chargesOf(order.id)).toEqual([expect.objectContaining({ status: "declined" })]);
    const told = mailsTo(/could not take the payment/).slice(before);
    expect(told).toHaveLength(1);
    expect(told[0]!.text).toContain(`"${PAY_AGAIN}":\nhttps://meridian.test/order/${order.id}?key=${order.accessToken}`);
    expect(told[0]!.text).toContain("To cancel it instead, please contact Customer Service.");
    const ebook = (await desk(order)).lines.find((l) => l.availability_id === soonEbook)!;
    expect(ebook.preorder).toBe("declined");
    expect(await open(order, ebook.position, AFTER)).toEqual({ status: "not-found" });
  });

  it("lets the buyer of a declined pre-order pay for it with another card at its own checkout, once, then releases it and refunds go there", async () => {
    await chargedWhen(soonEbook, "ship");
    const placed = await paidOrder([soonEbook, onSaleHardcover], SANDBOX_CARDS.declinesLater);
    await runPreorders(db, sandbox, mail, AFTER);
    const order = (await findOrder(db, placed.id))!;
    const ebook = order.lines.find((l) => l.availabilityId === soonEbook)!;
    expect(canPayAgain(order, ebook)).toBe(true);
    // Only its buyer (signed in, or holding the order's key) reaches the order, and so the button.
    expect(await orderForViewer(db, order.id, { userId: "someone-else", key: null })).toBeUndefined();
    expect(await orderForViewer(db, order.id, { userId: null, key: "not-the-key" })).toBeUndefined();
    expect((await orderForViewer(db, order.id, { userId: null, key: order.accessToken }))?.id).toBe(order.id);

    // Sent twice: one checkout, for what the line owes.
    const urls = { successUrl: `https://meridian.test/order/${order.id}?key=${order.accessToken}`, cancelUrl: "https://meridian.test/no" };
    const opened = await Promise.all([1, 2].map(() => startPreorderPayment(db, sandbox, order, ebook.position, urls, AFTER)));
    expect(opened[0]).toEqual(opened[1]);
    if (opened[0]!.kind !== "checkout") throw new Error(opened[0]!.kind);
    const sessionId = opened[0]!.url.split("/").at(-1)!;
    const owed = chargeDue({ charge_cents: ebook.chargeLaterCents!, quantity: ebook.quantity, refunded_quantity: ebook.refundedQuantity });
    expect(await sandboxPayment(sessionId)).toMatchObject({ amountCents: owed, mode: "payment", status: "open" });

    // Declined again at the checkout, then paid with another card.
    expect(await sandbox.pay(sessionId, SANDBOX_CARDS.declined, AFTER)).toMatchObject({ ok: false });
    // Signed as it is paid: now.
    const paid = await sandbox.pay(sessionId, SANDBOX_CARDS.succeeds);
    if (!paid.ok) throw new Error(paid.error);
    expect(paid.redirectUrl).toBe(`${urls.successUrl}&session_id=${sessionId}`);
    const event = sandbox.parseWebhook(paid.callback.body, paid.callback.signature);
    expect(await handlePreorderPaymentEvent(db, sandbox, event, AFTER)).toBe("paid");
    expect(await settlePreorderPayment(db, sandbox, order.id, sessionId, AFTER)).toBe("paid");
    const line = (await findOrder(db, order.id))!.lines.find((l) => l.position === ebook.position)!;
    expect(line).toMatchObject({ chargedAt: AFTER.toISOString(), chargeFailedAt: null, releasedAt: AFTER.toISOString() });
    expect(canPayAgain(order, line)).toBe(false);
    expect((await open(order, ebook.position, AFTER)).status).toBe("ok");
    const ready = mailsTo(/ready to download/).length;
    expect(await sendPreorderNotices(db, mail, AFTER)).toBe(1);
    expect(mailsTo(/ready to download/)).toHaveLength(ready + 1);
    expect(await startPreorderPayment(db, sandbox, (await findOrder(db, order.id))!, ebook.position, urls, AFTER)).toEqual({
      kind: "not-payable",
    });
    expect(await runPreorders(db, sandbox, mail, AFTER)).toEqual({ charged: 0, declined: 0, released: 0, mailed: 0, customersDeleted: 0 });

    const refund = await refundOrder(
      db,
      sandbox,
      STAFF,
      order.id,
      { lines: [{ position: ebook.position, quantity: 1 }], reason: "Changed their mind", idempotencyKey: issueIdempotencyKey() },
      AFTER,
    );
    expect(refund).toMatchObject({ ok: true, status: "succeeded", amountCents: owed });
    expect(await refundsAt(sessionId)).toEqual([{ amount_cents: owed }]);
    expect(await refundsAt(placed.sessionId)).toEqual([]);
  });

  it("cancels a pre-order not yet charged with a refund of only what was taken, and never charges it", async () => {
    await chargedWhen(soonEbook, "ship");
    const order = await paidOrder([soonEbook, onSaleHardcover]);
    const taken = (await sandboxPayment(order.sessionId)).amountCents;
    const cancelled = await cancelPaidOrder(
      db,
      sandbox,
      STAFF,
      order.id,
      { reason: "Buyer asked", idempotencyKey: issueIdempotencyKey() },
      BEFORE,
    );
    expect(cancelled).toMatchObject({ ok: true, status: "succeeded", amountCents: taken });
    expect(await refundsAt(order.sessionId)).toEqual([{ amount_cents: taken }]);
    expect(await runPreorders(db, sandbox, mail, AFTER)).toMatchObject({ charged: 0, released: 0 });
    expect(await chargesOf(order.id)).toEqual([]);
  });

  it("refunds a pre-order line not yet charged for nothing, and charges only what is left of the order on the date", async () => {
    await chargedWhen(soonEbook, "ship");
    const order = await paidOrder([soonEbook]);
    expect((await sandboxPayment(order.sessionId)).mode).toBe("setup");
    const refund = await refundOrder(
      db,
      sandbox,
      STAFF,
      order.id,
      { reason: "Buyer asked", idempotencyKey: issueIdempotencyKey() },
      BEFORE,
    );
    expect(refund).toMatchObject({ ok: true, status: "succeeded", amountCents: 0 });
    expect(await runPreorders(db, sandbox, mail, AFTER)).toMatchObject({ charged: 0, released: 0 });
    expect(await chargesOf(order.id)).toEqual([]);
  });
});
