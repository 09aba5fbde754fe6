import { createList, deleteList } from "../lib/api/groups/library";
import { apiRoute, serve } from "../lib/api/handler.server";
import * as handlers from "../lib/api/library.server";

/** POST/DELETE /service/user/list/{name} (spec): creates or deletes one of the reader's folders. */
const route = apiRoute(serve(createList, handlers.createList), serve(deleteList, handlers.deleteList));

export const loader = route.loader;
export const action = route.action;
