import { createList, deleteList } from "~/app/lib/api/groups/library";
import { apiRoute, serve } from "~/app/lib/api/handler.server";
import * as handlers from "~/app/lib/api/library.server";

/** POST/DELETE /service/user/list/{name} (spec): creates or deletes one of the reader's folders. */
const route = apiRoute(serve(createList, handlers.createList), serve(deleteList, handlers.deleteList));

export const loader = route.loader;
export const action = route.action;
