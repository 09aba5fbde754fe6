import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertUser, type User } from "~/server/accounts/users";
import { connect, type Database } from "~/server/db/connection";
import type { AuditActor } from "~/server/desk/audit";
import { createSandboxProvider, type SandboxProvider } from "~/server/payments/sandbox";
import { openDownload } from "~/server/store/downloads";
import { sendDispatchMails } from "~/server/store/fulfilment/dispatch-mail";
import { orderStage, refundState } from "~/server/store/fulfilment/lifecycle";
import { fulfilLines, markDelivered } from "~/server/store/fulfilment/shipments";
import { promoUses, takePromoUse } from "~/server/store/promo";
import { cancelPaidOrder, refundOrder, refundsOf } from "~/server/store/refunds/refunds";
import { sendRefundReceipts } from "~/server/store/refunds/refund-mail";
import { redeemVoucher, voucherState } from "~/server/store/vouchers";
import { pdfText, readPdf } from "~/tests/helpers/pdf-reader";
import { recordingMail } from "~/tests/helpers/store-checkout";
import { availabilities, insertOrder, payAtSandbox, type LineSpec } from "~/tests/helpers/store-orders";
import { dialectName, isolatedConnection, type IsolatedConnection } from "~/tests/helpers/test-db";

// The store's orders after payment (ADR 086) on the real database: dispatch with tracking,
// delivery, cancelling with a full refund, refunds of chosen lines through the sandbox provider,
// credit notes and their mail, downloads closing, vouchers and promo uses given back, and no
// refund past what was paid even when two staff members (two connections) refund at once.

let connection: IsolatedConnection;
let db: Database;
let other: Database;
let sandbox: SandboxProvider;
let pick: Awaited<ReturnType<typeof availabilities>>;
let buyer: User;
const NOW = new Date("2026-03-02T10:00:00.000Z");
const STAFF: AuditActor = { id: null, label: "store@example.org" };
const { sent, mail } = recordingMail();

beforeAll(async () => {
  connection = await isolatedConnection("refunds");
  db = connect(connection);
  other = connect(connection);
  sandbox = createSandboxProvider(db, { siteUrl: "https://meridian.test", webhookSecret: "whsec_test" });
  pick = await availabilities(db);
  buyer = (await insertUser(db, {
    firstName: "Nadia",
    lastName: "Perez",
    email: `refunds-${crypto.randomUUID()}@example.org`,
    password: "Lantern5!quay",
    optIn: false,
  }))!;
}, 60_000);

afterAll(async () => {
  await db?.destroy();
  await other?.destroy();
  await connection?.drop();
});

/** An order paid at the sandbox: its checkout opened, paid with the test card, and settled. */
async function paidOrder(lines: LineSpec[], extra: { promoCode?: string; shippingCents?: number } = {}) {
  const order = await insertOrder(db, {
    userId: buyer.id,
    email: buyer.email,
    status: "pending_payment",
    createdAt: NOW.toISOString(),
    lines,
  });
  if (extra.promoCode || extra.shippingCents)
    await db
      .updateTable("store_order")
      .set((eb) => ({
        promo_code: extra.promoCode ?? null,
        shipping_cents: extra.shippingCents ?? 0,
        total_cents: eb("total_cents", "+", extra.shippingCents ?? 0),
      }))
      .where("id", "=", order.id)
      .execute();
  if (extra.promoCode) {
    // The order holds a use of the code, as the checkout takes one when it places an order (ADR 091).
    await db
      .insertInto("promo_code")
      .values({
        code: extra.promoCode,
        description: "Test",
        percent_off: 10,
        amount_off_cents: null,
        product_type: null,
        starts_at: "2020-01-01T00:00:00.000Z",
        expires_at: null,
        updated_at: null,
        updated_by_name: null,
        max_uses: null,
        max_uses_per_reader: null,
        disabled_at: null,
      })
      .execute();
    await db.transaction().execute(async (tx) => {
      expect(await takePromoUse(tx, extra.promoCode!, { orderId: order.id, userId: buyer.id, email: buyer.email }, NOW)).toEqual({
        ok: true,
      });
    });
  }
  return { ...order, ...(await payAtSandbox(db, sandbox, order, buyer.email, NOW)) };
}

