import { itemLists } from "~/app/lib/api/groups/library";
import { apiRoute, serve } from "~/app/lib/api/handler.server";
import * as handlers from "~/app/lib/api/library.server";

/** GET /service/user/saves/{id}/lists (spec): the reader's folders, and whether each holds this saved item. (Not nested under user/saves.) */
const route = apiRoute(serve(itemLists, handlers.itemLists));

export const loader = route.loader;
export const action = route.action;
