import { newslettersUnsubscribe } from "../lib/api/groups/library";
import { apiRoute, serve } from "../lib/api/handler.server";
import * as handlers from "../lib/api/library.server";

/** POST /service/newsletters/unsubscribe (spec): by an unsubscribe link's token, or the signed-in reader by name. */
const route = apiRoute(serve(newslettersUnsubscribe, handlers.newslettersUnsubscribe));

export const loader = route.loader;
export const action = route.action;
