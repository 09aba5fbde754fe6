import { deleteLists, getLists } from "~/app/lib/api/groups/library";
import { apiRoute, serve } from "~/app/lib/api/handler.server";
import * as handlers from "~/app/lib/api/library.server";

/** GET and DELETE /service/user/lists (spec): the reader's folders. (Not the parent of user/lists/bulk-update.) */
const route = apiRoute(serve(getLists, handlers.getLists), serve(deleteLists, handlers.deleteLists));

export const loader = route.loader;
export const action = route.action;