const orderRow = (id: string) => db.selectFrom("store_order").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const sandboxRefunded = async (sessionId: string) =>
  (await db.selectFrom("sandbox_refund").select("amount_cents").where("payment_id", "=", sessionId).execute()).reduce(
    (n, r) => n + r.amount_cents,
    0,
  );
const key = () => crypto.randomUUID();

describe(`an order's life after payment (${dialectName})`, () => {
  it("fulfils digital lines at payment, dispatches print lines with tracking once, mails the buyer, and marks them delivered", async () => {
    const order = await paidOrder([{ availabilityId: pick.hardcover.id }, { availabilityId: pick.kindle.id }]);
    const lines = await db
      .selectFrom("store_order_line")
      .select(["position", "fulfilled_at"])
      .where("order_id", "=", order.id)
      .orderBy("position")
      .execute();
    expect(lines).toEqual([
      { position: 1, fulfilled_at: null },
      { position: 2, fulfilled_at: NOW.toISOString() },
    ]);
    expect(orderStage(await orderRow(order.id))).toBe("paid");

    expect(
      await fulfilLines(db, STAFF, order.id, { positions: [2], carrier: "ups", trackingNumber: "1Z999", idempotencyKey: key() }, NOW),
    ).toEqual({
      ok: false,
      problem: "not-shippable",
    });
    const form = key();
    const shipped = await fulfilLines(
      db,
      STAFF,
      order.id,
      { positions: [1], carrier: "ups", trackingNumber: "1Z999AA10123456784", idempotencyKey: form },
      NOW,
    );
    expect(shipped).toMatchObject({ ok: true, replay: false });
    // The same form again is the same shipment; another form for the same line is refused.
    expect(
      await fulfilLines(
        db,
        STAFF,
        order.id,
        { positions: [1], carrier: "ups", trackingNumber: "1Z999AA10123456784", idempotencyKey: form },
        NOW,
      ),
    ).toMatchObject({
      ok: true,
      replay: true,
    });
    expect(
      await fulfilLines(db, STAFF, order.id, { positions: [1], carrier: "dhl", trackingNumber: "123", idempotencyKey: key() }, NOW),
    ).toEqual({
      ok: false,
      problem: "already-shipped",
    });
    expect(orderStage(await orderRow(order.id))).toBe("fulfilled");
    expect(await db.selectFrom("store_shipment").select("id").where("order_id", "=", order.id).execute()).toHaveLength(1);

    sent.length = 0;
    expect(await sendDispatchMails(db, mail, NOW)).toBe(1);
    expect(await sendDispatchMails(db, mail, NOW)).toBe(0);
    expect(sent[0]!.to).toBe(buyer.email);
    expect(sent[0]!.subject).toBe(`Your Meridian Review order ${order.number} has been dispatched`);
    expect(sent[0]!.text).toContain("Track your parcel: https://www.ups.com/track?tracknum=1Z999AA10123456784");
    expect(sent[0]!.text).toContain(`1 × ${pick.hardcover.title}`);

    if (!shipped.ok) throw new Error("not shipped");
    expect(await markDelivered(db, STAFF, order.id, shipped.shipmentId, NOW)).toEqual({ ok: true, changed: true });
    expect(await markDelivered(db, STAFF, order.id, shipped.shipmentId, NOW)).toEqual({ ok: true, changed: false });
    expect(orderStage(await orderRow(order.id))).toBe("delivered");
    const audit = await db.selectFrom("desk_audit").select("action").where("subject", "=", `order:${order.number}`).execute();
    expect(audit.map((a) => a.action).sort()).toEqual(["order.deliver", "order.fulfil"]);
  });

  it("cancels a paid order with a full refund before anything ships, and refuses once something has", async () => {
    const order = await paidOrder([{ availabilityId: pick.hardcover.id }, { availabilityId: pick.kindle.id }], { shippingCents: 599 });
    const cancelled = await cancelPaidOrder(
      db,
      sandbox,
      STAFF,
      order.id,
      { reason: "Buyer changed their mind", idempotencyKey: key() },
      NOW,
    );
    expect(cancelled).toMatchObject({ ok: true, status: "succeeded", amountCents: order.totalCents });
    const row = await orderRow(order.id);
    expect([orderStage(row), refundState(row)]).toEqual(["cancelled", "refunded"]);
    expect(await sandboxRefunded(order.sessionId)).toBe(order.totalCents);
    // The ebook's download closed with the refund.
    expect(await openDownload(db, { orderId: order.id, position: "2", userId: buyer.id, key: null }, NOW)).toMatchObject({
      status: "refunded",
    });

    const shipped = await paidOrder([{ availabilityId: pick.hardcover.id }]);
    await fulfilLines(db, STAFF, shipped.id, { positions: [1], carrier: "usps", trackingNumber: "9400", idempotencyKey: key() }, NOW);
    expect(await cancelPaidOrder(db, sandbox, STAFF, shipped.id, { reason: "Too late", idempotencyKey: key() }, NOW)).toEqual({
      ok: false,
      problem: "shipped",
    });
    expect((await orderRow(shipped.id)).status).toBe("paid");
    expect(await sandboxRefunded(shipped.sessionId)).toBe(0);
  });

  it("refunds chosen lines at their share, then the rest with shipping; mails credit notes numbered in their own sequence", async () => {
    const order = await paidOrder([{ availabilityId: pick.hardcover.id, quantity: 2 }, { availabilityId: pick.kindle.id }], {
      shippingCents: 500,
    });
    const lines = await db
      .selectFrom("store_order_line")
      .select(["position", "line_total_cents"])
      .where("order_id", "=", order.id)
      .orderBy("position")
      .execute();
    const ebook = await refundOrder(
      db,
      sandbox,
      STAFF,
      order.id,
      { lines: [{ position: 2, quantity: 1 }], reason: "Faulty file", idempotencyKey: key() },
      NOW,
    );
    expect(ebook).toMatchObject({ ok: true, status: "succeeded", amountCents: lines[1]!.line_total_cents });
    const oneCopy = await refundOrder(
      db,
      sandbox,
      STAFF,
      order.id,
      { lines: [{ position: 1, quantity: 1 }], reason: "Damaged copy", idempotencyKey: key() },
      NOW,
    );
    expect(oneCopy).toMatchObject({ ok: true, amountCents: lines[0]!.line_total_cents / 2 });
    expect(refundState(await orderRow(order.id))).toBe("partly-refunded");
    // More than is left of a line is refused, and changes nothing.
    expect(
      await refundOrder(db, sandbox, STAFF, order.id, { lines: [{ position: 1, quantity: 2 }], reason: "x", idempotencyKey: key() }, NOW),
    ).toEqual({
      ok: false,
      problem: "bad-lines",
    });
    expect(
      await refundOrder(db, sandbox, STAFF, order.id, { lines: [{ position: 9, quantity: 1 }], reason: "x", idempotencyKey: key() }, NOW),
    ).toEqual({
      ok: false,
      problem: "bad-lines",
    });
    const rest = await refundOrder(db, sandbox, STAFF, order.id, { reason: "Whole order returned", idempotencyKey: key() }, NOW);
    expect(rest).toMatchObject({ ok: true, amountCents: lines[0]!.line_total_cents / 2 + 500 });
    expect(await refundOrder(db, sandbox, STAFF, order.id, { reason: "Again", idempotencyKey: key() }, NOW)).toEqual({
      ok: false,
      problem: "nothing-left",
    });
    expect(await sandboxRefunded(order.sessionId)).toBe(order.totalCents);
    expect(refundState(await orderRow(order.id))).toBe("refunded");

    const refunds = await refundsOf(db, order.id);
    const numbers = refunds.map((r) => Number(r.creditNote!.slice(3))).sort((a, b) => a - b);
    expect(refunds.map((r) => r.creditNote).sort()).toEqual(numbers.map((_, i) => `CN-${String(numbers[0]! + i).padStart(6, "0")}`));
    sent.length = 0;
    expect(await sendRefundReceipts(db, mail, NOW)).toBeGreaterThanOrEqual(3);
    expect(await sendRefundReceipts(db, mail, NOW)).toBe(0);
    const first = sent.find((m) => m.text.includes(refunds[0]!.creditNote!))!;
    expect(first.subject).toBe(`Your Meridian Review refund for order ${order.number}`);
    expect(first.text).toContain(`1 × ${pick.kindle.title}`);
    const attachment = first.attachments![0]!;
    expect(attachment.filename).toBe(`credit-note-${refunds[0]!.creditNote}.pdf`);
    const text = pdfText((await readPdf(new Uint8Array(attachment.content))).pages);
    expect(text).toContain(`Credit note ${refunds[0]!.creditNote}`);
    expect(text).toContain("Total refunded");
    const audit = await db.selectFrom("desk_audit").select(["action", "after"]).where("subject", "=", `order:${order.number}`).execute();
    expect(audit.filter((a) => a.action === "order.refund")).toHaveLength(3);
    expect(audit.some((a) => String(a.after).includes("Faulty file"))).toBe(true);
  });

  it("never refunds more than was paid when two staff members refund at once, nor twice for one form sent twice", async () => {
    const order = await paidOrder([{ availabilityId: pick.hardcover.id }, { availabilityId: pick.kindle.id }]);
    const staffSandbox = createSandboxProvider(other, { siteUrl: "https://meridian.test", webhookSecret: "whsec_test" });
    const results = await Promise.all([
      refundOrder(db, sandbox, STAFF, order.id, { reason: "Ada", idempotencyKey: key() }, NOW),
      refundOrder(
        other,
        staffSandbox,
        { id: null, label: "service@example.org" },
        order.id,
        { reason: "Grace", idempotencyKey: key() },
        NOW,
      ),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok)).toEqual([{ ok: false, problem: "nothing-left" }]);
    expect(await sandboxRefunded(order.sessionId)).toBe(order.totalCents);
    expect((await orderRow(order.id)).refunded_cents).toBe(order.totalCents);

    const twice = await paidOrder([{ availabilityId: pick.hardcover.id }, { availabilityId: pick.kindle.id }]);
    const form = key();
    const same = await Promise.all([
      refundOrder(db, sandbox, STAFF, twice.id, { lines: [{ position: 2, quantity: 1 }], reason: "Twice", idempotencyKey: form }, NOW),
      refundOrder(
        other,
        staffSandbox,
        STAFF,
        twice.id,
        { lines: [{ position: 2, quantity: 1 }], reason: "Twice", idempotencyKey: form },
        NOW,
      ),
    ]);
    // One refund between them; the other answers it as it stands (perhaps still with the provider).
    expect(same.every((r) => r.ok)).toBe(true);
    expect(new Set(same.map((r) => r.ok && r.refundId)).size).toBe(1);
    expect(same.map((r) => r.ok && r.replay).sort()).toEqual([false, true]);
    expect(await db.selectFrom("store_refund").select("id").where("order_id", "=", twice.id).execute()).toHaveLength(1);
  });

  it("gives back a voucher and a promo code's use when their order is refunded in full", async () => {
    const voucher = await db
      .selectFrom("voucher")
      .select("code")
      .where("code", "not in", db.selectFrom("voucher_use").select("code"))
      .executeTakeFirstOrThrow();
    const redeemed = await redeemVoucher(db, voucher.code, buyer, NOW);
    if (!redeemed.ok) throw new Error(redeemed.problem);
    expect((await voucherState(db, voucher.code, NOW)).status).toBe("used");
    const refunded = await refundOrder(db, sandbox, STAFF, redeemed.orderId, { reason: "Wrong item", idempotencyKey: key() }, NOW);
    expect(refunded).toMatchObject({ ok: true, status: "succeeded", amountCents: 0 });
    expect(
      await db.selectFrom("voucher_use").select(["order_id", "released_at"]).where("code", "=", voucher.code).executeTakeFirstOrThrow(),
    ).toEqual({ order_id: redeemed.orderId, released_at: NOW.toISOString() });
    expect((await voucherState(db, voucher.code, NOW)).status).toBe("available");

    const code = `REFUNDS${crypto.randomBytes(3).toString("hex").toUpperCase()}`;
    const promoted = await paidOrder([{ availabilityId: pick.kindle.id }], { promoCode: code });
    expect(await promoUses(db, code, buyer.id)).toBe(1);
    await refundOrder(db, sandbox, STAFF, promoted.id, { reason: "Returned", idempotencyKey: key() }, NOW);
    expect(await promoUses(db, code, buyer.id)).toBe(0);
  });
});
