import { orderListFilter, orderListPage } from "~/server/store/fulfilment/desk-orders";
import { ADMIN_PAGE_SIZE } from "~/app/lib/api/groups/admin";
import { listOrders } from "~/app/lib/api/groups/admin-operations";
import { apiJson, apiRoute, serve } from "~/app/lib/api/handler.server";
import { operationsDb, orderSummaryJson } from "~/app/lib/api/admin-operations.server";

/** GET /desk/api/orders?status=&from=&to= (the Admin API, ADR 088): the desk's order list and its filter. */
const route = apiRoute(
  serve(listOrders, async (call) => {
    const { status, from, to } = call.query;
    const page = call.query.page ?? 1;
    const { rows, total } = await orderListPage(await operationsDb(call), orderListFilter(status, from, to), page, ADMIN_PAGE_SIZE);
    return apiJson({ page, pageSize: ADMIN_PAGE_SIZE, total, items: rows.map(orderSummaryJson) });
  }),
);

export const loader = route.loader;
export const action = route.action;
