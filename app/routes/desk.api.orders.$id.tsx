import { deskOrder } from "~/server/store/fulfilment/desk-orders";
import { getOrder } from "~/app/lib/api/groups/admin-operations";
import { apiRoute, notFoundAnswer, serve } from "~/app/lib/api/handler.server";
import { answerOrder, operationsDb } from "~/app/lib/api/admin-operations.server";

/** GET /desk/api/orders/{id} (the Admin API, ADR 088): the desk's order page, as JSON, by the order's number. */
const route = apiRoute(
  serve(getOrder, async (call) => {
    const found = await deskOrder(await operationsDb(call), call.params.id);
    return found ? answerOrder(found) : notFoundAnswer("order");
  }),
);

export const loader = route.loader;
export const action = route.action;
