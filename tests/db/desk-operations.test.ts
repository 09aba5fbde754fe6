import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertUser, type User } from "~/server/accounts/users";
import { connect, type Database } from "~/server/db/connection";
import type { AuditActor } from "~/server/desk/audit";
import { createSandboxProvider, type SandboxProvider } from "~/server/payments/sandbox";
import { carrierFor } from "~/server/store/fulfilment/carriers";
import { deskOrder, orderListFilter, orderListPage } from "~/server/store/fulfilment/desk-orders";
import { fulfilLines, markDelivered } from "~/server/store/fulfilment/shipments";
import { purchaseHistory } from "~/server/store/purchase-history";
import { cancelPaidOrder, refundOrder } from "~/server/store/refunds/refunds";
import { progressWords } from "~/app/components/store/PurchaseHistoryList";
import { adminOrderSchema } from "~/app/lib/api/groups/admin-operations";
import { availabilities, insertOrder, payAtSandbox, type LineSpec } from "~/tests/helpers/store-orders";
import { dialectName, isolatedConnection, type IsolatedConnection } from "~/tests/helpers/test-db";

// What the Admin API's operations (ADR 088) and the reader's purchase history read of an order
// after payment, on the real database: the desk's one order view (lines that can still be
// dispatched or refunded, parcels, refunds, stage), the list's filter by state and day, carriers
// named as tools name them, and the buyer's own words for dispatch, delivery and refunds.

let connection: IsolatedConnection;
let db: Database;
let sandbox: SandboxProvider;
let pick: Awaited<ReturnType<typeof availabilities>>;
let buyer: User;
const NOW = new Date("2026-04-14T10:00:00.000Z");
const LATER = new Date("2026-04-16T09:00:00.000Z");
const STORE: AuditActor = { id: null, label: "API key Warehouse (abc123def456)" };
const key = () => crypto.randomUUID();

beforeAll(async () => {
  connection = await isolatedConnection("operations");
  db = connect(connection);
  sandbox = createSandboxProvider(db, { siteUrl: "https://meridian.test", webhookSecret: "whsec_test" });
  pick = await availabilities(db);
  buyer = (await insertUser(db, {
    firstName: "Ines",
    lastName: "Okafor",
    email: `operations-${crypto.randomUUID()}@example.org`,
    password: "Lantern5!quay",
    optIn: false,
  }))!;
}, 60_000);

afterAll(async () => {
  await db?.destroy();
  await connection?.drop();
});

/** The buyer's order, placed at `at`, paid at the sandbox and settled. */
async function paidOrder(lines: LineSpec[], at = NOW) {
  const order = await insertOrder(db, {
    userId: buyer.id,
    email: buyer.email,
    status: "pending_payment",
    createdAt: at.toISOString(),
    lines,
  });
  const { totalCents } = await payAtSandbox(db, sandbox, order, buyer.email, at);
  return { ...order, totalCents };
}

const entryOf = async (orderId: string) => {
  const { entries } = await purchaseHistory(db, buyer.id, 1, 100);
  return entries.find((e) => e.id === orderId)!;
};

