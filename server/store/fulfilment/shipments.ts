import crypto from "node:crypto";
import type { Database } from "~/server/db/connection";
import { recordAudit, type AuditActor } from "~/server/desk/audit";
import { awaitingRelease, lineShips } from "./lifecycle";

// Dispatching an order's print lines with a carrier and tracking number, and marking a shipment
// delivered (ADR 086). Each is one transaction with its audit row; the order's row is written
// first, conditionally, so a dispatch and a cancellation of the same order cannot both happen.

export interface ShipmentInput {
  /** Positions of the order's lines in this parcel. */
  positions: number[];
  /** A known carrier's id (carriers.ts) or a name as typed. */
  carrier: string;
  trackingNumber: string;
  /** From the desk's form: the same form sent again is the same shipment. */
  idempotencyKey: string;
}

export type FulfilOutcome =
  | { ok: true; shipmentId: string; replay: boolean }
  | { ok: false; problem: "not-found" | "not-paid" | "not-shippable" | "already-shipped" };

class Refused extends Error {
  constructor(readonly problem: "not-paid" | "not-shippable" | "already-shipped") {
    super(problem);
  }
}

/**
 * Marks the order fulfilled once every line is (or is refunded in full), and delivered once it is
 * fulfilled and every shipment has been delivered. Call it in the transaction that changed the
 * lines or shipments.
 */
export async function settleFulfilment(tx: Database, orderId: string, now: Date): Promise<void> {
  const open = await tx
    .selectFrom("store_order_line")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("order_id", "=", orderId)
    .where("fulfilled_at", "is", null)
    .where((eb) => eb("refunded_quantity", "<", eb.ref("quantity")))
    .executeTakeFirstOrThrow();
  if (Number(open.n) > 0) return;
  await tx
    .updateTable("store_order")
    .set({ fulfilled_at: now.toISOString() })
    .where("id", "=", orderId)
    .where("fulfilled_at", "is", null)
    .execute();
  const shipments = await tx
    .selectFrom("store_shipment")
    .select((eb) => [eb.fn.countAll<number>().as("all"), eb.fn.count<number>("delivered_at").as("delivered")])
    .where("order_id", "=", orderId)
    .executeTakeFirstOrThrow();
  if (Number(shipments.all) > 0 && Number(shipments.all) === Number(shipments.delivered))
    await tx
      .updateTable("store_order")
      .set({ delivered_at: now.toISOString() })
      .where("id", "=", orderId)
      .where("delivered_at", "is", null)
      .execute();
}

/**
 * Digital lines and permissions licences are fulfilled when the order is paid, but pre-orders,
 * which are on their date (ADR 092); call it in that transaction.
 */
export async function fulfilAtPayment(tx: Database, orderId: string, now: Date): Promise<void> {
  const lines = await tx
    .selectFrom("store_order_line")
    .select(["position", "kind", "code", "available_date", "released_at"])
    .where("order_id", "=", orderId)
    .execute();
  const digital = lines.filter((l) => !lineShips(l) && !awaitingRelease(l)).map((l) => l.position);
  if (digital.length > 0)
    await tx
      .updateTable("store_order_line")
      .set({ fulfilled_at: now.toISOString() })
      .where("order_id", "=", orderId)
      .where("position", "in", digital)
      .where("fulfilled_at", "is", null)
      .execute();
  await settleFulfilment(tx, orderId, now);
}

