import { search } from "../lib/api/groups/subscriber";
import { apiRoute, serve } from "../lib/api/handler.server";
import { searchSubscriber } from "../lib/api/subscriber.server";

/** POST /api/user/subscriber/search (spec): the subscriber lookup. */
const route = apiRoute(serve(search, searchSubscriber));

export const loader = route.loader;
export const action = route.action;
