import { search } from "~/app/lib/api/groups/subscriber";
import { apiRoute, serve } from "~/app/lib/api/handler.server";
import { searchSubscriber } from "~/app/lib/api/subscriber.server";

/** POST /api/user/subscriber/search (spec): the subscriber lookup. */
const route = apiRoute(serve(search, searchSubscriber));

export const loader = route.loader;
export const action = route.action;