describe(`the desk's order view and the buyer's history after payment (${dialectName})`, () => {
  it("names carriers as tools do: a known one by id or name in any case, any other as typed", () => {
    expect(["UPS", "ups", " Royal  mail ", "royal-mail", "FedEx", "DHL", "usps"].map(carrierFor)).toEqual([
      "ups",
      "ups",
      "royal-mail",
      "royal-mail",
      "fedex",
      "dhl",
      "usps",
    ]);
    expect(carrierFor("  Parcelforce Worldwide ")).toBe("Parcelforce Worldwide");
  });

  it("shows an order from payment through dispatch, delivery and refunds, line by line, in the documented shape", async () => {
    const order = await paidOrder([
      { availabilityId: pick.hardcover.id, quantity: 2 },
      { availabilityId: pick.kindle.id },
      { availabilityId: pick.bundle.id },
    ]);
    expect(await deskOrder(db, "NO-SUCH-ORDER")).toBeUndefined();
    expect(await deskOrder(db, "<script>")).toBeUndefined();

    const paid = (await deskOrder(db, order.number))!;
    expect([paid.stage, paid.refundState]).toEqual(["paid", "none"]);
    expect(paid.lines.map((l) => [l.position, l.ships, l.dispatchable, l.refundable, l.fulfilled_at !== null])).toEqual([
      [1, true, true, 2, false],
      [2, false, false, 1, true],
      [3, true, true, 1, false],
    ]);
    expect(await entryOf(order.id)).toMatchObject({ status: "Purchased", progress: { awaitingDispatch: true, shipments: [] } });
    expect(progressWords(await entryOf(order.id))).toEqual(["Not dispatched yet"]);

    const first = await fulfilLines(
      db,
      STORE,
      order.id,
      { positions: [1], carrier: carrierFor("UPS"), trackingNumber: "1Z999AA10123456784", idempotencyKey: key() },
      NOW,
    );
    expect(first).toMatchObject({ ok: true });
    const part = (await deskOrder(db, order.number))!;
    expect(part.stage).toBe("paid");
    expect(part.lines.map((l) => l.dispatchable)).toEqual([false, false, true]);
    expect(part.shipments).toMatchObject([
      { carrier: "ups", trackingNumber: "1Z999AA10123456784", positions: [1], shippedBy: STORE.label },
    ]);
    expect(progressWords(await entryOf(order.id))).toEqual(["Partly dispatched"]);

    const second = await fulfilLines(
      db,
      STORE,
      order.id,
      { positions: [3], carrier: carrierFor("Parcelforce"), trackingNumber: "PF 123", idempotencyKey: key() },
      LATER,
    );
    if (!first.ok || !second.ok) throw new Error("not dispatched");
    const entry = await entryOf(order.id);
    expect(progressWords(entry)).toEqual(["Dispatched"]);
    expect(entry.progress!.shipments).toEqual([
      {
        carrier: "UPS",
        trackingNumber: "1Z999AA10123456784",
        trackingUrl: "https://www.ups.com/track?tracknum=1Z999AA10123456784",
        shippedAt: NOW.toISOString(),
        deliveredAt: null,
      },
      // A carrier the site does not know: its number, and no link.
      { carrier: "Parcelforce", trackingNumber: "PF 123", trackingUrl: null, shippedAt: LATER.toISOString(), deliveredAt: null },
    ]);
    expect((await deskOrder(db, order.number))!.stage).toBe("fulfilled");

    await markDelivered(db, STORE, order.id, first.shipmentId, LATER);
    expect(progressWords(await entryOf(order.id))).toEqual(["Dispatched"]);
    await markDelivered(db, STORE, order.id, second.shipmentId, LATER);
    expect((await deskOrder(db, order.number))!.stage).toBe("delivered");
    expect((await entryOf(order.id)).progress!.shipments.map((s) => s.deliveredAt)).toEqual([LATER.toISOString(), LATER.toISOString()]);
    expect(progressWords(await entryOf(order.id))).toEqual(["Delivered"]);

    // One of the two hardcovers back, then the rest: the order's refunds add up to what was paid.
    const one = await refundOrder(
      db,
      sandbox,
      STORE,
      order.id,
      { lines: [{ position: 1, quantity: 1 }], reason: "Damaged", idempotencyKey: key() },
      LATER,
    );
    expect(one).toMatchObject({ ok: true, status: "succeeded" });
    const partly = (await deskOrder(db, order.number))!;
    expect(partly.refundState).toBe("partly-refunded");
    expect(partly.lines.map((l) => l.refundable)).toEqual([1, 1, 1]);
    expect(partly.refunds).toMatchObject([
      { kind: "lines", status: "succeeded", creditNote: expect.stringMatching(/^CN-\d{6}$/), lines: [{ position: 1, quantity: 1 }] },
    ]);
    const refunded = one.ok ? one.amountCents : 0;
    expect(progressWords(await entryOf(order.id))).toEqual([
      "Delivered",
      `Partly refunded: $${(refunded / 100).toFixed(2)} of $${(order.totalCents / 100).toFixed(2)}`,
    ]);

    expect(await refundOrder(db, sandbox, STORE, order.id, { reason: "Returned", idempotencyKey: key() }, LATER)).toMatchObject({
      ok: true,
    });
    const all = (await deskOrder(db, order.number))!;
    expect([all.stage, all.refundState, all.row.refunded_cents]).toEqual(["delivered", "refunded", order.totalCents]);
    expect(all.lines.map((l) => l.refundable)).toEqual([0, 0, 0]);
    expect(progressWords(await entryOf(order.id))).toEqual(["Delivered", `Refunded $${(order.totalCents / 100).toFixed(2)}`]);
    expect(await refundOrder(db, sandbox, STORE, order.id, { reason: "Again", idempotencyKey: key() }, LATER)).toEqual({
      ok: false,
      problem: "nothing-left",
    });
  });

  it("words a digital order, an order cancelled with a full refund and one cancelled unpaid plainly", async () => {
    const digital = await paidOrder([{ availabilityId: pick.kindle.id }]);
    expect((await deskOrder(db, digital.number))!.stage).toBe("fulfilled");
    expect(progressWords(await entryOf(digital.id))).toEqual([]);

    const cancelled = await paidOrder([{ availabilityId: pick.hardcover.id }]);
    expect(
      await cancelPaidOrder(db, sandbox, STORE, cancelled.id, { reason: "Changed their mind", idempotencyKey: key() }, NOW),
    ).toMatchObject({
      ok: true,
    });
    const entry = await entryOf(cancelled.id);
    expect(entry.status).toBe("Cancelled");
    expect(progressWords(entry)).toEqual([`Refunded $${(cancelled.totalCents / 100).toFixed(2)}`]);

    const unpaid = await insertOrder(db, {
      userId: buyer.id,
      email: buyer.email,
      status: "cancelled",
      createdAt: NOW.toISOString(),
      lines: [{ availabilityId: pick.hardcover.id }],
    });
    expect(progressWords(await entryOf(unpaid.id))).toEqual([]);
  });

  it("filters the list by stage, refund state and a range of UTC days, with codes beside the desk's words", async () => {
    const early = await paidOrder([{ availabilityId: pick.hardcover.id }], new Date("2025-01-10T23:59:00.000Z"));
    const late = await paidOrder([{ availabilityId: pick.hardcover.id }], new Date("2025-01-12T00:00:00.000Z"));
    await refundOrder(db, sandbox, STORE, late.id, { reason: "Lost", idempotencyKey: key() }, NOW);
    const numbers = async (filter: ReturnType<typeof orderListFilter>) =>
      (await orderListPage(db, filter, 1, 100)).rows.map((r) => r.number).filter((n) => n === early.number || n === late.number);

    expect(await numbers(orderListFilter(undefined, "2025-01-10", "2025-01-12"))).toEqual([late.number, early.number]);
    expect(await numbers(orderListFilter(undefined, "2025-01-10", "2025-01-10"))).toEqual([early.number]);
    expect(await numbers(orderListFilter(undefined, "2025-01-11", "2025-01-11"))).toEqual([]);
    expect(await numbers(orderListFilter("paid", "2025-01-01", undefined))).toEqual([early.number]);
    expect(await numbers(orderListFilter("refunded", undefined, "2025-12-31"))).toEqual([late.number]);
    const { rows } = await orderListPage(db, orderListFilter(undefined, "2025-01-12", "2025-01-12"), 1, 100);
    expect(rows.find((r) => r.number === late.number)).toMatchObject({
      // Refunded in full, nothing is left to dispatch: fulfilled, as ADR 086 has it.
      stage: "Fulfilled",
      refund: "Refunded",
      stageCode: "fulfilled",
      refundCode: "refunded",
      refundedCents: late.totalCents,
    });
  });
});

describe("the Admin API's order answer", () => {
  it("documents what the order view holds", async () => {
    const order = await paidOrder([{ availabilityId: pick.hardcover.id }, { availabilityId: pick.kindle.id }]);
    await refundOrder(
      db,
      sandbox,
      STORE,
      order.id,
      { lines: [{ position: 2, quantity: 1 }], reason: "Wrong edition", idempotencyKey: key() },
      NOW,
    );
    const { orderJson } = await import("~/app/lib/api/admin-operations.server");
    const json = orderJson((await deskOrder(db, order.number))!);
    expect(adminOrderSchema.strict().safeParse(json).success).toBe(true);
    const text = JSON.stringify(json);
    const secrets = await db
      .selectFrom("store_order")
      .select(["access_token", "idempotency_key", "provider_session_id"])
      .where("id", "=", order.id)
      .executeTakeFirstOrThrow();
    for (const secret of Object.values(secrets)) expect(text).not.toContain(secret);
  });
});
