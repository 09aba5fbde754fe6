import { deleteSave, saveItem } from "../lib/api/groups/library";
import { apiRoute, serve } from "../lib/api/handler.server";
import * as handlers from "../lib/api/library.server";

/** POST and DELETE /service/user/saves (spec): saves an item to the reader's library, or removes one. */
const route = apiRoute(serve(saveItem, handlers.saveItem), serve(deleteSave, handlers.deleteSave));

export const loader = route.loader;
export const action = route.action;
