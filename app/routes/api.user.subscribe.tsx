import { subscribe } from "~/app/lib/api/groups/subscriber";
import { apiRoute, serve } from "~/app/lib/api/handler.server";
import * as handlers from "~/app/lib/api/subscriber.server";

/** POST /api/user/subscribe (spec): an existing account connects its print subscription. */
const route = apiRoute(serve(subscribe, handlers.subscribe));

export const loader = route.loader;
export const action = route.action;
