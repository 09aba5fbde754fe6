import { getReader } from "~/app/lib/api/groups/admin-operations";
import { apiJson, apiRoute, notFoundAnswer, serve } from "~/app/lib/api/handler.server";
import { operationsDb, overviewOf, readerJson } from "~/app/lib/api/admin-operations.server";

/** GET /desk/api/readers/{id} (the Admin API, ADR 088): the desk's reader page, as JSON. */
const route = apiRoute(
  serve(getReader, async (call) => {
    const overview = await overviewOf(await operationsDb(call), call.params.id);
    return overview ? apiJson(readerJson(overview)) : notFoundAnswer("reader");
  }),
);

export const loader = route.loader;
export const action = route.action;