/** Dispatches some of a paid order's print lines: a shipment with its tracking, the lines fulfilled, the buyer's dispatch mail to send. */
export async function fulfilLines(
  db: Database,
  actor: AuditActor,
  orderId: string,
  input: ShipmentInput,
  now: Date,
): Promise<FulfilOutcome> {
  const order = await db.selectFrom("store_order").select(["id", "number", "status"]).where("id", "=", orderId).executeTakeFirst();
  if (!order) return { ok: false, problem: "not-found" };
  const replay = await db
    .selectFrom("store_shipment")
    .select(["id", "order_id"])
    .where("idempotency_key", "=", input.idempotencyKey)
    .executeTakeFirst();
  if (replay) return replay.order_id === orderId ? { ok: true, shipmentId: replay.id, replay: true } : { ok: false, problem: "not-found" };
  const positions = [...new Set(input.positions)];
  const shipmentId = crypto.randomUUID();
  try {
    await db.transaction().execute(async (tx) => {
      const moved = await tx
        .updateTable("store_order")
        .set((eb) => ({ shipped_at: eb.fn.coalesce("shipped_at", eb.val(now.toISOString())) }))
        .where("id", "=", orderId)
        .where("status", "=", "paid")
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) !== 1) throw new Refused("not-paid");
      const lines = await tx
        .selectFrom("store_order_line")
        .select(["position", "title", "kind", "code", "quantity", "refunded_quantity", "fulfilled_at", "available_date", "released_at"])
        .where("order_id", "=", orderId)
        .where("position", "in", positions)
        .execute();
      if (lines.length !== positions.length || lines.some((l) => !lineShips(l) || awaitingRelease(l) || l.refunded_quantity >= l.quantity))
        throw new Refused("not-shippable");
      await tx
        .insertInto("store_shipment")
        .values({
          id: shipmentId,
          order_id: orderId,
          carrier: input.carrier,
          tracking_number: input.trackingNumber,
          idempotency_key: input.idempotencyKey,
          shipped_at: now.toISOString(),
          shipped_by: actor.label,
          delivered_at: null,
          mail_sent_at: null,
          mail_claimed_until: null,
        })
        .execute();
      const taken = await tx
        .updateTable("store_order_line")
        .set({ shipment_id: shipmentId, fulfilled_at: now.toISOString() })
        .where("order_id", "=", orderId)
        .where("position", "in", positions)
        .where("fulfilled_at", "is", null)
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) !== positions.length) throw new Refused("already-shipped");
      await settleFulfilment(tx, orderId, now);
      await recordAudit(
        tx,
        {
          actor,
          action: "order.fulfil",
          subject: `order:${order.number}`,
          before: null,
          after: { lines: lines.map((l) => `${l.position}: ${l.title}`), carrier: input.carrier, trackingNumber: input.trackingNumber },
        },
        now,
      );
    });
  } catch (error) {
    if (error instanceof Refused) return { ok: false, problem: error.problem };
    // The same form sent twice at once: the other request made the shipment.
    const again = await db.selectFrom("store_shipment").select("id").where("idempotency_key", "=", input.idempotencyKey).executeTakeFirst();
    if (again) return { ok: true, shipmentId: again.id, replay: true };
    throw error;
  }
  return { ok: true, shipmentId, replay: false };
}

export type DeliverOutcome = { ok: true; changed: boolean } | { ok: false; problem: "not-found" };

/** Marks a shipment delivered; marking it again changes nothing. */
export async function markDelivered(
  db: Database,
  actor: AuditActor,
  orderId: string,
  shipmentId: string,
  now: Date,
): Promise<DeliverOutcome> {
  return db.transaction().execute(async (tx): Promise<DeliverOutcome> => {
    const shipment = await tx
      .selectFrom("store_shipment as s")
      .innerJoin("store_order as o", "o.id", "s.order_id")
      .select(["s.id", "s.carrier", "s.tracking_number", "s.delivered_at", "o.number"])
      .where("s.id", "=", shipmentId)
      .where("s.order_id", "=", orderId)
      .executeTakeFirst();
    if (!shipment) return { ok: false, problem: "not-found" };
    const moved = await tx
      .updateTable("store_shipment")
      .set({ delivered_at: now.toISOString() })
      .where("id", "=", shipmentId)
      .where("delivered_at", "is", null)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) return { ok: true, changed: false };
    await settleFulfilment(tx, orderId, now);
    await recordAudit(
      tx,
      {
        actor,
        action: "order.deliver",
        subject: `order:${shipment.number}`,
        before: { shipment: shipment.tracking_number, deliveredAt: null },
        after: { shipment: shipment.tracking_number, deliveredAt: now.toISOString() },
      },
      now,
    );
    return { ok: true, changed: true };
  });
}

export interface Shipment {
  id: string;
  carrier: string;
  trackingNumber: string;
  shippedAt: string;
  shippedBy: string;
  deliveredAt: string | null;
  mailSentAt: string | null;
  /** The positions of the lines in it. */
  positions: number[];
}

/** An order's shipments, oldest first. */
export async function shipmentsOf(db: Database, orderId: string): Promise<Shipment[]> {
  const [rows, lines] = await Promise.all([
    db.selectFrom("store_shipment").selectAll().where("order_id", "=", orderId).orderBy("shipped_at").orderBy("id").execute(),
    db
      .selectFrom("store_order_line")
      .select(["position", "shipment_id"])
      .where("order_id", "=", orderId)
      .where("shipment_id", "is not", null)
      .execute(),
  ]);
  return rows.map((r) => ({
    id: r.id,
    carrier: r.carrier,
    trackingNumber: r.tracking_number,
    shippedAt: r.shipped_at,
    shippedBy: r.shipped_by,
    deliveredAt: r.delivered_at,
    mailSentAt: r.mail_sent_at,
    positions: lines.filter((l) => l.shipment_id === r.id).map((l) => l.position),
  }));
}
