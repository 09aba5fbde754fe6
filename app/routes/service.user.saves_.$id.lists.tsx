import { itemLists } from "../lib/api/groups/library";
import { apiRoute, serve } from "../lib/api/handler.server";
import * as handlers from "../lib/api/library.server";

/** GET /service/user/saves/{id}/lists (spec): the reader's folders, and whether each holds this saved item. (Not nested under user/saves.) */
const route = apiRoute(serve(itemLists, handlers.itemLists));

export const loader = route.loader;
export const action = route.action;
