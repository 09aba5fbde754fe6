import { newslettersUnsubscribe } from "~/app/lib/api/groups/library";
import { apiRoute, serve } from "~/app/lib/api/handler.server";
import * as handlers from "~/app/lib/api/library.server";

/** POST /service/newsletters/unsubscribe (spec): by an unsubscribe link's token, or the signed-in reader by name. */
const route = apiRoute(serve(newslettersUnsubscribe, handlers.newslettersUnsubscribe));

export const loader = route.loader;
export const action = route.action;
