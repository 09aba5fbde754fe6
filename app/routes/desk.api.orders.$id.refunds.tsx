import { keyActor } from "~/server/desk/api-keys";
import { deskOrder } from "~/server/store/fulfilment/desk-orders";
import { refundOrder as refund } from "~/server/store/refunds/refunds";
import { refundOrder } from "~/app/lib/api/groups/admin-operations";
import { apiError, apiJson, apiRoute, invalidFields, notFoundAnswer, serve } from "~/app/lib/api/handler.server";
import { changeKey, operationsDb, orderConflict, orderJson, refundJson, wrongState } from "~/app/lib/api/admin-operations.server";
import { REFUND_PROBLEMS } from "~/app/lib/desk/order-forms.server";
import { mailOrderUpdates, payments } from "~/app/lib/store/payments.server";

/**
 * POST /desk/api/orders/{id}/refunds (the Admin API, ADR 088): the desk's Refund, of chosen lines
 * or (without `lines`) of what is left, through the payment provider, with its audit row, credit
 * note and the buyer's mail. Never past what was paid: with nothing left it answers 409
 * `conflict`. The same Idempotency-Key again answers that refund and refunds nothing more.
 */
const route = apiRoute(
  serve(refundOrder, async (call) => {
    const db = await operationsDb(call);
    const found = await deskOrder(db, call.params.id);
    if (!found) return notFoundAnswer("order");
    const { lines, reason } = call.body;
    const outcome = await refund(
      db,
      await payments(),
      keyActor(call.key),
      found.order.id,
      { lines, reason, idempotencyKey: changeKey(call.key, "refund", found.order.number, call.headers["Idempotency-Key"]) },
      new Date(),
    );
    if (!outcome.ok) {
      const [status, message] = REFUND_PROBLEMS[outcome.problem];
      switch (outcome.problem) {
        case "not-found":
          return notFoundAnswer("order");
        case "bad-lines":
        case "nothing-left": {
          const now = (await deskOrder(db, found.order.number))!;
          // Lines asked of an order with nothing left are a conflict too, not a mistake in the lines.
          if (outcome.problem === "bad-lines" && now.lines.some((l) => l.refundable > 0)) return invalidFields({ lines: [message] });
          const last = now.refunds.filter((r) => r.status !== "failed").at(-1);
          return orderConflict(now, REFUND_PROBLEMS["nothing-left"][1], last && { by: last.requestedBy, at: last.createdAt });
        }
        case "provider":
          return apiError(status, "provider_unavailable", message);
        default:
          return wrongState(message);
      }
    }
    if (!outcome.replay) await mailOrderUpdates();
    const after = (await deskOrder(db, found.order.number))!;
    const made = after.refunds.find((r) => r.id === outcome.refundId)!;
    return apiJson({ refund: refundJson(made), order: orderJson(after) }, { status: outcome.replay ? 200 : 201 });
  }),
);

export const loader = route.loader;
export const action = route.action;
