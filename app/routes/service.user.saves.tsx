import { deleteSave, saveItem } from "~/app/lib/api/groups/library";
import { apiRoute, serve } from "~/app/lib/api/handler.server";
import * as handlers from "~/app/lib/api/library.server";

/** POST and DELETE /service/user/saves (spec): saves an item to the reader's library, or removes one. */
const route = apiRoute(serve(saveItem, handlers.saveItem), serve(deleteSave, handlers.deleteSave));

export const loader = route.loader;
export const action = route.action;
