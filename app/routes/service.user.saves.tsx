import { deleteSave } from "../lib/api/groups/library";
import { apiRoute, serve } from "../lib/api/handler.server";
import * as handlers from "../lib/api/library.server";

/** DELETE /service/user/saves (spec): removes a saved item from the reader's library. */
const route = apiRoute(serve(deleteSave, handlers.deleteSave));

export const loader = route.loader;
export const action = route.action;
