import { bulkAdd, bulkRemove } from "~/app/lib/api/groups/library";
import { apiRoute, serve } from "~/app/lib/api/handler.server";
import { bulkUpdate } from "~/app/lib/api/library.server";

/** POST/DELETE /service/user/lists/bulk-update (spec): a saved item into or out of the reader's folders. */
const route = apiRoute(serve(bulkAdd, bulkUpdate), serve(bulkRemove, bulkUpdate));

export const loader = route.loader;
export const action = route.action;
