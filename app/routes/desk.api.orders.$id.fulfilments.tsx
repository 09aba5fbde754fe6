import { keyActor } from "~/server/desk/api-keys";
import { carrierFor } from "~/server/store/fulfilment/carriers";
import { deskOrder } from "~/server/store/fulfilment/desk-orders";
import { fulfilLines } from "~/server/store/fulfilment/shipments";
import { fulfilOrder } from "~/app/lib/api/groups/admin-operations";
import { apiJson, apiRoute, invalidFields, notFoundAnswer, serve } from "~/app/lib/api/handler.server";
import { changeKey, operationsDb, orderConflict, orderJson, shipmentJson, wrongState } from "~/app/lib/api/admin-operations.server";
import { FULFIL_PROBLEMS } from "~/app/lib/desk/order-forms.server";
import { mailOrderUpdates } from "~/app/lib/store/payments.server";

/**
 * POST /desk/api/orders/{id}/fulfilments (the Admin API, ADR 088): the desk's Dispatch form: a
 * parcel with its carrier and tracking number, the lines fulfilled, the audit row and the buyer's
 * dispatch mail. The same Idempotency-Key again answers that parcel.
 */
const route = apiRoute(
  serve(fulfilOrder, async (call) => {
    const db = await operationsDb(call);
    const found = await deskOrder(db, call.params.id);
    if (!found) return notFoundAnswer("order");
    const { lines, carrier, trackingNumber } = call.body;
    const outcome = await fulfilLines(
      db,
      keyActor(call.key),
      found.order.id,
      {
        positions: lines,
        carrier: carrierFor(carrier),
        trackingNumber,
        idempotencyKey: changeKey(call.key, "fulfil", found.order.number, call.headers["Idempotency-Key"]),
      },
      new Date(),
    );
    if (!outcome.ok) {
      if (outcome.problem === "not-found") return notFoundAnswer("order");
      if (outcome.problem === "not-shippable") return invalidFields({ lines: [FULFIL_PROBLEMS["not-shippable"]] });
      if (outcome.problem === "not-paid") return wrongState(FULFIL_PROBLEMS["not-paid"]);
      const now = (await deskOrder(db, found.order.number))!;
      const last = now.shipments.at(-1);
      return orderConflict(now, FULFIL_PROBLEMS["already-shipped"], last && { by: last.shippedBy, at: last.shippedAt });
    }
    if (!outcome.replay) await mailOrderUpdates();
    const after = (await deskOrder(db, found.order.number))!;
    const shipment = after.shipments.find((s) => s.id === outcome.shipmentId)!;
    return apiJson({ shipment: shipmentJson(shipment), order: orderJson(after) }, { status: outcome.replay ? 200 : 201 });
  }),
);

export const loader = route.loader;
export const action = route.action;
