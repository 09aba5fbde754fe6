import { findReaders } from "~/server/desk/service";
import { ADMIN_PAGE_SIZE } from "~/app/lib/api/groups/admin";
import { listReaders } from "~/app/lib/api/groups/admin-operations";
import { apiJson, apiRoute, serve } from "~/app/lib/api/handler.server";
import { operationsDb } from "~/app/lib/api/admin-operations.server";

/** GET /desk/api/readers?q= (the Admin API, ADR 088): the desk's reader search. */
const route = apiRoute(
  serve(listReaders, async (call) => {
    const page = call.query.page ?? 1;
    const found = await findReaders(await operationsDb(call), call.query.q, page, ADMIN_PAGE_SIZE);
    // A page past the last is empty, as the other lists' are (the search itself answers the last).
    const items = page > found.pages ? [] : found.readers;
    return apiJson({
      page,
      pageSize: ADMIN_PAGE_SIZE,
      total: found.total,
      items: items.map((r) => ({ id: r.id, email: r.email, name: r.name, status: r.status, createdAt: r.createdAt, matched: r.matched })),
    });
  }),
);

export const loader = route.loader;
export const action = route.action;
